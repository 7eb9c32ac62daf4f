/**
 * Issue 3's five scenarios, each run for Partner Console's client and the three baselines, in both
 * refill models, against the simulator in its own process over real HTTP on loopback.
 */
import { spawn } from 'node:child_process';
import { ENDPOINT_LIST } from '../../shared/endpoints';
import type { BenchClientKind } from './bench-client';
import { makeBenchClient } from './clients';
import type { SimProcess } from './sim-process';
import type { Tally } from './workloads';
import { downloadCatalog, flood, newTally, p95 } from './workloads';

export type RefillModel = 'whole-second' | 'continuous';

export interface ScenarioResult {
  scenario: string;
  refill: RefillModel;
  client: BenchClientKind;
  /** Non-429 answers per second divided by the budget available to this client. */
  goodput: number;
  rateLimited: number;
  requests: number;
  p95WaitMs: number;
  seconds: number;
  /** A download was abandoned after too many refusals in a row. */
  gaveUp: boolean;
  /** Scenario 3: how often the competing consumer was refused (a greedy client takes its share). */
  competitorRateLimited: number;
}

export const VENDOR = 'bench';
export const TOKENS = ['bench-token-1', 'bench-token-2'];
const PAGE_SIZE = 10;
/** 3,000 items at 10 a page: 300 pages, scenario 1's size. */
export const CATALOG_SIZE = 3000;

interface Counter {
  vendor: string;
  status: number;
  count: number;
  competitor?: boolean;
}

interface ServerCounts {
  requests: number;
  rateLimited: number;
  competitorRateLimited: number;
}

async function serverCounts(sim: SimProcess): Promise<ServerCounts> {
  const raw = await sim.control<Counter[] | { counters: Counter[] }>('GET', '/_sim/counters');
  const vendorRows = (Array.isArray(raw) ? raw : raw.counters).filter((c) => c.vendor === VENDOR);
  const ours = vendorRows.filter((c) => !c.competitor);
  const sum = (rows: Counter[]) => rows.reduce((n, c) => n + c.count, 0);
  return {
    requests: sum(ours),
    rateLimited: sum(ours.filter((c) => c.status === 429)),
    competitorRateLimited: sum(vendorRows.filter((c) => c.competitor && c.status === 429)),
  };
}

async function freshServer(sim: SimProcess, competitors: unknown[] = []): Promise<void> {
  await sim.control('POST', '/_sim/reset', { what: 'all' });
  await sim.control('PUT', '/_sim/competitors', { competitors });
  // Let the budgets be whole again and start all clients in the same phase of the second.
  await new Promise((r) => setTimeout(r, 1100 + (1000 - (Date.now() % 1000)) + 50));
}

async function purchaseId(sim: SimProcess): Promise<string> {
  const res = await fetch(`${sim.url}/purchase/register`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKENS[0]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asset_id: 1000 }),
  });
  return ((await res.json()) as { id: string }).id;
}

function result(
  scenario: string,
  refill: RefillModel,
  client: BenchClientKind,
  tallies: Tally[],
  seconds: number,
  budget: number,
  counts: ServerCounts,
): ScenarioResult {
  const good = tallies.reduce((n, t) => n + t.good, 0);
  return {
    scenario,
    refill,
    client,
    goodput: good / seconds / budget,
    rateLimited: counts.rateLimited,
    requests: counts.requests,
    p95WaitMs: p95(tallies.flatMap((t) => t.waits)),
    seconds,
    gaveUp: tallies.some((t) => t.gaveUp),
    competitorRateLimited: counts.competitorRateLimited,
  };
}

export async function catalogDownload(sim: SimProcess, refill: RefillModel, kind: BenchClientKind): Promise<ScenarioResult> {
  await freshServer(sim);
  const client = makeBenchClient(kind, sim.url, VENDOR, TOKENS);
  const t0 = performance.now();
  const tally = await downloadCatalog(client, TOKENS[0]!, PAGE_SIZE, t0);
  client.close();
  return result('1 catalog download', refill, kind, [tally], tally.finishedAt / 1000, 20, await serverCounts(sim));
}

export async function mixedLoad(sim: SimProcess, refill: RefillModel, kind: BenchClientKind, seconds = 15): Promise<ScenarioResult> {
  await freshServer(sim);
  const id = await purchaseId(sim);
  await freshServer(sim);
  const client = makeBenchClient(kind, sim.url, VENDOR, TOKENS);
  const tallies = await flood(client, TOKENS[0]!, id, seconds, 4);
  client.close();
  const budget = ENDPOINT_LIST.reduce((n, e) => n + e.limit, 0);
  return result('2 mixed load, 10 endpoints', refill, kind, [...tallies.values()], seconds, budget, await serverCounts(sim));
}

export async function competingConsumer(sim: SimProcess, refill: RefillModel, kind: BenchClientKind): Promise<ScenarioResult> {
  await freshServer(sim, [{ vendor: VENDOR, endpoint: 'listAssets', rps: 8 }]);
  const client = makeBenchClient(kind, sim.url, VENDOR, TOKENS);
  const t0 = performance.now();
  const tally = await downloadCatalog(client, TOKENS[0]!, PAGE_SIZE, t0);
  client.close();
  const counts = await serverCounts(sim);
  await sim.control('PUT', '/_sim/competitors', { competitors: [] });
  return result('3 competitor 8/20 rps', refill, kind, [tally], tally.finishedAt / 1000, 12, counts);
}

export async function twoDownloadsOneProcess(sim: SimProcess, refill: RefillModel, kind: BenchClientKind): Promise<ScenarioResult> {
  await freshServer(sim);
  const clients = TOKENS.map((token) => makeBenchClient(kind, sim.url, VENDOR, [token]));
  const t0 = performance.now();
  const tallies = await Promise.all(clients.map((c, i) => downloadCatalog(c, TOKENS[i]!, PAGE_SIZE, t0, newTally())));
  clients.forEach((c) => c.close());
  const seconds = Math.max(...tallies.map((t) => t.finishedAt)) / 1000;
  return result('4 two downloads, 1 process', refill, kind, tallies, seconds, 20, await serverCounts(sim));
}

function runWorker(kind: BenchClientKind, url: string, token: string): Promise<Tally> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/bench/bench-worker.ts', kind, url, VENDOR, token, String(PAGE_SIZE)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`bench worker (${kind}) exited with ${code}`));
      resolve(JSON.parse(out) as Tally);
    });
  });
}

export async function twoProcesses(sim: SimProcess, refill: RefillModel, kind: BenchClientKind): Promise<ScenarioResult> {
  await freshServer(sim);
  const tallies = await Promise.all(TOKENS.map((token) => runWorker(kind, sim.url, token)));
  // Each worker's clock starts when it does; the run lasts as long as the slower one.
  const seconds = Math.max(...tallies.map((t) => t.finishedAt)) / 1000;
  return result('5 two processes', refill, kind, tallies, seconds, 20, await serverCounts(sim));
}

export const SCENARIOS = [catalogDownload, mixedLoad, competingConsumer, twoDownloadsOneProcess, twoProcesses];
