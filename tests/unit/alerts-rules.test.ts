/** Alert rules over a scripted sample stream: each fires once and clears once (issue 12 §3). */
import { describe, expect, it } from 'vitest';
import { HYSTERESIS_PCT, QUIET_MS, RuleEngine } from '../../electron/alerts/rule-engine';
import type { Transition } from '../../electron/alerts/rule-engine';
import type { AlertRule } from '../../shared/bridge/alert-schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';

const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

function rule(over: Partial<AlertRule> & Pick<AlertRule, 'id' | 'kind'>): AlertRule {
  return { profileId: 'p', endpoint: null, thresholdPct: null, minutes: 1, enabled: true, ...over };
}

function sample(at: number, over: Partial<BudgetSample> = {}): BudgetSample {
  return {
    vendor: 'v',
    endpoint: 'listAssets',
    at,
    status: 200,
    limit: 10,
    remaining: 5,
    reset: null,
    latencyMs: 20,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
    ...over,
  };
}

/** `use` (0..1) of a limit of 100 served each second (100 x use answered requests), for `seconds`, from `from`; ticks too. */
function run(engine: RuleEngine, from: number, seconds: number, use: number, endpoint: EndpointId = 'listAssets'): Transition[] {
  const out: Transition[] = [];
  const n = Math.round(100 * use);
  for (let i = 0; i < seconds; i++) {
    const at = from + i * 1000 + 100;
    for (let r = 0; r < n; r++) out.push(...engine.sample(sample(at + r * 5, { endpoint, limit: 100, remaining: 100 - r - 1 }), 0));
    out.push(...engine.tick(at + 800));
  }
  return out;
}

const kinds = (ts: Transition[]) => ts.map((t) => `${t.type}:${t.key}`);

describe('use above X% for Y minutes', () => {
  it('fires once after Y minutes above, stays through the hysteresis band, clears once below it', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 1, kind: 'use-above', thresholdPct: 80, minutes: 1 })], T0);
    // 59 s above: not yet.
    expect(run(engine, T0, 59, 0.9)).toEqual([]);
    // The 60th second completes the minute: fires once, even though it stays above.
    const fired = run(engine, T0 + 59_000, 30, 0.9);
    expect(kinds(fired)).toEqual(['fire:1|listAssets']);
    expect(fired[0]).toMatchObject({ type: 'fire', endpoint: 'listAssets', message: expect.stringContaining('above 80%') });
    // Inside the band (80 - 5 < 78 < 80): neither clears nor fires again.
    expect(run(engine, T0 + 89_000, 20, 0.78)).toEqual([]);
    expect(HYSTERESIS_PCT).toBe(5);
    // Below the band: clears once.
    const cleared = run(engine, T0 + 109_000, 20, 0.5);
    expect(kinds(cleared)).toEqual(['clear:1|listAssets']);
    expect(0.8 - HYSTERESIS_PCT / 100).toBeGreaterThan(0.5);
  });

  it('a window below the band restarts the run: no alert for an oscillating endpoint', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 1, kind: 'use-above', thresholdPct: 80, minutes: 1 })], T0);
    let out: Transition[] = [];
    for (let k = 0; k < 4; k++) {
      out = out.concat(run(engine, T0 + k * 40_000, 36, 0.9), run(engine, T0 + k * 40_000 + 36_000, 4, 0.2));
    }
    expect(out).toEqual([]);
  });

  it('judges what the server served each second, not single samples (a window refilling each second)', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 1, kind: 'use-above', thresholdPct: 90, minutes: 0.25 })], T0);
    const out: Transition[] = [];
    for (let s = 0; s < 31; s++) {
      // Each second: the first request sees 9 left (10% use), the last sees 0 left.
      for (let r = 0; r < 10; r++) out.push(...engine.sample(sample(T0 + s * 1000 + r * 90, { remaining: 9 - r }), 0));
    }
    out.push(...engine.tick(T0 + 33_000));
    // Fires 15 s after the window first reads 100%; clears once the traffic's end takes the window below the band.
    expect(kinds(out)).toEqual(['fire:1|listAssets', 'clear:1|listAssets']);
  });

  it('clears when traffic stops, as the window of use empties (the table’s use falls); a rule for one endpoint ignores the others', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 2, kind: 'use-above', endpoint: 'searchAssets', thresholdPct: 50, minutes: 0 })], T0);
    expect(run(engine, T0, 5, 1, 'listAssets')).toEqual([]);
    expect(kinds(run(engine, T0 + 5_000, 5, 1, 'searchAssets'))).toEqual(['fire:2|searchAssets']);
    // Seconds 5..9 served the limit: the window stays at or above 45% through second 11 (3 of 5 seconds), falls at 12.
    expect(engine.tick(T0 + 13_500)).toEqual([]);
    const cleared = engine.tick(T0 + 14_500);
    expect(cleared).toEqual([{ type: 'clear', key: '2|searchAssets', at: T0 + 13_000 }]);
    expect(engine.tick(T0 + 10_000 + QUIET_MS + 60_000)).toEqual([]);
  });
});

