/**
 * The one way a token is shown anywhere (profile list, request log, headers): a few characters
 * at each end, never more than 4 at the start and 2 at the end, and never half of a short token.
 */
export const MASK_ELLIPSIS = '…';

export function maskToken(token: string): string {
  const len = token.length;
  const head = Math.min(4, Math.floor(len / 3));
  const tail = Math.min(2, Math.floor(len / 6));
  return token.slice(0, head) + MASK_ELLIPSIS + (tail > 0 ? token.slice(len - tail) : '');
}

/** Replaces every occurrence of any of the tokens in a text by its masked form. */
export function redactTokens(text: string, tokens: Iterable<string>): string {
  let out = text;
  // Longest first, so that a token that contains another is masked whole.
  const sorted = [...new Set(tokens)].filter((t) => t.length > 0).sort((a, b) => b.length - a.length);
  for (const token of sorted) if (out.includes(token)) out = out.split(token).join(maskToken(token));
  return out;
}
