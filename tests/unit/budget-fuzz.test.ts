/**
 * Header fuzzing: thousands of hostile X-Rate-Limit-* values from a seeded generator. Nothing throws,
 * every call completes, and the pacing stays at or under the limit in both refill models, because
 * the client's own-request bounds hold whatever the headers say.
 */
import { describe, expect, it } from 'vitest';
import { budgetSampleSchema, parseRateLimitHeaders, RATE_LIMIT_HEADERS } from '../../shared/rate-limit';
import type { BudgetSample } from '../../shared/rate-limit';
import type { FakeRefill } from '../../electron/client/testing/fake-partner';
import { harness, runFor, seededRandom } from '../../electron/client/testing/harness';

type Hostile = string | string[] | undefined;

/** A hostile (or now and then honest) value for a header whose true value is `truth`. */
function hostile(random: () => number, truth: string): Hostile {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const n = Number(truth);
  const kinds: (() => Hostile)[] = [
    () => undefined,
    () => '',
    () => '   ',
    () => '-1',
    () => '-0',
    () => '0',
    () => '1e3',
    () => '0x14',
    () => 'NaN',
    () => 'Infinity',
    () => '18446744073709551616',
    () => '99999',
    () => String(n + 0.5),
    () => ` ${n} `,
    () => `+${n}`,
    () => `${n},${n + 1}`,
    () => [String(n), String(n + 3)],
    () => [String(n * 50), '1'],
    () => 'soon',
    () => 'é',
    () => '9'.repeat(400),
    () => String(n * 10),
    () => String(Math.floor(random() * 100)),
    () => '1,,2',
    () => '\t5\t',
    () => Array.from({ length: 1 + Math.floor(random() * 12) }, () => String.fromCharCode(0x21 + Math.floor(random() * 94))).join(''),
    () => truth,
  ];
  return pick(kinds)();
}

describe('header fuzzing', () => {
  it('the parser never throws and never returns NaN, negatives or Infinity', () => {
    const random = seededRandom(99);
    for (let i = 0; i < 5_000; i++) {
      const values: Record<string, Hostile> = {
        [RATE_LIMIT_HEADERS.limit]: hostile(random, '20'),
        [RATE_LIMIT_HEADERS.remaining]: hostile(random, String(Math.floor(random() * 20))),
        [RATE_LIMIT_HEADERS.reset]: hostile(random, '0'),
      };
      const r = parseRateLimitHeaders((name) => values[name]);
      for (const v of [r.limit, r.remaining, r.reset]) {
        if (v !== null) {
          expect(Number.isFinite(v)).toBe(true);
          expect(v).toBeGreaterThanOrEqual(0);
        }
      }
    }
  });

  describe.each<FakeRefill>(['whole-second', 'continuous'])('%s refill', (refill) => {
    it('thousands of hostile answers: nothing throws, every call completes, never over the limit', async () => {
      const random = seededRandom(refill === 'continuous' ? 7 : 8);
      let forced = 0;
      const h = harness({
        refill,
        latencyMs: () => 1 + random() * 5,
        serverOffsetMs: 333,
        // 0.5% of requests are refused whatever the budget (a 429 with hostile Reset), to fuzz that path too.
        action: () => (random() < 0.005 ? (forced++, { kind: 'rate-limited' }) : { kind: 'answer' }),
        rewriteHeaders: (headers) => {
          const out: Record<string, string | string[] | undefined> = {};
          for (const [name, value] of Object.entries(headers)) out[name] = random() < 0.7 ? hostile(random, value) : value;
          return out;
        },
      });
      const client = h.client({ random });
      const samples: BudgetSample[] = [];
      client.onSample((s) => samples.push(s));
      const endpoints = ['purchaseInfo', 'viewUrl', 'downloadUrl', 'cancelPurchase', 'validatePurchase'] as const;
      // 50 s: the count below is how many hostile answers were exercised, not a goal of throughput; it
      // moves by several percent with any change to the pacing (1,004 at 40 s before issue 10's round 7,
      // 983 after it), so the run is long enough to pass a thousand with room.
      const { ok, failed } = await runFor(h.clock, h.clock.now() + 50_000, 10, (i) =>
        client.request(endpoints[i % 5]!, i % 5 === 4 ? { body: { purchase_id: 'p' } } : { query: { purchase_id: 'p' } }),
      );
      expect(failed).toEqual([]);
      // Over a thousand answers, most with hostile headers. (Hostile low Remaining values read as other
      // consumers now slow the fair-share pacing: the safe side; this was 1,500 before the pacing.)
      expect(ok).toBeGreaterThan(1_000);
      // Only the forced refusals: the limiter itself never refused anything, so we never went over it.
      expect(h.fake.count(429)).toBe(forced);
      for (const e of endpoints) expect(h.fake.maxPerServerSecond(e)).toBeLessThanOrEqual(50);
      expect(samples.length).toBe(ok + forced);
      for (const s of samples) budgetSampleSchema.parse(s);
      expect(samples.some((s) => s.headerProblems.length > 0)).toBe(true);
      for (const b of client.budgetSnapshot()) {
        for (const v of [b.limit, b.available, b.queued, b.inFlight, b.margin]) expect(Number.isFinite(v)).toBe(true);
      }
      // No wait after a 429 was "now": apart from requests already in flight (latency <= 6 ms), nothing
      // reached the server for that endpoint within 250 ms.
      for (const e of endpoints) {
        const arrivals = h.fake.records.filter((r) => r.endpoint === e);
        for (const refused of arrivals.filter((r) => r.status === 429)) {
          const tooSoon = arrivals.filter((r) => r.serverAt > refused.serverAt + 6 && r.serverAt < refused.serverAt + 250);
          expect(tooSoon).toEqual([]);
        }
      }
    });
  });
});
