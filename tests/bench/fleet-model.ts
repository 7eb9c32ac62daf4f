/**
 * `npm run bench -- --only fleet-model [--seeds 42] [--compare FILE] [--record FILE]`: the fleet
 * goals on the manual clock (no processes, no CPU contention, deterministic): N copies with their own
 * registries share one budget through headers. Every scenario runs once per seed (the seed replays the
 * latencies); all figures go to the record (JSON), and `--compare` checks them, digit for digit, against
 * a saved record: the safety net of any change to the client's pacing that should not change behaviour.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { FleetModelOptions, FleetModelResult } from '../../electron/client/testing/fleet-model';
import { evenStarts, runFleetModel } from '../../electron/client/testing/fleet-model';
import type { RefillModel } from './client-scenarios';
import type { FleetModelRecord, FleetModelRun } from './fleet-model-compare';
import { compareRecords, formatComparison } from './fleet-model-compare';

const COPIES = [1, 4, 8, 16];
const COMPETITOR_RPS = 8;
/** The short workload (issue 23): 8 copies each export a catalog of 2,500 items in pages of 25, about 40 s at the limit. */
export const SHORT_WORKLOAD = { copies: 8, items: 2_500, pageSize: 25 };
/**
 * The short workload again with its copies started evenly over this many ms: the fleet bench starts its
 * processes at one agreed instant, but people and schedulers start catalog exports apart.
 */
export const STAGGER_MS = 2_000;
/** The short workload again started this many ms after a whole second (the fleet bench's processes, a scheduler at :00). */
export const WHOLE_SECOND_START_MS = 50;
/** ... and with the server's clock this far ahead of ours: what a wrong guess of the first second costs. */
export const SKEW_MS = 300;
/** The short workload across a network: round trips of 40 ms plus up to 20 (the model's default is 2-8 ms, loopback). */
export const NETWORK_TRIP = { ms: 40, jitterMs: 20 };
export const DEFAULT_SEEDS = [42];

export interface FleetModelBenchOptions {
  seeds?: number[];
  /** A saved record to compare this run's figures with; a difference sets a non-zero exit code. */
  compare?: string | null;
  /** Where all figures go as JSON. */
  record?: string;
  seconds?: number;
}

/** The fleet goals: 429s <= 1% (N = 16 and beside the competitor: 2%, alone: none), goodput >= 0.9 (alone 0.98), Jain >= 0.9, nobody gives up. */
function met(r: FleetModelResult): boolean {
  if (r.competitorRps > 0) return r.gaveUp === 0 && r.share429 <= 0.02 && r.goodput >= 0.9;
  const max429 = r.copies === 1 ? 0 : r.copies >= 16 ? 0.02 : 0.01;
  return r.gaveUp === 0 && r.share429 <= max429 && r.goodput >= (r.copies === 1 ? 0.98 : 0.9) && r.jain >= 0.9;
}

function cell(r: FleetModelResult): string {
  return `${r.goodput.toFixed(3)} / ${(r.share429 * 100).toFixed(2)}% / ${r.jain.toFixed(3)}${met(r) ? '' : ' (missed)'}`;
}

function scenarioName(o: FleetModelOptions): string {
  if (o.catalog) {
    const apart = o.startsMs ? ` started over ${Math.max(...o.startsMs) / 1000} s` : '';
    const turn = o.startPhaseMs !== undefined ? ` started ${o.startPhaseMs} ms after a whole second` : '';
    const skew = o.serverOffsetMs ? `, server clock ${o.serverOffsetMs} ms ahead` : '';
    const trip = o.roundTrip ? `, round trips of ${o.roundTrip.ms}-${o.roundTrip.ms + o.roundTrip.jitterMs} ms` : '';
    return `${o.copies} copies ${o.refill} catalog ${o.catalog.items} in pages of ${o.catalog.pageSize}${apart}${turn}${skew}${trip}`;
  }
  return `${o.copies} copies ${o.refill}${o.competitorRps ? ` + competitor ${o.competitorRps}/s` : ''}${o.fixedWork ? ` fixed work ${o.seconds} s` : ` ${o.seconds} s`}`;
}

