/**
 * Issue 10's fleet scenarios: N real processes of one vendor download the catalog at once (pages of
 * 10, each with its own token), the simulator in its own process; headers only, with the Redis
 * budget store, one copy alone, a competing consumer, Redis killed mid-run; and two baselines
 * (the naive client, Bottleneck clustered through Redis). Vendor-wide 429s are counted by the server.
 * The page size and the catalog are scenario settings: issue 23's short workload (a catalog of 2,500
 * items in pages of 25 per process) with 8 processes on headers, 8 and 16 with this machine's store (the
 * catalog CLI's default), 16 with Redis, 16 with Redis killed.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evenStarts, jainIndex } from '../../electron/client/testing/fleet-model';
import { startRedisServer } from '../helpers/redis-server';
import type { RefillModel } from './client-scenarios';
import type { FleetGo, FleetTally, FleetWorkerArgs } from './fleet-worker';
import { startSimProcess, type SimProcess } from './sim-process';

export type FleetClient = FleetWorkerArgs['kind'];

export interface FleetScenario {
  name: string;
  refill: RefillModel;
  client: FleetClient;
  processes: number;
  /** 'machine': this machine's store (the catalog CLI's default), in a folder of the run's own. */
  store: 'headers' | 'redis' | 'redis killed' | 'machine';
  /** Competing consumer's requests per second (0: none). */
  competitorRps: number;
  /** Items per page (default 10). */
  pageSize?: number;
  /** Each process exports a catalog of this many items (default: enough pages for FLEET_RUN_SECONDS, or FLEET_PAGES). */
  catalogItems?: number;
  /** Redis killed this long after the start (default: half of FLEET_RUN_SECONDS). */
  killAfterS?: number;
  /** With the machine store: the processes split evenly over this many machines (stores of their own; default 1). */
  machines?: number;
}

export interface FleetResult extends FleetScenario {
  /** Pages per second of the fleet over the limit available to it (the limit less the competitor's rate). */
  goodput: number;
  /** 429s of every consumer of the vendor (ours and the competitor's) over all their requests. */
  vendor429Share: number;
  vendorRequests: number;
  jain: number;
  gaveUp: number;
  seconds: number;
}

const VENDOR = 'fleet';
const LIMIT = 20;
const DEFAULT_PAGE_SIZE = 10;
/**
 * How long a run lasts at the available rate (FLEET_RUN_SECONDS, default 12): short runs weigh the
 * first seconds (copies finding each other) and the tail (copies finishing at different times) heavily.
 */
const RUN_SECONDS = Number(process.env.FLEET_RUN_SECONDS) > 0 ? Number(process.env.FLEET_RUN_SECONDS) : 12;
/** FLEET_PAGES: pages per process instead (the run then lasts longer with more processes). */
const PAGES_PER_PROCESS = Number(process.env.FLEET_PAGES) > 0 ? Number(process.env.FLEET_PAGES) : undefined;
/**
 * FLEET_STAGGER_MS: the processes start evenly over this many ms instead of at one agreed instant (people and
 * schedulers start exports apart; the model's "started over 2 s" scenario). Default 0.
 */
const STAGGER_MS = Number(process.env.FLEET_STAGGER_MS) > 0 ? Number(process.env.FLEET_STAGGER_MS) : 0;
/**
 * FLEET_LATENCY_MS and FLEET_JITTER_MS: the simulator's added latency (plus uniform 0..jitter) before it counts and
 * answers a request, as a service across a network would be (default 0: loopback, where round trips are ~1 ms).
 */
const LATENCY_FLAGS = (['latency', 'jitter'] as const).flatMap((f) => {
  const ms = Number(process.env[`FLEET_${f.toUpperCase()}_MS`]);
  return ms > 0 ? [`--${f}`, String(ms)] : [];
});

export { hasRedisServer } from '../helpers/redis-server';

export interface RedisProcess {
  url: string;
  kill(): Promise<void>;
}

