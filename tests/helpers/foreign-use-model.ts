/**
 * The display estimate of others' use against a deterministic model of the server: the real client at
 * 100% of an endpoint's limit on the fake service (manual clock), an optional competitor spending an
 * even `competitorRps` through the same limiter, and every sample fed to the telemetry's estimator.
 * Returns what the estimator reported per server second beside what the server counted (the
 * competitor's slots taken), so tests compare them over any stretch.
 */
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { PartnerClient } from '../../electron/client/partner-client';
import type { FakeRefill } from '../../electron/client/testing';
import { FAKE_BASE_URL, FakePartner, ManualClock, runFor, seededRandom } from '../../electron/client/testing';
import type { FakePartnerOptions } from '../../electron/client/testing';
import { ForeignUseDetector } from '../../electron/telemetry/foreign-use';
import { secondOf } from '../../electron/telemetry/aggregate';
import type { BudgetSample } from '../../shared/rate-limit';

export interface ForeignModelOptions {
  refill: FakeRefill;
  seconds: number;
  competitorRps: number;
  /** Callers looping on the endpoint (the demo traffic's concurrency). Default 4. */
  loops?: number;
  /** Whether the estimator is told the refill model (the embedded simulator's case). Default true. */
  modelKnown?: boolean;
  seed?: number;
  /** The competitor's first slot this long after the run starts (ms; default one interval). */
  competitorPhaseMs?: number;
  /** The server's clock jumps for good, this long after the start, by `byMs` (its limiter and its Dates alike). */
  serverStep?: { afterMs: number; byMs: number };
}

export interface ForeignModelRun {
  /** Start of the run (ms, a whole second). */
  start: number;
  /** Estimated foreign slots per server second (epoch ms of the second -> slots). */
  estimated: Map<number, number>;
  /** The competitor's slots the server counted, per server second. */
  counted: Map<number, number>;
  /** Our own successes per server second. */
  ours: Map<number, number>;
}

const add = (m: Map<number, number>, k: number, v: number) => m.set(k, (m.get(k) ?? 0) + v);

export async function runForeignModel(options: ForeignModelOptions): Promise<ForeignModelRun> {
  const random = seededRandom(options.seed ?? 7);
  const clock = new ManualClock(Date.UTC(2025, 0, 1, 12, 0, 0, 0));
  const server: FakePartnerOptions = { clock, refill: options.refill, latencyMs: () => 2 + random() * 6 };
  const h = { clock, fake: new FakePartner(server) };
  const registry = new BudgetRegistry({ clock: h.clock });
  const client = new PartnerClient({
    baseUrl: FAKE_BASE_URL,
    vendor: 'v',
    tokens: ['token-a'],
    fetch: h.fake.fetch,
    clock: h.clock,
    budgets: registry,
    random: seededRandom(101),
  });
  const detector = new ForeignUseDetector({
    inFlight: (vendor, endpoint) => registry.bucket(FAKE_BASE_URL, vendor, endpoint).snapshot().inFlight,
    refillModel: () => (options.modelKnown === false ? null : options.refill),
  });
  const estimated = new Map<number, number>();
  // Under the second the server counted the answer in (its Date), as `counted` is, even after a clock step.
  client.onSample((s) => add(estimated, s.serverSecond != null ? Math.floor(s.serverSecond / 1000) * 1000 : secondOf(s), detector.observe(s)));
  const start = h.clock.now();
  const end = start + options.seconds * 1000;
  const step = options.serverStep;
  if (step) h.clock.setTimeout(() => (server.serverOffsetMs = step.byMs), step.afterMs);
  if (options.competitorRps > 0) {
    const take = (k: number): void => {
      h.fake.foreign('v', 'listAssets');
      const next = first + ((k + 1) * 1000) / options.competitorRps;
      if (next < end) h.clock.setTimeout(() => take(k + 1), next - h.clock.now());
    };
    const first = start + (options.competitorPhaseMs ?? 1000 / options.competitorRps);
    h.clock.setTimeout(() => take(0), first - start);
  }
  await runFor(h.clock, end, options.loops ?? 4, () => client.request('listAssets', { priority: 'background' }));
  client.close();
  const counted = new Map<number, number>();
  const ours = new Map<number, number>();
  for (const r of h.fake.records) {
    if (r.status !== 200) continue;
    add(r.foreign ? counted : ours, Math.floor(r.serverAt / 1000) * 1000, 1);
  }
  return { start, estimated, counted, ours };
}

/** Sum of a per-second map over the seconds [from, to). */
export function sumOver(m: Map<number, number>, from: number, to: number): number {
  let n = 0;
  for (const [t, v] of m) if (t >= from && t < to) n += v;
  return n;
}

/** Epoch ms of the manual-clock tests' first second. */
export const ALONE_START = 1_700_000_000_000;

/**
 * Our k-th request alone at 10/s on a limit of 10 per (real) second from ALONE_START: Remaining 9..0
 * each second; the Date as `dateOf` says (default: the real second).
 */
export function aloneSample(k: number, dateOf: (at: number) => number = (at) => Math.floor(at / 1000) * 1000): BudgetSample {
  const at = ALONE_START + 50 + k * 100;
  return {
    vendor: 'demo',
    endpoint: 'categories',
    at,
    serverSecond: dateOf(at),
    status: 200,
    limit: 10,
    remaining: 9 - (k % 10),
    reset: 0,
    latencyMs: 4,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
  };
}