/** Prints one seed's tables (as they always were) and returns its runs. */
async function oneSeed(
  refills: RefillModel[],
  seconds: number,
  fixedSeconds: number,
  seed: number,
): Promise<{ rows: FleetModelResult[]; runs: FleetModelRun[] }> {
  const rows: FleetModelResult[] = [];
  const runs: FleetModelRun[] = [];
  const run = async (o: FleetModelOptions): Promise<FleetModelResult> => {
    const r = await runFleetModel({ ...o, seed });
    rows.push(r);
    runs.push({ scenario: scenarioName(o), seed, figures: { ...r } });
    return r;
  };
  const steady: FleetModelResult[] = [];
  for (const copies of COPIES) for (const refill of refills) steady.push(await run({ copies, refill, seconds }));
  console.log(`| copies | ${refills.join(' | ')} |`);
  console.log(`|---:|${refills.map(() => '---').join('|')}|`);
  for (const copies of COPIES)
    console.log(`| ${copies} | ${refills.map((refill) => cell(steady.find((r) => r.copies === copies && r.refill === refill)!)).join(' | ')} |`);
  // One download beside a competing consumer at 8 of the 20/s: goodput over what it leaves, 429s vendor-wide.
  const beside: FleetModelResult[] = [];
  for (const refill of refills) beside.push(await run({ copies: 1, refill, seconds, competitorRps: COMPETITOR_RPS }));
  console.log(`| 1 + competitor ${COMPETITOR_RPS}/s | ${beside.map(cell).join(' | ')} |`);
  console.log(`\nBeside the competitor: goodput over what it leaves (${20 - COMPETITOR_RPS}/s), 429s of the vendor's every request (ours and its).`);
  // Fixed work, as the real fleet bench: every copy downloads the same catalog, copies finish at
  // different times, and goodput runs until the last one finished (the tail counts).
  console.log(
    `\nFixed work (each copy the same catalog, ${fixedSeconds} s at the limit; goodput until the last copy finished, Jain over the copies' rates):\n`,
  );
  console.log(`| copies | ${refills.join(' | ')} |`);
  console.log(`|---:|${refills.map(() => '---').join('|')}|`);
  for (const copies of COPIES.filter((c) => c > 1)) {
    const fixed: FleetModelResult[] = [];
    for (const refill of refills) fixed.push(await run({ copies, refill, seconds: fixedSeconds, fixedWork: true }));
    console.log(`| ${copies} | ${fixed.map(cell).join(' | ')} |`);
  }
  const early = rows
    .filter((r) => r.share429 > 0)
    .map((r) => `${r.copies}${r.competitorRps > 0 ? ' + competitor' : ''}/${r.refill} ${(r.early429 * 100).toFixed(0)}%`);
  if (early.length > 0) console.log(`\nShare of the 429s in the first 15 s: ${early.join(', ')}`);
  // After the tables above (which stay as they were): the short workload: the start and the departures weigh heavily, as on the issue's real 40 s runs.
  const { copies, items, pageSize } = SHORT_WORKLOAD;
  const catalog = { items, pageSize };
  // The nominal length: the whole fleet's pages at the limit (20/s).
  const atLimit = (copies * Math.ceil(items / pageSize)) / 20;
  // One row of the short workload: both refill models, with the row's own settings.
  const shortRow = async (o: Partial<FleetModelOptions> = {}): Promise<FleetModelResult[]> => {
    const row: FleetModelResult[] = [];
    for (const refill of refills) row.push(await run({ copies, refill, seconds: atLimit, catalog, ...o }));
    return row;
  };
  const short = await shortRow();
  console.log(`\nShort workload (${copies} copies, each a catalog of ${items} items in pages of ${pageSize}):\n`);
  console.log(`| copies | ${refills.join(' | ')} |`);
  console.log(`|---:|${refills.map(() => '---').join('|')}|`);
  const apart = await shortRow({ startsMs: evenStarts(copies, STAGGER_MS) });
  const turn = await shortRow({ startPhaseMs: WHOLE_SECOND_START_MS });
  const skewed = await shortRow({ startPhaseMs: WHOLE_SECOND_START_MS, serverOffsetMs: SKEW_MS });
  const network = await shortRow({ roundTrip: NETWORK_TRIP });
  console.log(`| ${copies} | ${short.map(cell).join(' | ')} |`);
  console.log(`| ${copies}, started over ${STAGGER_MS / 1000} s | ${apart.map(cell).join(' | ')} |`);
  console.log(`| ${copies}, started ${WHOLE_SECOND_START_MS} ms after a whole second | ${turn.map(cell).join(' | ')} |`);
  console.log(`| ${copies}, the same, server clock ${SKEW_MS} ms ahead | ${skewed.map(cell).join(' | ')} |`);
  console.log(`| ${copies}, round trips of ${NETWORK_TRIP.ms}-${NETWORK_TRIP.ms + NETWORK_TRIP.jitterMs} ms | ${network.map(cell).join(' | ')} |`);
  console.log(`\nWhere it idles (slots of the limit left unused): ${short.map((r) => `${r.refill} ${idleSlots(r)}`).join('; ')}`);
  return { rows, runs };
}

