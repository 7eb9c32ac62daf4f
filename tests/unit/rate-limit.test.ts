/**
 * shared/rate-limit.ts's parser against hostile header values: nothing throws, an unknown value
 * comes back null with a problem line, never NaN or negative.
 */
import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_HEADERS, parseRateLimitHeaders, parseServerDate } from '../../shared/rate-limit';
import type { RawHeaderValue } from '../../shared/rate-limit';

type Field = 'limit' | 'remaining' | 'reset';

/** A header source that answers `value` for one header and sane values for the others. */
function withOne(field: Field, value: unknown): (name: string) => RawHeaderValue {
  const sane: Record<string, string> = {
    [RATE_LIMIT_HEADERS.limit]: '20',
    [RATE_LIMIT_HEADERS.remaining]: '7',
    [RATE_LIMIT_HEADERS.reset]: '0',
  };
  return (name) => (name === RATE_LIMIT_HEADERS[field] ? (value as RawHeaderValue) : sane[name]);
}

function fromMap(map: Record<string, unknown>): (name: string) => RawHeaderValue {
  return (name) => map[name] as RawHeaderValue;
}

describe('parseRateLimitHeaders', () => {
  it('reads clean values', () => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': '20', 'X-Rate-Limit-Remaining': '19', 'X-Rate-Limit-Reset': '0' }));
    expect(r).toEqual({ limit: 20, remaining: 19, reset: 0, problems: [] });
  });

  it('takes the value from a Headers-like object (fetch Headers)', () => {
    const h = new Headers({ 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '1' });
    expect(parseRateLimitHeaders((n) => h.get(n))).toEqual({ limit: 50, remaining: 0, reset: 1, problems: [] });
  });

  it('reports all three missing (a 401 carries none)', () => {
    const r = parseRateLimitHeaders(() => undefined);
    expect(r.limit).toBeNull();
    expect(r.remaining).toBeNull();
    expect(r.reset).toBeNull();
    expect(r.problems).toHaveLength(3);
    expect(r.problems.every((p) => p.endsWith('missing'))).toBe(true);
  });

  const unknownCases: [string, unknown][] = [
    ['null', null],
    ['empty', ''],
    ['blank', '   '],
    ['empty array', []],
    ['array of blanks', ['', ' ']],
    ['negative', '-1'],
    ['negative zero', '-0'],
    ['non-numeric', 'soon'],
    ['number with unit', '5s'],
    ['hex', '0x10'],
    ['exponent', '1e3'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['huge', '18446744073709551616'],
    ['far too many digits', '9'.repeat(400)],
    ['above the believable bound', '100001'],
    ['one bad among repeats', ['5', 'x']],
    ['joined repeats with a bad one', '5, -2'],
    ['a number that is NaN', Number.NaN],
    ['a negative number', -3],
    ['a boolean', true],
    ['a plain object', { value: 5 }],
    ['an array holding an object', [{}]],
    ['an array holding a symbol', [Symbol('x')]],
    [
      'an element whose toString throws',
      [
        {
          toString: () => {
            throw new Error('boom');
          },
        },
      ],
    ],
  ];

  for (const field of ['limit', 'remaining', 'reset'] as const) {
    for (const [label, value] of unknownCases) {
      it(`${field}: ${label} -> null with a problem line, no throw`, () => {
        const r = parseRateLimitHeaders(withOne(field, value));
        expect(r[field]).toBeNull();
        expect(r.problems.length).toBeGreaterThanOrEqual(1);
        expect(r.problems.some((p) => p.includes(RATE_LIMIT_HEADERS[field]))).toBe(true);
      });
    }
  }

  it('a getter that throws reads as missing, for every header', () => {
    const r = parseRateLimitHeaders(() => {
      throw new Error('header source broke');
    });
    expect(r).toMatchObject({ limit: null, remaining: null, reset: null });
    expect(r.problems).toHaveLength(3);
  });

  it('a getter that throws for one header only spoils that one', () => {
    const r = parseRateLimitHeaders((n) => {
      if (n === RATE_LIMIT_HEADERS.reset) throw new Error('no');
      return n === RATE_LIMIT_HEADERS.limit ? '20' : '3';
    });
    expect(r).toMatchObject({ limit: 20, remaining: 3, reset: null });
    expect(r.problems).toEqual([`${RATE_LIMIT_HEADERS.reset} missing`]);
  });

  it('a numeric value (Node getHeader can return numbers) is read, not thrown on', () => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': 20, 'X-Rate-Limit-Remaining': 4, 'X-Rate-Limit-Reset': 0 }));
    expect(r).toEqual({ limit: 20, remaining: 4, reset: 0, problems: [] });
  });

  it('tolerates surrounding spaces and a plus sign', () => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': ' 20 ', 'X-Rate-Limit-Remaining': '+4', 'X-Rate-Limit-Reset': '0' }));
    expect(r).toEqual({ limit: 20, remaining: 4, reset: 0, problems: [] });
  });

  it('fractional Remaining and Limit are floored with a problem line; fractional Reset is kept', () => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': '20.7', 'X-Rate-Limit-Remaining': '2.5', 'X-Rate-Limit-Reset': '0.5' }));
    expect(r.limit).toBe(20);
    expect(r.remaining).toBe(2);
    expect(r.reset).toBe(0.5);
    expect(r.problems).toHaveLength(3);
    expect(r.problems.every((p) => p.includes('fractional'))).toBe(true);
  });

  it('repeated with the same value (array or joined) is fine', () => {
    expect(parseRateLimitHeaders(withOne('remaining', ['7', '7']))).toEqual({ limit: 20, remaining: 7, reset: 0, problems: [] });
    expect(parseRateLimitHeaders(withOne('remaining', '7, 7'))).toEqual({ limit: 20, remaining: 7, reset: 0, problems: [] });
  });

  it('repeated with different values: the smallest budget, the longest reset, and a problem line', () => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': ['20', '50'], 'X-Rate-Limit-Remaining': '9, 3', 'X-Rate-Limit-Reset': ['0', '1'] }));
    expect(r).toMatchObject({ limit: 20, remaining: 3, reset: 1 });
    expect(r.problems).toHaveLength(3);
    expect(r.problems.every((p) => p.includes('repeated with different values'))).toBe(true);
  });

  it('Remaining above Limit is capped at Limit with a problem line', () => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': '20', 'X-Rate-Limit-Remaining': '25', 'X-Rate-Limit-Reset': '0' }));
    expect(r.remaining).toBe(20);
    expect(r.problems).toHaveLength(1);
  });

  it.each(['0', '0.5'])('a Limit of %s (no budget, a garbled header) does not cap Remaining: it would read 0 on every answer', (limit) => {
    const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': limit, 'X-Rate-Limit-Remaining': '19', 'X-Rate-Limit-Reset': '0' }));
    expect(r.remaining).toBe(19);
    expect(r.problems.some((p) => p.includes('X-Rate-Limit-Limit') && p.includes('under 1'))).toBe(true);
  });

  it('problem lines stay short even for a megabyte of garbage', () => {
    const r = parseRateLimitHeaders(withOne('limit', 'x'.repeat(1_000_000)));
    expect(r.limit).toBeNull();
    expect(r.problems[0]!.length).toBeLessThan(200);
  });

  it('never yields NaN or a negative value, whatever it is fed', () => {
    const values: unknown[] = ['-5', 'NaN', '', [], ['1', '-1'], 'Infinity', '1e400', 7, -7, '0', '3'];
    for (const v of values) {
      const r = parseRateLimitHeaders(fromMap({ 'X-Rate-Limit-Limit': v, 'X-Rate-Limit-Remaining': v, 'X-Rate-Limit-Reset': v }));
      for (const n of [r.limit, r.remaining, r.reset]) {
        if (n !== null) {
          expect(Number.isFinite(n)).toBe(true);
          expect(n).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });
});

describe('parseServerDate', () => {
  it('reads an HTTP date', () => {
    expect(parseServerDate('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });
  it('takes the first of repeated values', () => {
    expect(parseServerDate(['Sun, 06 Nov 1994 08:49:37 GMT', 'garbage'])).toBe(Date.UTC(1994, 10, 6, 8, 49, 37));
  });
  it('answers null for missing, empty or garbage', () => {
    for (const v of [undefined, null, '', [], 'yesterday-ish']) expect(parseServerDate(v as RawHeaderValue)).toBeNull();
  });
});
