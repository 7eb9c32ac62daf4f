/**
 * Whether browser mode's server still answers plain HTTP on the bridge path. It answers a GET there
 * with 426 (Upgrade Required); a page whose sockets keep closing before they open while this holds
 * is being refused (its secret), not cut off from a stopped server.
 */
export async function bridgeAnswersHttp(url: string, fetchImpl: typeof fetch = fetch, timeoutMs = 5000): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetchImpl(url, { cache: 'no-store', signal: controller.signal });
    return response.status === 426;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