/**
 * A fixed-work run's unused slots of the limit in three parts, from its per-second timeline: the first
 * 3 s (copies finding each other), the middle, and the tail from the second the first copy finished
 * (departures: the budget idle while the others climb back). Negative: more than the limit served
 * (a continuous bucket starts full).
 */
export function idleSlots(r: FleetModelResult, limit = 20, startSeconds = 3): string {
  const seconds = Math.max(...r.timeline.map((t) => t.length));
  const fleet = Array.from({ length: seconds }, (_, s) => r.timeline.reduce((n, t) => n + (t[s] ?? 0), 0));
  const tailFrom = Math.max(startSeconds, Math.min(...r.timeline.map((t) => t.length)) - 1);
  const idle = (from: number, to: number) => (to - from) * limit - fleet.slice(from, to).reduce((a, b) => a + b, 0);
  return `start ${idle(0, startSeconds)}, middle ${idle(startSeconds, tailFrom)}, tail ${idle(tailFrom, seconds)} over ${seconds - tailFrom} s`;
}

/** Every scenario over the seeds (with more than one): each figure's spread, and in how many seeds the goals were met. */
function printSpread(runs: FleetModelRun[], seeds: number[]): void {
  if (seeds.length < 2) return;
  const range = (xs: number[], f: (x: number) => string): string => `${f(Math.min(...xs))}-${f(Math.max(...xs))}`;
  console.log(`\n### Over seeds ${seeds.join(', ')} (goodput / 429s / Jain, min-max; goals met)\n`);
  console.log('| scenario | goodput | 429s | Jain | met |');
  console.log('|---|---:|---:|---:|---:|');
  for (const name of new Set(runs.map((r) => r.scenario))) {
    const rs = runs.filter((r) => r.scenario === name).map((r) => r.figures as unknown as FleetModelResult);
    console.log(
      `| ${name} | ${range(
        rs.map((r) => r.goodput),
        (x) => x.toFixed(3),
      )} | ${range(
        rs.map((r) => r.share429 * 100),
        (x) => `${x.toFixed(2)}%`,
      )} | ${range(
        rs.map((r) => r.jain),
        (x) => x.toFixed(3),
      )} | ${rs.filter(met).length} of ${rs.length} |`,
    );
  }
}

export async function fleetModelBench(refills: RefillModel[], options: FleetModelBenchOptions = {}): Promise<void> {
  const seconds = options.seconds ?? 60;
  const seeds = options.seeds ?? DEFAULT_SEEDS;
  const fixedSeconds = Number(process.env.FLEET_RUN_SECONDS) > 0 ? Number(process.env.FLEET_RUN_SECONDS) : 12;
  console.log(`\n## Fleets on the manual clock (${seconds} s; goodput / 429s of all requests / Jain)\n`);
  const record: FleetModelRecord = { settings: { refills, seconds, fixedSeconds }, seeds, runs: [] };
  let firstRows: FleetModelResult[] = [];
  for (const [i, seed] of seeds.entries()) {
    if (seeds.length > 1 || seed !== DEFAULT_SEEDS[0]) console.log(`${i > 0 ? '\n' : ''}### Seed ${seed}\n`);
    const { rows, runs } = await oneSeed(refills, seconds, fixedSeconds, seed);
    if (i === 0) firstRows = rows;
    record.runs.push(...runs);
  }
  printSpread(record.runs, seeds);
  // The README's table: the first seed's rows (by default seed 42 alone).
  writeFileSync('bench-results/fleet-model.json', JSON.stringify(firstRows, null, 2));
  writeFileSync(options.record ?? 'bench-results/fleet-model-seeds.json', JSON.stringify(record, null, 2));
  if (options.compare) {
    const saved = JSON.parse(readFileSync(options.compare, 'utf8')) as FleetModelRecord;
    const comparison = compareRecords(saved, record);
    console.log(`\n### Compared with ${options.compare}\n`);
    for (const line of formatComparison(comparison)) console.log(line);
    if (!comparison.identical) process.exitCode = 1;
  }
}
