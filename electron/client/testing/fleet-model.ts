/**
 * A fleet on the manual clock: N copies of the client, each with its own registry (as separate
 * processes would be: nothing shared but the server's answers), loop background calls on one
 * endpoint of the fake service for a while. Deterministic for a seed and free of CPU contention, so
 * the unit tests assert issue 10's goals on it and `npm run bench -- --only fleet-model` prints them.
 */
import { BudgetRegistry } from '../budget-registry';
import { PartnerClient } from '../partner-client';
import type { FakeRefill } from './fake-partner';
import type { Harness } from './harness';
import { FAKE_BASE_URL, harness, runFor, seededRandom } from './harness';

export interface FleetModelOptions {
  copies: number;
  refill: FakeRefill;
  /** Length of the run on the manual clock. Default 60. */
  seconds?: number;
  /** Replays the same latencies. Default 42. */
  seed?: number;
  /** Another consumer of the vendor spends this many slots per second, evenly, never backing off (the simulator's competitor). Default 0. */
  competitorRps?: number;
  /**
   * Each copy has the same fixed work (what the limit serves in `seconds`, shared out), as the
   * catalog downloads of the fleet bench: copies then finish at different times, and goodput is
   * over the time until the last one finished. Default false: every copy works for `seconds`.
   */
  fixedWork?: boolean;
  /**
   * Each copy exports a catalog of `items` in pages of `pageSize` (one request a page), as the fleet
   * bench's short workload: fixed work as above, but the amount set by the catalog instead of by
   * `seconds` (which is then only the nominal length at the limit). Default: none.
   */
  catalog?: { items: number; pageSize: number };
  /** When each copy starts, in ms from the start (copies that join a fleet already running). Default: all at once. */
  startsMs?: readonly number[];
  /**
   * How far into the server's second the run starts, in ms. Default 337. A scheduler, or the fleet
   * bench's processes, start just after a whole second: the first Date then says least.
   */
  startPhaseMs?: number;
  /** The server's clock minus ours, in ms (a desk or a server whose clock is off). Default 0. */
  serverOffsetMs?: number;
  /**
   * Round trip of every request in ms, `ms` plus uniform 0..`jitterMs` (a service across a network), `toServerShare` of it
   * before the server counts the request (default half). Default 2 + 0..6, half each way.
   */
  roundTrip?: { ms: number; jitterMs: number; toServerShare?: number };
}

export interface FleetModelResult {
  copies: number;
  refill: FakeRefill;
  seconds: number;
  /** Successful requests per copy. */
  perCopy: number[];
  competitorRps: number;
  /** Our successes per second over what the competitor leaves of the limit (20). The continuous bucket starts full, so it may exceed 1. */
  goodput: number;
  /** 429s over all requests of the vendor (ours and the competitor's). */
  share429: number;
  /** Share of the 429s that came in the first 15 s. */
  early429: number;
  /** 429s in the first two seconds (copies finding each other and the server's second). */
  startRefused: number;
  /** Jain's fairness over the copies' successes (with fixed work: over their rates). */
  jain: number;
  /** Successes per second of each copy (from the start). */
  timeline: number[][];
  /** Calls that failed (a background call should never). */
  gaveUp: number;
}

const LIMIT = 20; // listAssets in the endpoint table
const EARLY_MS = 15_000;
const START_MS = 2_000;

/** Start offsets (ms) for `count` copies started evenly over `overMs`, the first at 0 (a single copy at 0). */
export function evenStarts(count: number, overMs: number): number[] {
  return Array.from({ length: count }, (_, i) => (count > 1 ? Math.round((i * overMs) / (count - 1)) : 0));
}

/** Jain's fairness index of shares: 1 when all are equal, 1/n when one takes everything; 0 when none has any. */
export function jainIndex(values: readonly number[]): number {
  const squares = values.reduce((a, b) => a + b * b, 0);
  return squares === 0 ? 0 : values.reduce((a, b) => a + b, 0) ** 2 / (values.length * squares);
}

/** The copies: separate processes would share nothing but the server's answers, so each has its own registry. */
function fleetClients(h: Harness, copies: number): PartnerClient[] {
  return Array.from(
    { length: copies },
    (_, i) =>
      new PartnerClient({
        baseUrl: FAKE_BASE_URL,
        vendor: 'v',
        tokens: [`token-${i}`],
        fetch: h.fake.fetch,
        clock: h.clock,
        budgets: new BudgetRegistry({ clock: h.clock }),
        random: seededRandom(100 + i),
      }),
  );
}

