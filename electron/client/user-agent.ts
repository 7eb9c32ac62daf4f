/**
 * The User-Agent every request carries, set by the app and not left to the stack: Node's fetch says
 * "node", Chromium's net.fetch its browser string, curl "curl/…". A service sees one name whichever
 * stack sent the request, and a copied curl command (which sends the logged headers) sends the same.
 */

export const USER_AGENT_PRODUCT = 'PartnerConsole';

/** "PartnerConsole/<version>", or the bare product when the version is not known. */
export function appUserAgent(version?: string): string {
  return version ? `${USER_AGENT_PRODUCT}/${version}` : USER_AGENT_PRODUCT;
}

/** A fetch that adds `User-Agent: userAgent` to a request that names none (a caller's own wins). */
export function withUserAgent(inner: typeof fetch, userAgent: string): typeof fetch {
  const sending = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (headers.has('user-agent')) return inner(input, init);
    headers.set('user-agent', userAgent);
    return inner(input, { ...init, headers });
  };
  return sending as typeof fetch;
}
