/**
 * The one way a token is shown or scrubbed anywhere (client errors, profile list, request log,
 * dispatcher answers). Plain code with no Node or Electron imports, so every layer may use it.
 * A token is shown masked: a few characters at each end, never more than 4 at the start and 2 at
 * the end, and never half of a short token.
 */
export const MASK_ELLIPSIS = '…';

export function maskToken(token: string): string {
  const len = token.length;
  const head = Math.min(4, Math.floor(len / 3));
  const tail = Math.min(2, Math.floor(len / 6));
  return token.slice(0, head) + MASK_ELLIPSIS + (tail > 0 ? token.slice(len - tail) : '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A hex digit in either case, for \uXXXX escapes. */
function hexDigit(d: string): string {
  return /[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d;
}

/**
 * One character of a token as JSON text may write it: as itself, as a \uXXXX escape, and `/`, `"`
 * and `\` also in their short escapes (PHP writes `\/` for `/`).
 */
function jsonTolerantChar(c: string): string {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  const alternatives = [escapeRegExp(c), `\\\\u${[...hex].map(hexDigit).join('')}`];
  if (c === '/' || c === '"' || c === '\\') alternatives.push(`\\\\${escapeRegExp(c)}`);
  return `(?:${alternatives.join('|')})`;
}

/** The token a match stands for, its JSON escapes undone. */
function unescapeMatch(match: string): string {
  return match.replace(/\\(u[0-9a-fA-F]{4}|[/"\\])/g, (_, e: string) => (e.length === 1 ? e : String.fromCharCode(parseInt(e.slice(1), 16))));
}

/**
 * One pass over the text: longest tokens first in the alternation, so a token that contains
 * another is masked whole, and an already masked token is never masked again. Each token is also
 * found JSON-escaped, so an echo of it in a JSON body is masked too.
 */
function tokenPattern(tokens: Iterable<string>): RegExp | null {
  const sorted = [...new Set(tokens)].filter((t) => t.length > 0).sort((a, b) => b.length - a.length);
  return sorted.length === 0 ? null : new RegExp(sorted.map((t) => [...t].map(jsonTolerantChar).join('')).join('|'), 'g');
}

/** Replaces every occurrence of any of the tokens in a text, written plain or JSON-escaped, by its masked form. */
export function redactText(text: string, tokens: Iterable<string>): string {
  const pattern = tokenPattern(tokens);
  return pattern === null ? text : text.replace(pattern, (match) => maskToken(unescapeMatch(match)));
}

const MAX_DEPTH = 20;

/**
 * Deep copy of a JSON-ish value with tokens masked in every string (keys too). Walks the value
 * itself, so a token with a quote or backslash in it is found as written.
 */
export function redactValue(value: unknown, tokens: Iterable<string>): unknown {
  const pattern = tokenPattern(tokens);
  if (pattern === null) return value;
  const text = (s: string): string => s.replace(pattern, (match) => maskToken(unescapeMatch(match)));
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return text(v);
    if (v === null || typeof v !== 'object') return v;
    // Deeper than any answer we expect: dropped rather than shown unscrubbed.
    if (depth > MAX_DEPTH) return null;
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    const out: Record<string, unknown> = {};
    // Defined, not assigned: an answer's own `__proto__` key stays a data key, never a prototype.
    for (const [k, item] of Object.entries(v))
      Object.defineProperty(out, text(k), { value: walk(item, depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return walk(value, 0);
}
