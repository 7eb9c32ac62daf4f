/**
 * The use-above rule reads the use the Budget table shows (shared/budget-use): a table red for 5 min
 * fires "above 90% for 5 min"; a pattern whose Remaining dips to 0 each second while little is served
 * (another consumer's burst, a whole-second window's end) does not.
 */
import { describe, expect, it } from 'vitest';
import { RuleEngine } from '../../electron/alerts/rule-engine';
import type { Transition } from '../../electron/alerts/rule-engine';
import { addSample, emptyAggregate, secondOf } from '../../electron/telemetry/aggregate';
import type { BudgetAggregate } from '../../electron/telemetry/aggregate';
import type { AlertRule } from '../../shared/bridge/alert-schemas';
import { USE_WINDOW_S, windowUse } from '../../shared/budget-use';
import type { BudgetSample } from '../../shared/rate-limit';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);
const LIMIT = 20;
const RULE: AlertRule = { id: 1, profileId: 'p', kind: 'use-above', endpoint: null, thresholdPct: 90, minutes: 5, enabled: true };

function sample(at: number, status: number, remaining: number): BudgetSample {
  return {
    vendor: 'v',
    endpoint: 'listAssets',
    at,
    serverSecond: Math.floor(at / 1000) * 1000,
    status,
    limit: LIMIT,
    remaining,
    reset: 0,
    latencyMs: 20,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
  };
}

/** Feeds `seconds` seconds of `perSecond(s)` samples to the engine and to the telemetry's per-second sums (what the table reads). */
function play(perSecond: (s: number) => BudgetSample[], seconds: number) {
  const engine = new RuleEngine();
  engine.setRules([RULE], T0);
  const table = new Map<number, BudgetAggregate>();
  const out: Transition[] = [];
  const tableUse: number[] = [];
  for (let s = 0; s < seconds; s++) {
    for (const smp of perSecond(s)) {
      out.push(...engine.sample(smp, 0));
      const second = secondOf(smp);
      const agg = table.get(second) ?? emptyAggregate('v', 'listAssets', second);
      addSample(agg, smp, { foreignUse: 0, heldMs: 0 });
      table.set(second, agg);
    }
    out.push(...engine.tick(T0 + s * 1000 + 900));
    // The table's utilisation over the last complete seconds, as the Budget view computes it.
    const window = [...table.values()].filter((b) => b.from > T0 + (s - USE_WINDOW_S) * 1000 && b.from <= T0 + s * 1000);
    tableUse.push(windowUse(window, LIMIT));
  }
  return { out, tableUse };
}

describe('the use-above rule uses the Budget table’s use', () => {
  it('fires when the table shows above 90% for 5 minutes (19 of 20 served each second, Remaining never read at 0)', () => {
    // 19 requests a second, spread over the second, each seeing a budget refilled continuously: Remaining stays high
    // in the headers (peak (limit - remaining) / limit = 50%), while the server served 95% of the limit.
    const { out, tableUse } = play((s) => Array.from({ length: 19 }, (_, r) => sample(T0 + s * 1000 + r * 50, 200, 10)), 5 * 60 + 10);
    expect(tableUse.slice(USE_WINDOW_S, 5 * 60 + 5).every((u) => u >= 0.9)).toBe(true);
    expect(out.filter((t) => t.type === 'fire')).toHaveLength(1);
    expect(out[0]).toMatchObject({ type: 'fire', message: expect.stringContaining('above 90%') });
  });

  it('does not fire when Remaining hits 0 each second but the table shows little served (429s and a burst of others)', () => {
    // Each second: 2 answered, then 3 refused (429, Remaining 0): the headers' peak use is 100%, the table 10%.
    const { out, tableUse } = play(
      (s) => [sample(T0 + s * 1000 + 10, 200, 1), sample(T0 + s * 1000 + 20, 200, 0), ...[30, 40, 50].map((d) => sample(T0 + s * 1000 + d, 429, 0))],
      5 * 60 + 10,
    );
    expect(Math.max(...tableUse)).toBeLessThan(0.9);
    expect(out).toEqual([]);
  });
});
