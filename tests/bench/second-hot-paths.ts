/**
 * `npm run bench -- --only seconds`: the two per-second hot paths made from the figure table
 * (shared/second-fields.ts). `addSample` runs once per request in the main process; the ring's `read`
 * runs for every second of every chart on every redraw. Each figure is the median of several timed
 * runs after a warm-up, so one GC pause or a busy neighbour does not set it.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { addSample, emptyAggregate } from '../../electron/telemetry/aggregate';
import type { BudgetAggregate } from '../../electron/telemetry/aggregate';
import type { BudgetSample } from '../../shared/rate-limit';
import type { SampleFindings } from '../../shared/second-fields';

/** What this bench uses of renderer/src/live/second-ring.ts (a file of the renderer's type project, so loaded by path). */
interface RingModule {
  SecondRing: new (capacity: number) => { add(t: number, d: RingDelta): void; read(i: number, into: ReadSecond): ReadSecond };
  emptySecond(): ReadSecond;
}
export type RingDelta = BudgetAggregate;
export interface ReadSecond {
  requests: number;
}
const RING_MODULE = '../../renderer/src/live/second-ring';

export const SAMPLES = 1_000_000;
export const SECONDS = 3_600;
const RUNS = 7;

/** A mix of answers like a busy hour's: mostly 200s, some 429s, 5xx and no answer; waits of every class, causes on most. */
export function benchSamples(n = 1000): { sample: BudgetSample; findings: SampleFindings }[] {
  const statuses = [200, 200, 200, 200, 200, 200, 429, 503, 0, 200];
  return Array.from({ length: n }, (_, i) => ({
    sample: {
      vendor: 'acme',
      endpoint: 'listAssets',
      at: 5_000 + i,
      serverSecond: 5_000,
      status: statuses[i % statuses.length]!,
      limit: i % 7 === 0 ? null : 20,
      remaining: i % 5 === 0 ? null : 20 - (i % 20),
      reset: i % 3 === 0 ? null : 1,
      latencyMs: 5 + (i % 90),
      waitedMs: (i * 37) % 6_000,
      attempt: 1,
      headerProblems: [],
      ...(i % 4 === 3 ? {} : { waitCauses: { others: i % 11, window: 0, budget: i % 5, pause: 0, store: 0, inFlight: 3 } }),
    },
    findings: { foreignUse: i % 9 === 0 ? 1 : 0, heldMs: i % 13 },
  }));
}

/** The hot paths under test: this tree's by default, another's (the code before the table) to compare. */
export interface HotPaths {
  addSample: (agg: BudgetAggregate, sample: BudgetSample, findings: SampleFindings) => void;
  emptyAggregate: () => BudgetAggregate;
  /** A ring of `capacity` seconds, its add, and a read of second i into a reused cursor. */
  ring: (capacity: number) => { add: (t: number, d: RingDelta) => void; readAll: (size: number) => number };
}

/** This tree's hot paths. */
export async function currentPaths(): Promise<HotPaths> {
  const { SecondRing, emptySecond } = (await import(RING_MODULE)) as RingModule;
  return {
    addSample,
    emptyAggregate: () => emptyAggregate('acme', 'listAssets', 5_000),
    ring: (capacity) => {
      const ring = new SecondRing(capacity);
      const cursor = emptySecond();
      return {
        add: (t, d) => ring.add(t, d),
        readAll: (size) => {
          let sum = 0;
          for (let i = 0; i < size; i++) sum += ring.read(i, cursor).requests;
          return sum;
        },
      };
    },
  };
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median ms of `run` over RUNS runs after `warm` untimed runs. */
function timeMs(run: () => unknown, warm = 2): number {
  for (let i = 0; i < warm; i++) run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** Median ms of SAMPLES addSample calls. */
export function addSampleMs(paths: HotPaths): number {
  const inputs = benchSamples();
  return timeMs(() => {
    const agg = paths.emptyAggregate();
    for (let i = 0; i < SAMPLES; i++) {
      const { sample, findings } = inputs[i % inputs.length]!;
      paths.addSample(agg, sample, findings);
    }
    return agg;
  });
}

/** Median ms of reading every second of a full hour's ring once (a chart's redraw). */
export function readHourMs(paths: HotPaths): number {
  const ring = paths.ring(SECONDS);
  const inputs = benchSamples(10);
  for (let s = 0; s < SECONDS; s++) {
    const agg = paths.emptyAggregate();
    for (const { sample, findings } of inputs) paths.addSample(agg, sample, findings);
    ring.add(s * 1000, { ...agg, from: s * 1000, to: s * 1000 + 1000 });
  }
  // One pass is under a millisecond: time PASSES passes and give one.
  const PASSES = 25;
  return (
    timeMs(() => {
      for (let k = 0; k < PASSES; k++) ring.readAll(SECONDS);
    }, 4) / PASSES
  );
}

export async function secondsBench(given?: HotPaths): Promise<{ addSampleMs: number; readHourMs: number }> {
  const paths = given ?? (await currentPaths());
  const figures = { addSampleMs: addSampleMs(paths), readHourMs: readHourMs(paths) };
  console.log(`\n## Per-second hot paths, median of ${RUNS} runs\n`);
  console.log('| path | ms |');
  console.log('|---|---:|');
  console.log(`| addSample x ${SAMPLES.toLocaleString('en')} | ${figures.addSampleMs.toFixed(0)} |`);
  console.log(`| ring read() over ${SECONDS.toLocaleString('en')} seconds | ${figures.readHourMs.toFixed(3)} |`);
  writeFileSync('bench-results/seconds.json', JSON.stringify(figures, null, 2));
  return figures;
}