export async function startRedis(): Promise<RedisProcess> {
  const server = await startRedisServer();
  return { url: server.url(0), kill: () => server.stop() };
}

/** A worker process: loaded and ready once `ready` resolves; `go` tells it when to send its first request. */
interface Worker {
  ready: Promise<void>;
  go(startAt: number): void;
  done: Promise<FleetTally>;
  /** Ends a worker still running (a run that failed must not leave processes behind). */
  kill(): void;
}

/** Longest a worker may take to load before the run is given up (16 processes on 2 cores took up to 14 s). */
const READY_TIMEOUT_MS = 120_000;

function startWorker(args: FleetWorkerArgs): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/fleet-worker.ts', JSON.stringify(args)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, ...(args.storeDir ? { PARTNER_CONSOLE_STORE_DIR: args.storeDir } : {}) },
  });
  // Sending to a worker that just died emits 'error': its exit already fails the run.
  child.on('error', () => undefined);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const done = new Promise<FleetTally>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`fleet worker exited with ${code}`));
      resolve(JSON.parse(out) as FleetTally);
    });
  });
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fleet worker not ready after ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
    child.once('message', () => (clearTimeout(timer), resolve()));
    done.then(
      () => reject(new Error('fleet worker ended before it was ready')),
      (e: unknown) => (clearTimeout(timer), reject(e)),
    );
  });
  return {
    ready,
    done,
    go: (startAt) => child.connected && child.send({ startAt } satisfies FleetGo, () => undefined),
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    },
  };
}

interface Counter {
  vendor: string;
  status: number;
  count: number;
}

async function vendorCounts(sim: SimProcess): Promise<{ requests: number; rateLimited: number }> {
  const raw = await sim.control<{ counters: Counter[] } | Counter[]>('GET', '/_sim/counters');
  const rows = (Array.isArray(raw) ? raw : raw.counters).filter((c) => c.vendor === VENDOR);
  return { requests: rows.reduce((n, c) => n + c.count, 0), rateLimited: rows.filter((c) => c.status === 429).reduce((n, c) => n + c.count, 0) };
}

