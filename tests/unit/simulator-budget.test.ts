/** The simulator's budget arithmetic, both refill models, with a fake clock (plain numbers). */
import { describe, expect, it } from 'vitest';
import { BudgetBook, checkContinuous, checkWholeSecond } from '../../electron/simulator/budget';
import type { BucketState, BudgetDecision } from '../../electron/simulator/budget';

type Check = typeof checkWholeSecond;

/** Runs checks at the given times on one bucket, returning every decision. */
function run(check: Check, limit: number, times: number[], start?: BucketState): { decisions: BudgetDecision[]; state: BucketState | undefined } {
  let state = start;
  const decisions: BudgetDecision[] = [];
  for (const t of times) {
    const r = check(state, limit, t);
    state = r.state;
    decisions.push(r.decision);
  }
  return { decisions, state };
}

const times = (n: number, at: number, stepMs = 0): number[] => Array.from({ length: n }, (_, i) => at + i * stepMs);

describe('whole-second model (yii\\filters\\RateLimiter)', () => {
  const N = 20;

  it('a new bucket starts full: N pass, Remaining counts down to 0, then 429 with Remaining 0 and Reset 1', () => {
    const { decisions } = run(checkWholeSecond, N, times(N + 1, 10_000));
    expect(decisions.slice(0, N).every((d) => d.allowed)).toBe(true);
    expect(decisions.slice(0, N).map((d) => d.remaining)).toEqual(Array.from({ length: N }, (_, i) => N - 1 - i));
    expect(decisions[N]).toEqual({ allowed: false, limit: N, remaining: 0, reset: 1 });
  });

  it('Reset is int((N - allowance + 1) / N): 0 on every success except the one leaving Remaining 0, which says 1', () => {
    const { decisions } = run(checkWholeSecond, N, times(N, 10_000));
    expect(decisions.slice(0, N - 1).every((d) => d.reset === 0)).toBe(true);
    expect(decisions[N - 1]).toMatchObject({ allowed: true, remaining: 0, reset: 1 });
  });

  it('2N requests within milliseconds across a second boundary all pass', () => {
    const before = times(N, 41_990); // 41.990 .. 41.990 s
    const after = times(N, 42_000); // 42.000 s
    const { decisions } = run(checkWholeSecond, N, [...before, ...after]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(2 * N);
    expect(decisions[N]).toMatchObject({ remaining: N - 1 }); // full again at the boundary
  });

  it('after the budget is used up, 0.6 s later in the same second is still 429', () => {
    const { decisions } = run(checkWholeSecond, N, [...times(N, 7_000), 7_100, 7_600, 7_999]);
    expect(decisions.slice(N).map((d) => d.allowed)).toEqual([false, false, false]);
  });

  it('the next second gives the whole budget back, never more than N', () => {
    const { decisions } = run(checkWholeSecond, N, [...times(N, 7_000), 8_000, ...times(N, 9_500)]);
    expect(decisions[N]).toMatchObject({ allowed: true, remaining: N - 1 });
    // 1.5 s later the bucket is capped at N, not N + 2N.
    expect(decisions[N + 1]).toMatchObject({ allowed: true, remaining: N - 1 });
  });

  it('a refusal stores (0, current second): it re-stamps the time and never goes below 0', () => {
    const r = checkWholeSecond({ allowance: 0, stamp: 7 }, N, 7_400);
    expect(r.state).toEqual({ allowance: 0, stamp: 7 });
    const again = checkWholeSecond(r.state, N, 7_900);
    expect(again.state).toEqual({ allowance: 0, stamp: 7 });
    expect(again.decision.allowed).toBe(false);
  });

  it('a success stores (allowance - 1, current second) in whole seconds', () => {
    expect(checkWholeSecond(undefined, N, 12_345).state).toEqual({ allowance: N - 1, stamp: 12 });
    expect(checkWholeSecond({ allowance: 3, stamp: 12 }, N, 12_999).state).toEqual({ allowance: 2, stamp: 12 });
  });

  it('a clock that steps back adds nothing (and takes nothing away)', () => {
    const r = checkWholeSecond({ allowance: 5, stamp: 100 }, N, 98_000);
    expect(r.decision).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('limit 10 (history) and 50 (purchase) follow the same arithmetic', () => {
    for (const limit of [10, 50]) {
      const { decisions } = run(checkWholeSecond, limit, times(limit + 1, 3_000));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(limit);
      expect(decisions.every((d) => d.limit === limit)).toBe(true);
    }
  });
});

describe('continuous model (leaky bucket, N per second, millisecond precision)', () => {
  const N = 20; // one slot every 50 ms

  it('a new bucket starts full: N pass at once, then 429 with Remaining 0 and Reset 1', () => {
    const { decisions } = run(checkContinuous, N, times(N + 1, 5_000));
    expect(decisions.slice(0, N).map((d) => d.remaining)).toEqual(Array.from({ length: N }, (_, i) => N - 1 - i));
    expect(decisions[N]).toEqual({ allowed: false, limit: N, remaining: 0, reset: 1 });
  });

  it('Reset is floor(seconds until full): 0 ("under a second") unless the bucket is left exactly empty', () => {
    const { decisions } = run(checkContinuous, N, times(N, 5_000));
    expect(decisions.slice(0, N - 1).every((d) => d.reset === 0)).toBe(true);
    expect(decisions[N - 1]).toMatchObject({ remaining: 0, reset: 1 });
    // 10 ms later the bucket holds 0.2 of a slot: refused, Reset 1 (a 429 never says 0).
    expect(checkContinuous({ allowance: 0, stamp: 5_000 }, N, 5_010).decision).toMatchObject({ allowed: false, reset: 1 });
    // 60 ms after empty: 1.2 slots, take one, 0.2 left: Remaining 0, under a second until full -> 0.
    expect(checkContinuous({ allowance: 0, stamp: 5_000 }, N, 5_060).decision).toEqual({ allowed: true, limit: N, remaining: 0, reset: 0 });
  });

  it('refills one slot every 1000/N ms', () => {
    const empty: BucketState = { allowance: 0, stamp: 5_000 };
    expect(checkContinuous(empty, N, 5_049).decision.allowed).toBe(false);
    expect(checkContinuous(empty, N, 5_050).decision.allowed).toBe(true);
  });

  it('does not give 2N across a second boundary: the budget leaks back, it does not reappear', () => {
    const { decisions } = run(checkContinuous, N, [...times(N, 41_990), ...times(N, 42_000)]);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(N);
  });

  it('a refusal re-stamps the time but keeps the partial refill (nothing is lost)', () => {
    const first = checkContinuous({ allowance: 0, stamp: 5_000 }, N, 5_025); // 0.5 slot
    expect(first.decision.allowed).toBe(false);
    expect(first.state).toEqual({ allowance: 500, stamp: 5_025 });
    const second = checkContinuous(first.state, N, 5_050); // + 0.5 slot
    expect(second.decision.allowed).toBe(true);
  });

  it('is capped at N after a long idle time', () => {
    const r = checkContinuous({ allowance: 0, stamp: 0 }, N, 3_600_000);
    expect(r.decision).toMatchObject({ allowed: true, remaining: N - 1 });
  });

  it('paced at exactly N per second, every request passes', () => {
    const { decisions } = run(checkContinuous, N, times(5 * N, 10_000, 1000 / N), { allowance: 0, stamp: 10_000 - 50 });
    expect(decisions.every((d) => d.allowed)).toBe(true);
  });

  it('a clock that steps back adds nothing', () => {
    expect(checkContinuous({ allowance: 0, stamp: 9_000 }, N, 8_000).decision.allowed).toBe(false);
  });
});

describe('BudgetBook', () => {
  it('keeps one bucket per (vendor, endpoint): vendors and endpoints are independent', () => {
    const book = new BudgetBook('whole-second');
    for (let i = 0; i < 20; i++) book.take('demo', 'listAssets', 20, 1_000);
    expect(book.take('demo', 'listAssets', 20, 1_001).allowed).toBe(false);
    expect(book.take('acme', 'listAssets', 20, 1_001)).toMatchObject({ allowed: true, remaining: 19 });
    expect(book.take('demo', 'searchAssets', 20, 1_001)).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('switching the model empties the book; setting the same model keeps it', () => {
    const book = new BudgetBook('whole-second');
    for (let i = 0; i < 20; i++) book.take('demo', 'listAssets', 20, 1_000);
    book.setModel('whole-second');
    expect(book.take('demo', 'listAssets', 20, 1_000).allowed).toBe(false);
    book.setModel('continuous');
    expect(book.model).toBe('continuous');
    expect(book.take('demo', 'listAssets', 20, 1_000)).toMatchObject({ allowed: true, remaining: 19 });
  });

  it('reset() makes every bucket full again', () => {
    const book = new BudgetBook('continuous');
    for (let i = 0; i < 21; i++) book.take('demo', 'assetHistory', 10, 1_000);
    book.reset();
    expect(book.take('demo', 'assetHistory', 10, 1_000)).toMatchObject({ allowed: true, remaining: 9 });
  });
});
