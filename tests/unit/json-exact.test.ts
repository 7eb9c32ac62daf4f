import { describe, expect, it } from 'vitest';
import { NumberText } from '../../shared/json/number-text';
import { parseJsonExact } from '../../shared/json/parse-exact';
import { stringifyJsonExact } from '../../shared/json/stringify-exact';

const deepArray = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const deepObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('parseJsonExact', () => {
  it('keeps integers past 2^53 as the digits the text has, and every other value as JSON.parse reads it', () => {
    const text =
      '{"ids":[1234567890123456789,1234567890123456790,9007199254740993,9007199254740992,-9007199254740993],"safe":9007199254740991,"price":12.5,"big":1e300,"s":"1234567890123456789"}';
    const value = parseJsonExact(text) as { ids: unknown[]; safe: unknown; price: unknown; big: unknown; s: unknown };
    expect(value.ids.map((v) => (v instanceof NumberText ? `text:${v.text}` : v))).toEqual([
      'text:1234567890123456789',
      'text:1234567890123456790',
      'text:9007199254740993',
      'text:9007199254740992',
      'text:-9007199254740993',
    ]);
    expect(value.safe).toBe(9007199254740991);
    expect(value.price).toBe(12.5);
    expect(value.big).toBe(1e300);
    // Digits inside a string stay a string.
    expect(value.s).toBe('1234567890123456789');
  });

  it('reads strings with quotes, backslashes and U+0000 escapes around long digits without taking them for numbers', () => {
    const text = String.raw`["a\"1234567890123456789\\", 1234567890123456789, "\u00001234567890123456789", "x\\\"y 99999999999999999"]`;
    const value = parseJsonExact(text) as unknown[];
    expect(value[0]).toBe('a"1234567890123456789\\');
    expect(value[1]).toEqual(new NumberText('1234567890123456789'));
    expect(value[2]).toBe('\u00001234567890123456789');
    expect(value[3]).toBe('x\\"y 99999999999999999');
  });

  it('refuses what JSON.parse refuses, also where quoting a long literal would have made it valid', () => {
    expect(() => parseJsonExact('{1234567890123456789: 1}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('[01234567890123456789]')).toThrow(SyntaxError);
    expect(() => parseJsonExact('[1234567890123456789')).toThrow(SyntaxError);
  });

  it('reads 6,000 levels of nesting (with and without a long integer in it)', () => {
    expect(() => parseJsonExact(deepArray(6000))).not.toThrow();
    const deep = parseJsonExact(`${'['.repeat(6000)}1234567890123456789${']'.repeat(6000)}`);
    let node: unknown = deep;
    for (let i = 0; i < 6000; i++) node = (node as unknown[])[0];
    expect(node).toEqual(new NumberText('1234567890123456789'));
  });
});

describe('stringifyJsonExact', () => {
  it('writes what JSON.stringify writes for plain data, indented or not', () => {
    const value = { a: [1, 'two', null, true, undefined, () => 1], b: { c: -0, d: NaN, e: undefined, f: new Date(0) }, '"k"': [], o: {}, u: 'é\u2028\n' };
    expect(stringifyJsonExact(value)).toBe(JSON.stringify(value));
    expect(stringifyJsonExact(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(stringifyJsonExact(undefined)).toBeUndefined();
    expect(stringifyJsonExact('x')).toBe('"x"');
  });

  it('writes NumberText as number text, so a parsed answer goes out as the service wrote it', () => {
    const text = '{"id":1234567890123456789,"next":[9007199254740993,{"x":"9007199254740993"}]}';
    expect(stringifyJsonExact(parseJsonExact(text))).toBe(text);
  });

  it('writes 6,000 levels of nesting whole, and refuses a cycle', () => {
    expect(stringifyJsonExact(parseJsonExact(deepArray(6000)))).toBe(deepArray(6000));
    expect(stringifyJsonExact(parseJsonExact(deepObject(6000)))).toBe(deepObject(6000));
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(() => stringifyJsonExact(cycle)).toThrow(TypeError);
  });
});

describe('exact JSON round trip on generated documents', () => {
  /** A small deterministic generator (the same documents every run). */
  function rng(seed: number): () => number {
    let x = seed;
    return () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x / 2147483648;
    };
  }
  const PIECES = ['a', '"', '\\', '1234567890123456789', '\u0000', 'é', '\n', ' ', '-', '9007199254740993', '{', ']', ':'];

  /** A value and its compact JSON text, written by hand so that big integers are exact in the text. */
  function generate(next: () => number, depth: number): { value: unknown; text: string } {
    const kind = Math.floor(next() * (depth > 4 ? 4 : 7));
    if (kind === 0) {
      const s = Array.from({ length: Math.floor(next() * 5) }, () => PIECES[Math.floor(next() * PIECES.length)]!).join('');
      return { value: s, text: JSON.stringify(s) };
    }
    if (kind === 1) {
      const n = [0, -1, 42, 9007199254740991, -9007199254740991, 12.5, -0.001, 1e21, 2.5e-7][Math.floor(next() * 9)]!;
      return { value: n, text: JSON.stringify(n) };
    }
    if (kind === 2) {
      const big = (BigInt(Math.floor(next() * 1e9)) * 10_000_000_000n + 9_007_199_254_740_993n) * (next() < 0.3 ? -1n : 1n);
      return { value: new NumberText(big.toString()), text: big.toString() };
    }
    if (kind === 3)
      return [
        { value: null, text: 'null' },
        { value: true, text: 'true' },
        { value: false, text: 'false' },
      ][Math.floor(next() * 3)]!;
    const children = Array.from({ length: Math.floor(next() * 4) }, () => generate(next, depth + 1));
    if (kind === 4) return { value: children.map((c) => c.value), text: `[${children.map((c) => c.text).join(',')}]` };
    const keys = children.map((_, i) => `k${i}${PIECES[Math.floor(next() * PIECES.length)]}`);
    const value: Record<string, unknown> = {};
    children.forEach((c, i) => (value[keys[i]!] = c.value));
    return { value, text: `{${children.map((c, i) => `${JSON.stringify(keys[i])}:${c.text}`).join(',')}}` };
  }

  it('reads 2,000 documents as written (big integers as NumberText, all else as JSON.parse) and writes them back byte for byte', () => {
    const next = rng(21);
    for (let i = 0; i < 2000; i++) {
      const { value, text } = generate(next, 0);
      expect(parseJsonExact(text)).toEqual(value);
      expect(stringifyJsonExact(parseJsonExact(text))).toBe(text);
    }
  });
});