export async function runFleet(s: FleetScenario, redis: RedisProcess | null): Promise<FleetResult> {
  const available = LIMIT - s.competitorRps;
  // Enough pages that the run lasts about RUN_SECONDS at the available rate; or FLEET_PAGES per process
  // (250: the issue's own measurement, every process downloading a catalog of 2,500 items in pages of 10).
  const pageSize = s.pageSize ?? DEFAULT_PAGE_SIZE;
  const pages =
    s.catalogItems !== undefined
      ? Math.ceil(s.catalogItems / pageSize)
      : (PAGES_PER_PROCESS ?? Math.max(10, Math.round((available * RUN_SECONDS) / s.processes)));
  const tokens = Array.from({ length: s.processes }, (_, i) => `fleet-token-${i + 1}`);
  const sim = await startSimProcess([
    '--refill',
    s.refill,
    '--catalog-size',
    String(pages * pageSize),
    ...LATENCY_FLAGS,
    ...tokens.flatMap((t) => ['--token', `${VENDOR}:${t}`]),
  ]);
  let workers: Worker[] = [];
  let storeDirs: string[] = [];
  try {
    await sim.control('PUT', '/_sim/competitors', {
      competitors: s.competitorRps > 0 ? [{ vendor: VENDOR, endpoint: 'listAssets', rps: s.competitorRps }] : [],
    });
    const useRedis = (s.store !== 'headers' && s.store !== 'machine') || s.client === 'bottleneck-redis';
    // Machine stores of the run's own (one per machine): no schedule left by an earlier run or by the user's exports.
    storeDirs = s.store === 'machine' ? Array.from({ length: s.machines ?? 1 }, () => mkdtempSync(join(tmpdir(), 'fleet-machine-store-'))) : [];
    const store = storeDirs.length > 0 ? 'machine' : useRedis ? redis?.url : undefined;
    workers = tokens.map((token, i) =>
      startWorker({ kind: s.client, url: sim.url, vendor: VENDOR, token, pageSize, redis: store, storeDir: storeDirs[i % Math.max(1, storeDirs.length)] }),
    );
    // Start every process together once all have loaded (16 processes on 2 cores take seconds to, unevenly),
    // at the same phase of a second; the kill is timed from that start, so that it falls mid-run.
    await Promise.all(workers.map((w) => w.ready));
    const startAt = Math.ceil((Date.now() + 500) / 1000) * 1000 + 50;
    const apart = evenStarts(workers.length, STAGGER_MS);
    workers.forEach((w, i) => w.go(startAt + apart[i]!));
    if (s.store === 'redis killed' && redis) {
      const killAt = startAt + (s.killAfterS ?? RUN_SECONDS / 2) * 1000;
      setTimeout(() => void redis.kill(), Math.max(0, killAt - Date.now()));
    }
    const tallies = await Promise.all(workers.map((w) => w.done));
    const counts = await vendorCounts(sim);
    // From the first worker's first request (a loaded machine may start some late) to the last page.
    const seconds = (Math.max(...tallies.map((t) => t.finishedAt)) - Math.min(...tallies.map((t) => t.startedAt))) / 1000;
    const total = tallies.reduce((n, t) => n + t.pages, 0);
    const rates = tallies.map((t) => (t.finishedAt > t.startedAt ? t.pages / ((t.finishedAt - t.startedAt) / 1000) : 0));
    for (const t of tallies) if (t.gaveUp) console.error(`    gave up after ${t.pages} pages: ${t.error}`);
    if (process.env.FLEET_TIMELINE) printTimeline(tallies, startAt);
    return {
      ...s,
      goodput: seconds > 0 ? total / seconds / available : 0,
      vendor429Share: counts.requests === 0 ? 0 : counts.rateLimited / counts.requests,
      vendorRequests: counts.requests,
      jain: jainIndex(rates),
      gaveUp: tallies.filter((t) => t.gaveUp).length,
      seconds,
    };
  } finally {
    for (const w of workers) w.kill();
    for (const dir of storeDirs) rmSync(dir, { recursive: true, force: true });
    await sim.control('PUT', '/_sim/competitors', { competitors: [] }).catch(() => undefined);
    await sim.stop();
  }
}

/** Pages per second of each worker and of the fleet, from the common start (FLEET_TIMELINE=1): where a run loses its goodput. */
function printTimeline(tallies: FleetTally[], startAt: number): void {
  const seconds = Math.ceil((Math.max(...tallies.map((t) => t.finishedAt)) - startAt) / 1000);
  const perSecond = (times: number[]) =>
    Array.from({ length: seconds }, (_, s) => times.filter((at) => at - startAt >= s * 1000 && at - startAt < (s + 1) * 1000).length);
  const cells = (row: number[]) => row.map((n) => String(n).padStart(3)).join('');
  console.error(`    fleet ${cells(perSecond(tallies.flatMap((t) => t.pageTimes)))}`);
  tallies.forEach((t, i) => console.error(`    ${String(i + 1).padStart(5)} ${cells(perSecond(t.pageTimes))}`));
  tallies.forEach((t, i) => {
    const late = t.unslotted.filter((at) => at >= startAt).map((at) => ((at - startAt) / 1000).toFixed(3));
    if (late.length > 0)
      console.error(
        `    worker ${i + 1} sent on headers alone (store late or down) at ${late.slice(0, 8).join(', ')} s${late.length > 8 ? ` and ${late.length - 8} more` : ''}`,
      );
  });
  tallies.forEach((t, i) =>
    t.refusals.forEach((r) => {
      const causes = r.causes
        ? Object.entries(r.causes)
            .filter(([, ms]) => ms > 0)
            .map(([c, ms]) => `${c} ${Math.round(ms)}`)
            .join(', ')
        : '';
      console.error(
        `    429 to worker ${i + 1} at ${((r.at - startAt) / 1000).toFixed(3)} s (page ${r.page}, try ${r.attempt}), waited ${Math.round(r.waitedMs)} ms${causes ? `: ${causes}` : ''}`,
      );
    }),
  );
}