/** Another consumer of the vendor takes `rps` slots a second, evenly, from `start` until `end`. */
function startCompetitor(h: Harness, rps: number, start: number, end: number): void {
  const take = (k: number): void => {
    h.fake.foreign('v', 'listAssets');
    const next = start + ((k + 1) * 1000) / rps;
    if (next < end) h.clock.setTimeout(() => take(k + 1), next - h.clock.now());
  };
  h.clock.setTimeout(() => take(0), 1000 / rps);
}

/** What each copy did: successes, when it finished its work, and its successes per second. */
interface CopiesDone {
  perCopy: number[];
  finished: number[];
  timeline: number[][];
  gaveUp: number;
}

export async function runFleetModel(options: FleetModelOptions): Promise<FleetModelResult> {
  const { copies, refill } = options;
  const seconds = options.seconds ?? 60;
  const random = seededRandom(options.seed ?? 42);
  const startMs = Date.UTC(2025, 0, 1, 12, 0, 0, options.startPhaseMs ?? 337);
  const trip = options.roundTrip ?? { ms: 2, jitterMs: 6 };
  const h = harness({
    refill,
    latencyMs: () => trip.ms + random() * trip.jitterMs,
    toServerShare: trip.toServerShare,
    startMs,
    serverOffsetMs: options.serverOffsetMs,
  });
  const clients = fleetClients(h, copies);
  const perCopy = new Array<number>(copies).fill(0);
  const start = h.clock.now();
  const end = start + seconds * 1000;
  const competitorRps = options.competitorRps ?? 0;
  if (competitorRps > 0) startCompetitor(h, competitorRps, start, end);
  const fixedWork = options.fixedWork === true || options.catalog !== undefined;
  const work = options.catalog ? Math.ceil(options.catalog.items / options.catalog.pageSize) : Math.round(((LIMIT - competitorRps) * seconds) / copies);
  const finished = new Array<number>(copies).fill(start);
  const timeline = Array.from({ length: copies }, () => [] as number[]);
  const { failed } = await runFor(
    h.clock,
    fixedWork ? Infinity : end,
    copies,
    async (i) => {
      const startAt = start + (options.startsMs?.[i] ?? 0);
      if (h.clock.now() < startAt) await new Promise<void>((resolve) => h.clock.setTimeout(resolve, startAt - h.clock.now()));
      await clients[i]!.request('listAssets', { priority: 'background' });
      perCopy[i]!++;
      finished[i] = h.clock.now();
      const second = Math.floor((h.clock.now() - start) / 1000);
      timeline[i]![second] = (timeline[i]![second] ?? 0) + 1;
    },
    (i) => fixedWork && perCopy[i]! >= work,
  );
  for (const c of clients) c.close();
  return fleetResult(h, { ...options, seconds, competitorRps }, start, fixedWork, { perCopy, finished, timeline, gaveUp: failed.length });
}

function fleetResult(
  h: Harness,
  run: FleetModelOptions & { seconds: number; competitorRps: number },
  start: number,
  fixedWork: boolean,
  done: CopiesDone,
): FleetModelResult {
  const { copies, refill, seconds, competitorRps } = run;
  const { perCopy, finished } = done;
  const total = perCopy.reduce((a, b) => a + b, 0);
  // Fairness over rates: with fixed work every copy does the same, and what differs is how long it took
  // from its own start (as the fleet bench counts each process from its first request).
  const rates = fixedWork ? perCopy.map((n, i) => n / Math.max(1, finished[i]! - start - (run.startsMs?.[i] ?? 0))) : perCopy;
  const finishedAt = Math.max(...finished);
  // The fake's records are in server time.
  const refusals = h.fake.records.filter((r) => r.status === 429);
  const refused = refusals.length;
  const sinceStart = (r: { serverAt: number }): number => r.serverAt - (run.serverOffsetMs ?? 0) - start;
  return {
    copies,
    refill,
    seconds,
    competitorRps,
    perCopy,
    goodput: total / ((fixedWork ? (finishedAt - start) / 1000 : seconds) * (LIMIT - competitorRps)),
    share429: refused / Math.max(1, h.fake.records.length),
    early429: refused === 0 ? 0 : refusals.filter((r) => sinceStart(r) < EARLY_MS).length / refused,
    startRefused: refusals.filter((r) => sinceStart(r) < START_MS).length,
    jain: jainIndex(rates),
    timeline: done.timeline.map((row) => Array.from(row, (n) => n ?? 0)),
    gaveUp: done.gaveUp,
  };
}
