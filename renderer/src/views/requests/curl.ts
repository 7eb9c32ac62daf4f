/** "Copy as curl": the request as a shell command, with the headers as logged (tokens already masked). */

/** Single-quoted for POSIX shells: a ' inside becomes '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface CurlRequest {
  method: string;
  /** Base URL of the profile, or null when not known (the command then carries the path only). */
  baseUrl: string | null;
  /** Path and query as logged. */
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

export function toCurl(r: CurlRequest): string {
  const url = r.baseUrl ? `${r.baseUrl.replace(/\/+$/, '')}${r.path.startsWith('/') ? '' : '/'}${r.path}` : r.path;
  const parts = ['curl', ...(r.method === 'GET' ? [] : ['-X', r.method]), shellQuote(url)];
  const names = Object.keys(r.headers).sort((a, b) => a.localeCompare(b));
  // The client sets these itself; curl would too, and a stale length breaks the copied request.
  for (const name of names) if (!/^(content-length|host|connection)$/i.test(name)) parts.push('-H', shellQuote(`${name}: ${r.headers[name]}`));
  if (r.body !== null && r.body !== '') parts.push('--data-raw', shellQuote(r.body));
  return parts.join(' ');
}