/** Issue 10's goals per scenario. */
export function fleetGoal(r: FleetResult): string {
  if (r.client !== 'partner-console') return r.gaveUp > 0 ? 'gave up' : '';
  const checks: boolean[] = [r.gaveUp === 0];
  if (r.competitorRps > 0) checks.push(r.vendor429Share <= 0.02, r.goodput >= 0.9);
  else if (r.store === 'redis') checks.push(r.vendor429Share === 0, r.goodput >= 0.98, r.jain >= 0.95);
  else if (r.store === 'redis killed') checks.push(r.vendor429Share <= 0.02);
  else if (r.processes === 1) checks.push(r.vendor429Share === 0, r.goodput >= 0.98);
  else checks.push(r.vendor429Share <= (r.processes >= 16 ? 0.02 : 0.01), r.goodput >= 0.9, r.jain >= 0.9);
  return checks.every(Boolean) ? 'met' : 'MISSED';
}

export function fleetScenarios(refills: RefillModel[]): FleetScenario[] {
  const list: FleetScenario[] = [];
  for (const refill of refills) {
    list.push({ name: 'one copy alone', refill, client: 'partner-console', processes: 1, store: 'headers', competitorRps: 0 });
    for (const n of [4, 8, 16])
      list.push({ name: `N=${n}, headers only`, refill, client: 'partner-console', processes: n, store: 'headers', competitorRps: 0 });
    list.push({ name: 'N=16, Redis store', refill, client: 'partner-console', processes: 16, store: 'redis', competitorRps: 0 });
    list.push({ name: 'download + competitor 8/20', refill, client: 'partner-console', processes: 1, store: 'headers', competitorRps: 8 });
    list.push({ name: 'N=8, Redis killed mid-run', refill, client: 'partner-console', processes: 8, store: 'redis killed', competitorRps: 0 });
    list.push({ name: 'N=8 baseline', refill, client: 'naive', processes: 8, store: 'headers', competitorRps: 0 });
    list.push({ name: 'N=8 baseline', refill, client: 'bottleneck-redis', processes: 8, store: 'headers', competitorRps: 0 });
    // Issue 23's short workload: each process a catalog of 2,500 items in pages of 25 (about 40 s).
    const short = { refill, client: 'partner-console' as const, competitorRps: 0, pageSize: 25, catalogItems: 2_500 };
    list.push({ ...short, name: 'N=8, short, headers only', processes: 8, store: 'headers' });
    list.push({ ...short, name: 'N=8, short, machine store', processes: 8, store: 'machine' });
    list.push({ ...short, name: 'N=16, short, machine store', processes: 16, store: 'machine' });
    // Without Redis, exports on two machines share the budget through two machine stores and the headers.
    list.push({ ...short, name: 'N=8, short, machine stores on 2 machines', processes: 8, store: 'machine', machines: 2 });
    list.push({ ...short, name: 'download + competitor 8/20, machine store', processes: 1, store: 'machine', competitorRps: 8 });
    list.push({ ...short, name: 'N=4, short, headers only + competitor 8/20', processes: 4, store: 'headers', competitorRps: 8 });
    list.push({ ...short, name: 'N=4, short, machine store + competitor 8/20', processes: 4, store: 'machine', competitorRps: 8 });
    list.push({ ...short, name: 'N=4, short, Redis store + competitor 8/20', processes: 4, store: 'redis', competitorRps: 8 });
    list.push({ ...short, name: 'N=16, short, Redis store', processes: 16, store: 'redis' });
    list.push({ ...short, name: 'N=16, short, Redis killed after 8 s', processes: 16, store: 'redis killed', killAfterS: 8 });
  }
  return list;
}