describe('429, another consumer, outage, download', () => {
  it('any 429 fires once per endpoint and clears after Y minutes without one', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 3, kind: 'throttled', minutes: 2 })], T0);
    const out = [
      ...engine.sample(sample(T0, { status: 429 }), 0),
      ...engine.sample(sample(T0 + 1000, { status: 429 }), 0),
      ...engine.sample(sample(T0 + 2000, { status: 429, endpoint: 'categories' }), 0),
      ...engine.tick(T0 + 60_000),
      ...engine.sample(sample(T0 + 60_000, { status: 429 }), 0),
      ...engine.tick(T0 + 122_000),
      ...engine.tick(T0 + 181_000),
    ];
    expect(kinds(out)).toEqual(['fire:3|listAssets', 'fire:3|categories', 'clear:3|categories', 'clear:3|listAssets']);
  });

  it('a competing consumer fires when foreign use is found, not on our own traffic', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 4, kind: 'foreign', minutes: 1 })], T0);
    expect(engine.sample(sample(T0, { remaining: 0 }), 0)).toEqual([]);
    expect(kinds(engine.sample(sample(T0 + 500), 2))).toEqual(['fire:4|listAssets']);
    expect(engine.sample(sample(T0 + 900), 1)).toEqual([]);
    expect(kinds(engine.tick(T0 + 61_000))).toEqual(['clear:4|listAssets']);
  });

  it('the service down for Y minutes fires once, clears when it answers', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 5, kind: 'down', minutes: 2 })], T0);
    expect(engine.connection('offline', T0)).toEqual([]);
    expect(engine.tick(T0 + 119_000)).toEqual([]);
    expect(kinds(engine.tick(T0 + 120_000))).toEqual(['fire:5|']);
    expect(engine.connection('offline', T0 + 130_000)).toEqual([]);
    expect(kinds(engine.connection('degraded', T0 + 140_000))).toEqual(['clear:5|']);
    // A short outage does not fire.
    engine.connection('offline', T0 + 150_000);
    engine.connection('connected', T0 + 200_000);
    expect(engine.tick(T0 + 400_000)).toEqual([]);
  });

  it('a failed download fires once; a new run clears it', () => {
    const engine = new RuleEngine();
    engine.setRules([rule({ id: 6, kind: 'download-failed', minutes: 0 })], T0);
    expect(engine.download('running', null, T0)).toEqual([]);
    const fired = engine.download('failed', 'disk full', T0 + 1);
    expect(fired).toMatchObject([{ type: 'fire', key: '6|', message: 'The catalog download failed: disk full' }]);
    expect(engine.download('failed', 'disk full', T0 + 2)).toEqual([]);
    expect(kinds(engine.download('running', null, T0 + 3))).toEqual(['clear:6|']);
  });

  it('disabled rules do not fire; disabling a firing rule clears its alert', () => {
    const engine = new RuleEngine();
    const r = rule({ id: 7, kind: 'throttled', minutes: 5 });
    engine.setRules([{ ...r, enabled: false }], T0);
    expect(engine.sample(sample(T0, { status: 429 }), 0)).toEqual([]);
    engine.setRules([r], T0);
    expect(kinds(engine.sample(sample(T0 + 1, { status: 429 }), 0))).toEqual(['fire:7|listAssets']);
    expect(kinds(engine.setRules([{ ...r, enabled: false }], T0 + 2))).toEqual(['clear:7|listAssets']);
  });
});
