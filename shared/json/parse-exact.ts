/**
 * JSON.parse that keeps integers past 2^53 exact (as NumberText). Node 20's reviver has no source
 * text, and a recursive JS parser overflows the stack on deep nesting (lossless-json does at 6,000
 * levels), so: one linear, non-recursive scan quotes each unsafe integer literal outside strings
 * behind a marker, V8's own parser (iterative) reads the text, and an iterative walk turns the
 * marked strings into NumberText. Text without a run of 16 digits (no unsafe integer can be in it)
 * goes straight to JSON.parse.
 */
import { NumberText } from './number-text';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const PLUS = 0x2b;

/** 2^53 has 16 digits: a shorter integer literal is always safe. */
const LONG_DIGITS = /\d{16}/;
const UNSAFE_MIN_DIGITS = 16;

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

/**
 * A marker no decoded string of the text can start with: U+0000 cannot appear raw in JSON text,
 * so only an escape writes it; when the text has one, a random suffix makes a match unguessable.
 */
function markerFor(text: string): string {
  if (!/\\u0000/i.test(text)) return '\u0000';
  const random = new Uint32Array(2);
  globalThis.crypto.getRandomValues(random);
  return `\u0000${random[0]!.toString(36)}${random[1]!.toString(36)}:`;
}

/** Index just past the closing quote of the string whose body starts at `from` (the text's end if unclosed). */
function endOfString(text: string, from: number): number {
  let i = from;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return text.length;
    let slashes = 0;
    for (let b = q - 1; b >= from && text.charCodeAt(b) === BACKSLASH; b--) slashes++;
    if (slashes % 2 === 0) return q + 1;
    i = q + 1;
  }
}

interface Marked {
  text: string;
  count: number;
}

/** The text with each unsafe integer literal outside strings written as a marked string. */
function markUnsafeIntegers(text: string, marker: string): Marked {
  const escapedMarker = JSON.stringify(marker).slice(1, -1);
  const parts: string[] = [];
  let last = 0;
  let count = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = endOfString(text, i + 1);
      continue;
    }
    if (c !== MINUS && !isDigit(c)) {
      i++;
      continue;
    }
    const start = i;
    if (c === MINUS) i++;
    const digitsStart = i;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
    const digitsEnd = i;
    let integer = true;
    if (i < n && text.charCodeAt(i) === DOT) {
      integer = false;
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (i < n && (text.charCodeAt(i) === LOWER_E || text.charCodeAt(i) === UPPER_E)) {
      integer = false;
      i++;
      if (i < n && (text.charCodeAt(i) === PLUS || text.charCodeAt(i) === MINUS)) i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    const digits = digitsEnd - digitsStart;
    // A leading zero is no JSON number: left as it is, for JSON.parse to refuse.
    if (!integer || digits < UNSAFE_MIN_DIGITS || text.charCodeAt(digitsStart) === ZERO) continue;
    const literal = text.slice(start, digitsEnd);
    if (Number.isSafeInteger(Number(literal))) continue;
    parts.push(text.slice(last, start), '"', escapedMarker, literal, '"');
    last = digitsEnd;
    count++;
  }
  if (count === 0) return { text, count };
  parts.push(text.slice(last));
  return { text: parts.join(''), count };
}

/** Replaces marked strings by NumberText, walking with a stack (any depth). Returns the new root and how many. */
function restore(root: unknown, marker: string): { value: unknown; restored: number } {
  let restored = 0;
  const revive = (v: unknown): unknown => {
    if (typeof v === 'string' && v.startsWith(marker)) {
      restored++;
      return new NumberText(v.slice(marker.length));
    }
    return v;
  };
  const value = revive(root);
  const stack: object[] = typeof value === 'object' && value !== null ? [value] : [];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (Array.isArray(node)) {
      for (let k = 0; k < node.length; k++) {
        const item: unknown = node[k];
        if (typeof item === 'string') node[k] = revive(item);
        else if (typeof item === 'object' && item !== null) stack.push(item);
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        if (typeof item === 'string') record[key] = revive(item);
        else if (typeof item === 'object' && item !== null) stack.push(item);
      }
    }
  }
  return { value, restored };
}

/** JSON.parse with integers past 2^53 as NumberText. Throws SyntaxError as JSON.parse does. */
export function parseJsonExact(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text) as unknown;
  const marker = markerFor(text);
  const marked = markUnsafeIntegers(text, marker);
  const parsed = JSON.parse(marked.text) as unknown;
  if (marked.count === 0) return parsed;
  const { value, restored } = restore(parsed, marker);
  // A literal in a key's place (invalid JSON that quoting made valid) is never restored: refuse it.
  if (restored !== marked.count) throw new SyntaxError('Unexpected number in JSON where a property name belongs');
  return value;
}
