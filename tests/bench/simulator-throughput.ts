/**
 * Simulator throughput: the CLI in a child process, driven from here with a keep-alive agent,
 * ~64 requests in flight for ~5 s across 200 vendors (so nearly every answer is a 200), plus the
 * in-process cost of one 100-item page at catalog sizes 5,000 and 1,000,000.
 *
 *   npx tsx tests/bench/simulator-throughput.ts [--seconds 5] [--concurrency 64] [--vendors 200]
 *
 * Target: >= 2,000 requests/second on a 2-core machine (client and server share those cores).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AssetCatalog } from '../../electron/simulator/asset-catalog';

export interface ThroughputOptions {
  seconds: number;
  concurrency: number;
  vendors: number;
}

export interface ThroughputResult {
  seconds: number;
  concurrency: number;
  vendors: number;
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  statuses: Record<string, number>;
}

export interface PageCost {
  catalogSize: number;
  constructMs: number;
  pageMedianUs: number;
  pageJsonMedianUs: number;
  categoriesFirstMs: number;
  searchNoMatchMs: number;
}

const TARGET_RPS = 2000;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function startChild(vendors: number): Promise<{ url: string; child: ChildProcess }> {
  const tokens = Array.from({ length: vendors }, (_, i) => ['--token', `v${i}:bench-token-${i}`]).flat();
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/simulator/cli.ts', '--port', '0', '--catalog-size', '5000', ...tokens], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited with ${code}:\n${output}`));
    });
  });
  return { url, child };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

interface Planned {
  method: string;
  path: string;
  body?: string;
}

/** The request mix: mostly cheap reads, some pages and searches, spread over the vendors. */
function plan(i: number, vendors: number): { token: string; req: Planned } {
  const v = i % vendors;
  const kind = Math.floor(i / vendors) % 10;
  const token = `bench-token-${v}`;
  if (kind < 4) return { token, req: { method: 'GET', path: `/assets/list?per-page=20&last_id=${1000 + ((i * 61) % 14_000)}` } };
  if (kind < 6) return { token, req: { method: 'GET', path: '/assets/categories' } };
  if (kind < 9) return { token, req: { method: 'GET', path: '/purchase/info?client_reference=bench' } };
  return { token, req: { method: 'POST', path: '/assets/search', body: '{"query":"castle","limit":10}' } };
}

function send(agent: Agent, url: string, token: string, p: Planned): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (p.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(p.body));
    }
    const req = request(`${url}${p.path}`, { method: p.method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
    req.end(p.body);
  });
}

export async function measureThroughput(o: ThroughputOptions): Promise<ThroughputResult> {
  const { url, child } = await startChild(o.vendors);
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  try {
    let counter = 0;
    const drive = async (until: number, record: boolean, latencies: number[], statuses: Map<number, number>): Promise<void> => {
      const worker = async (): Promise<void> => {
        while (performance.now() < until) {
          const { token, req } = plan(counter++, o.vendors);
          const t = performance.now();
          const status = await send(agent, url, token, req);
          if (record) {
            latencies.push(performance.now() - t);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }
      };
      await Promise.all(Array.from({ length: o.concurrency }, worker));
    };
    // Warm up (JIT, sockets), then a fresh second so budgets start full.
    await drive(performance.now() + 1000, false, [], new Map());
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const start = performance.now();
    await drive(start + o.seconds * 1000, true, latencies, statuses);
    const elapsed = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      seconds: Number(elapsed.toFixed(2)),
      concurrency: o.concurrency,
      vendors: o.vendors,
      requests: latencies.length,
      requestsPerSecond: Math.round(latencies.length / elapsed),
      p50Ms: Number(quantile(latencies, 0.5).toFixed(2)),
      p95Ms: Number(quantile(latencies, 0.95).toFixed(2)),
      p99Ms: Number(quantile(latencies, 0.99).toFixed(2)),
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v])),
    };
  } finally {
    agent.destroy();
    await stopChild(child);
  }
}

function medianUs(fn: () => void, runs: number): number {
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    xs.push((performance.now() - t) * 1000);
  }
  xs.sort((a, b) => a - b);
  return Number(quantile(xs, 0.5).toFixed(1));
}

/** In-process: the cost of one 100-item page (and its JSON) from the middle of the catalog. */
export function measurePageCost(catalogSize: number): PageCost {
  let t = performance.now();
  const catalog = new AssetCatalog(catalogSize, 42);
  const constructMs = performance.now() - t;
  const mid = Math.floor(catalogSize / 2);
  let i = 0;
  const lastId = (): number => catalog.idAt((mid + ((i++ * 100) % Math.max(1, mid - 200))) % catalogSize);
  for (let w = 0; w < 300; w++) catalog.page(lastId(), 100); // warm up
  const pageMedianUs = medianUs(() => catalog.page(lastId(), 100), 2000);
  const pageJsonMedianUs = medianUs(() => JSON.stringify(catalog.page(lastId(), 100)), 2000);
  t = performance.now();
  catalog.categories();
  const categoriesFirstMs = performance.now() - t;
  catalog.search('warm', undefined, 20);
  t = performance.now();
  catalog.search('no such asset', undefined, 20);
  const searchNoMatchMs = performance.now() - t;
  return {
    catalogSize,
    constructMs: Number(constructMs.toFixed(2)),
    pageMedianUs,
    pageJsonMedianUs,
    categoriesFirstMs: Number(categoriesFirstMs.toFixed(1)),
    searchNoMatchMs: Number(searchNoMatchMs.toFixed(1)),
  };
}

export async function main(argv: readonly string[] = []): Promise<{ throughput: ThroughputResult; pages: PageCost[] }> {
  const { values } = parseArgs({
    args: [...argv],
    options: { seconds: { type: 'string', default: '5' }, concurrency: { type: 'string', default: '64' }, vendors: { type: 'string', default: '200' } },
  });
  const options: ThroughputOptions = { seconds: Number(values.seconds), concurrency: Number(values.concurrency), vendors: Number(values.vendors) };
  console.log('\n## Simulator throughput\n');
  const throughput = await measureThroughput(options);
  const pages = [5_000, 1_000_000].map(measurePageCost);
  const ok = throughput.statuses['200'] ?? 0;
  console.log('| measure | value |');
  console.log('|---|---:|');
  console.log(
    `| requests/second (${throughput.concurrency} in flight, ${throughput.vendors} vendors, ${throughput.seconds} s) | ${throughput.requestsPerSecond} |`,
  );
  console.log(`| target | >= ${TARGET_RPS} (${throughput.requestsPerSecond >= TARGET_RPS ? 'met' : 'MISSED'}) |`);
  console.log(`| latency p50 / p95 / p99 ms | ${throughput.p50Ms} / ${throughput.p95Ms} / ${throughput.p99Ms} |`);
  console.log(
    `| statuses | ${Object.entries(throughput.statuses)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')} (${((100 * ok) / Math.max(1, throughput.requests)).toFixed(1)}% 200) |`,
  );
  console.log('\n| catalog size | new catalog ms | 100-item page median µs | page + JSON median µs | first categories ms | search, no match ms |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const p of pages) {
    console.log(`| ${p.catalogSize} | ${p.constructMs} | ${p.pageMedianUs} | ${p.pageJsonMedianUs} | ${p.categoriesFirstMs} | ${p.searchNoMatchMs} |`);
  }
  mkdirSync('bench-results', { recursive: true });
  writeFileSync('bench-results/simulator.json', JSON.stringify({ throughput, pages }, null, 2));
  return { throughput, pages };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
