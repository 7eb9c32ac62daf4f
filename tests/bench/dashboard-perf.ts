/**
 * Dashboard benchmark (issue 5): browser mode in Chromium, demo traffic at 100% of every endpoint's
 * limit through the app's own client, the Budget view open. Measures main-thread long tasks
 * (PerformanceObserver 'longtask'), frame times (requestAnimationFrame deltas), the JS heap after a
 * forced GC at minute 1 and at the end (CDP), and the initial JavaScript of dist/renderer gzipped.
 *
 *   npx tsx tests/bench/dashboard-perf.ts            # 60 s
 *   DASHBOARD_BENCH_SECONDS=300 npx tsx tests/bench/dashboard-perf.ts   # heap at minute 1 vs minute 5
 *
 * Targets (printed as met / MISSED): no long task over 50 ms, frame p95 <= 20 ms, heap at the end
 * within 20% of minute 1, initial JS <= 350 KB gzipped.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { ENDPOINT_IDS } from '../../shared/endpoints';
import { CHROMIUM_ARGS, chromiumExecutable } from '../e2e/chromium-path';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = path.join(REPO, 'dist', 'renderer');
const TARGETS = { longTaskMs: 50, frameP95Ms: 20, heapGrowth: 0.2, initialJsGzipBytes: 350 * 1024 };

export interface InitialJs {
  files: { file: string; bytes: number; gzipBytes: number }[];
  bytes: number;
  gzipBytes: number;
}

export interface DashboardBenchResult {
  seconds: number;
  longTasks: { count: number; over50: number; maxMs: number };
  frames: { count: number; p50Ms: number; p95Ms: number; p99Ms: number; maxMs: number };
  heap: { minute1MB: number; endMB: number; growth: number; atSeconds: [number, number] };
  initialJs: InitialJs;
  verdicts: Record<'longTasks' | 'frameP95' | 'heap' | 'initialJs', 'met' | 'MISSED'>;
}

/** The scripts the page loads before its first paint: the entry module and its modulepreloads. */
export function initialJsSize(dist = DIST): InitialJs {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) refs.add(m[1]!);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) refs.add(m[1]!);
  const files = [...refs].map((ref) => {
    const body = readFileSync(path.join(dist, ref.replace(/^\.?\//, '')));
    return { file: ref, bytes: body.length, gzipBytes: gzipSync(body).length };
  });
  return { files, bytes: files.reduce((a, f) => a + f.bytes, 0), gzipBytes: files.reduce((a, f) => a + f.gzipBytes, 0) };
}

function ensureBuilt(): void {
  if (existsSync(path.join(DIST, 'index.html'))) return;
  console.log('dashboard bench: building the renderer (npx vite build)…');
  const r = spawnSync('npx', ['vite', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (r.status !== 0) throw new Error('vite build failed');
}

/**
 * Runs in the page: long tasks and a histogram of frame deltas (constant memory, so it does not skew
 * the heap). A string, not a function: tsx would wrap a function with helpers the page does not have.
 */
const PROBES = `(() => {
  const bench = { longTasks: [], hist: new Uint32Array(4000), frames: 0, max: 0 };
  bench.reset = () => { bench.longTasks = []; bench.hist.fill(0); bench.frames = 0; bench.max = 0; };
  window.__bench = bench;
  new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.longTasks.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });
  let last = 0;
  const tick = (t) => {
    if (last > 0) {
      const d = t - last; // 0.25 ms bins up to 1 s
      bench.hist[Math.min(bench.hist.length - 1, Math.floor(d * 4))]++;
      bench.frames++;
      bench.max = Math.max(bench.max, d);
    }
    last = t;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

function percentile(hist: number[], total: number, p: number): number {
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    if (seen >= total * p) return (i + 1) / 4;
  }
  return hist.length / 4;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;

export async function main(): Promise<DashboardBenchResult> {
  const seconds = Math.max(10, Number(process.env.DASHBOARD_BENCH_SECONDS ?? 60));
  ensureBuilt();
  const initialJs = initialJsSize();
  const { startWebServer } = await import('../../electron/web/server');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'partner-console-bench-'));
  const server = await startWebServer({ port: 0, dataDir });
  const browser = await chromium.launch({ executablePath: chromiumExecutable(), args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.addInitScript({ content: PROBES });
    await page.goto(server.url);
    await page.getByRole('status', { name: /Connection: Connected/ }).waitFor({ timeout: 30_000 });
    await page.getByRole('table', { name: 'Endpoint budgets' }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    // The forced GC is the benchmark's own doing: long tasks inside it are not counted.
    const gcWindows: [number, number][] = [];
    const pageNow = () => page.evaluate(() => performance.now());
    const heapNow = async () => {
      const from = await pageNow();
      await cdp.send('HeapProfiler.collectGarbage');
      gcWindows.push([from, await pageNow()]);
      const { metrics } = await cdp.send('Performance.getMetrics');
      return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
    };

    const started = await server.services.dispatch('simSetDemoTraffic', { share: 1, endpoints: [...ENDPOINT_IDS] });
    if (!started.ok) throw new Error(`demo traffic did not start: ${started.error.message}`);
    // Let the traffic and the charts reach their steady state, then measure from zero.
    await page.waitForTimeout(3000);
    await page.evaluate(() => (globalThis as unknown as { __bench: { reset(): void } }).__bench.reset());
    const t0 = Date.now();
    const heapAt = Math.min(60, Math.floor(seconds / 2));
    await page.waitForTimeout(heapAt * 1000);
    const heap1 = await heapNow();
    const heap1At = (Date.now() - t0) / 1000;
    await page.waitForTimeout(Math.max(0, seconds * 1000 - (Date.now() - t0)));
    const probe = await page.evaluate(() => {
      const b = (globalThis as unknown as { __bench: { longTasks: [number, number][]; hist: Uint32Array; frames: number; max: number } }).__bench;
      return { longTasks: b.longTasks, hist: [...b.hist], frames: b.frames, max: b.max };
    });
    const heapEnd = await heapNow();
    const heapEndAt = (Date.now() - t0) / 1000;
    await server.services.dispatch('simSetDemoTraffic', { share: 0, endpoints: [] });

    const longTasks = probe.longTasks
      .filter(([start, duration]) => !gcWindows.some(([a, b]) => start < b && start + duration > a))
      .map(([, duration]) => duration);
    const growth = heap1 > 0 ? (heapEnd - heap1) / heap1 : 0;
    const result: DashboardBenchResult = {
      seconds,
      longTasks: {
        count: longTasks.length,
        over50: longTasks.filter((d) => d > TARGETS.longTaskMs).length,
        maxMs: Math.round(Math.max(0, ...longTasks)),
      },
      frames: {
        count: probe.frames,
        p50Ms: percentile(probe.hist, probe.frames, 0.5),
        p95Ms: percentile(probe.hist, probe.frames, 0.95),
        p99Ms: percentile(probe.hist, probe.frames, 0.99),
        maxMs: Math.round(probe.max * 10) / 10,
      },
      heap: { minute1MB: mb(heap1), endMB: mb(heapEnd), growth: Math.round(growth * 1000) / 1000, atSeconds: [Math.round(heap1At), Math.round(heapEndAt)] },
      initialJs,
      verdicts: {
        longTasks: 'met',
        frameP95: 'met',
        heap: 'met',
        initialJs: initialJs.gzipBytes <= TARGETS.initialJsGzipBytes ? 'met' : 'MISSED',
      },
    };
    result.verdicts.longTasks = result.longTasks.over50 === 0 ? 'met' : 'MISSED';
    result.verdicts.frameP95 = result.frames.p95Ms <= TARGETS.frameP95Ms ? 'met' : 'MISSED';
    result.verdicts.heap = Math.abs(growth) <= TARGETS.heapGrowth ? 'met' : 'MISSED';
    print(result);
    mkdirSync(path.join(REPO, 'bench-results'), { recursive: true });
    writeFileSync(path.join(REPO, 'bench-results', 'dashboard-perf.json'), JSON.stringify(result, null, 2));
    return result;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function print(r: DashboardBenchResult): void {
  console.log(`\nDashboard (browser mode, Chromium, demo traffic at 100% of all 10 endpoints, Budget view, ${r.seconds} s)`);
  console.log('| figure | value | target | |');
  console.log('|---|---:|---:|---|');
  console.log(`| long tasks > 50 ms | ${r.longTasks.over50} (of ${r.longTasks.count}; longest ${r.longTasks.maxMs} ms) | 0 | ${r.verdicts.longTasks} |`);
  console.log(`| frame time p95 | ${r.frames.p95Ms} ms (p50 ${r.frames.p50Ms}, p99 ${r.frames.p99Ms}, max ${r.frames.maxMs}; ${r.frames.count} frames) | <= 20 ms | ${r.verdicts.frameP95} |`);
  console.log(
    `| JS heap after GC | ${r.heap.minute1MB} MB at ${r.heap.atSeconds[0]} s -> ${r.heap.endMB} MB at ${r.heap.atSeconds[1]} s (${(r.heap.growth * 100).toFixed(1)}%) | within 20% | ${r.verdicts.heap} |`,
  );
  console.log(
    `| initial JS gzipped | ${(r.initialJs.gzipBytes / 1024).toFixed(1)} KB (${r.initialJs.files.map((f) => `${f.file} ${(f.gzipBytes / 1024).toFixed(1)} KB`).join(', ')}) | <= 350 KB | ${r.verdicts.initialJs} |`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
