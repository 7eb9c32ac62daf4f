/**
 * "Copy as curl": a logged request as a POSIX shell command that runs. The token never comes from
 * the log (it holds only masked text): the header that carried it is written again, with
 * `"$PARTNER_TOKEN"` for the shell to expand (the page's Copy as curl), or with the plain token
 * (main's Copy with token, straight to the clipboard).
 */

/** The shell variable the copied command reads the token from. */
export const TOKEN_VARIABLE = 'PARTNER_TOKEN';

/** What the page tells the user next to a copied command. */
export const TOKEN_VARIABLE_NOTE = `Set ${TOKEN_VARIABLE} to your token before running it: export ${TOKEN_VARIABLE}='…'`;

/** Where a copied command runs: its quoting and "$PARTNER_TOKEN" are a POSIX shell's, which cmd.exe and PowerShell read otherwise. */
export const CURL_SHELL_NOTE = 'For a POSIX shell (bash, zsh); on Windows, run it in Git Bash or WSL, not cmd.exe or PowerShell.';

/** The note once a command is copied: the shell it is for, and the token variable to set when it reads one. */
export function curlCopiedNote(readsTokenVariable: boolean): string {
  return `Copied. ${CURL_SHELL_NOTE}${readsTokenVariable ? ` ${TOKEN_VARIABLE_NOTE}` : ''}`;
}

/** What a logged request must still have for a command that sends it again. */
export interface CurlSource {
  origin: string | null;
  detailKept: boolean;
  requestBodyCut: boolean;
}

/**
 * Why a logged request cannot be copied as curl; null when it can. Never guessed from elsewhere (the
 * connected profile's base URL may be another host, and the headers and body are gone): refused.
 */
export function curlRefusal(d: CurlSource): string | null {
  if (d.origin === null) return 'This request was never sent: no address, headers or body were recorded, so it cannot be copied as curl.';
  if (!d.detailKept)
    return 'Details of older requests are not kept (the log keeps headers and bodies of the newest only), so this one cannot be copied as curl.';
  // A command that silently sends another body is worse than none.
  if (d.requestBodyCut)
    return 'Only the start of this request body was kept (the log cuts bodies at 4,096 characters): a command would send a different body, so it is not copied.';
  return null;
}

/** Single-quoted for POSIX shells: a ' inside becomes '\''. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The header that carried the token, and the scheme word before it (null: the bare token). Names only. */
export interface TokenHeader {
  header: string;
  scheme: string | null;
}

/** How the token is written: as the shell variable, or as itself (main only). */
export type CurlToken = { kind: 'variable' } | { kind: 'plain'; token: string };

export interface CurlRequest {
  method: string;
  /** Origin the request went to (scheme, host, port), or null when not known (the command then carries the path only). */
  origin: string | null;
  /** Path and query exactly as sent (the log's `target`): used verbatim, never re-encoded. */
  target: string;
  /** As logged (masked). */
  headers: Record<string, string>;
  body: string | null;
  /** Where the log saw the token; null when the request carried none the app knows. */
  tokenHeader: TokenHeader | null;
}

/** `"$PARTNER_TOKEN"` after the single-quoted header name and scheme, so that the shell expands it and nothing else. */
function tokenHeaderArg(at: TokenHeader, token: CurlToken): string {
  const prefix = `${at.header}: ${at.scheme === null ? '' : `${at.scheme} `}`;
  return token.kind === 'plain' ? shellQuote(prefix + token.token) : `${shellQuote(prefix)}"$${TOKEN_VARIABLE}"`;
}

export function toCurl(r: CurlRequest, token: CurlToken = { kind: 'variable' }): string {
  const url = r.origin ? `${r.origin.replace(/\/+$/, '')}${r.target.startsWith('/') ? '' : '/'}${r.target}` : r.target;
  // --globoff: brackets and braces are the URL's, not curl's ranges; --path-as-is: dot segments go as sent.
  const parts = ['curl', ...(r.method === 'GET' ? [] : ['-X', r.method]), '--globoff', '--path-as-is', shellQuote(url)];
  const tokenName = r.tokenHeader?.header.toLowerCase() ?? null;
  const names = Object.keys(r.headers).sort((a, b) => a.localeCompare(b));
  for (const name of names) {
    // The client sets these itself; curl would too, and a stale length breaks the copied request.
    if (/^(content-length|host|connection)$/i.test(name)) continue;
    // The masked token never goes into a command: the header is written again below.
    if (name.toLowerCase() === tokenName) continue;
    parts.push('-H', shellQuote(`${name}: ${r.headers[name]}`));
  }
  if (r.tokenHeader) parts.push('-H', tokenHeaderArg(r.tokenHeader, token));
  if (r.body !== null && r.body !== '') parts.push('--data-raw', shellQuote(r.body));
  return parts.join(' ');
}
