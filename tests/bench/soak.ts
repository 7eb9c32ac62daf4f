/**
 * `npm run bench -- --only soak [--soak-minutes 3] [--soak-every 15] [--soak-snapshots DIR]`
 * (or SOAK_MINUTES / SOAK_EVERY_S; SOAK_NODE_FLAGS for V8 flags to try): the server process's memory over a long session. The real
 * browser-mode server runs in a child process (soak-server.ts, --expose-gc); this process is its
 * page over the WebSocket bridge: it connects the built-in demo, turns demo traffic on at 100% of
 * every endpoint, adds the simulator's competing consumer, reads every event, and samples RSS and
 * heap (as they are, and after a forced GC) every few seconds. Prints the curve and the slope per
 * minute of its second half (the first minutes fill caches and bounded buffers).
 */
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { ENDPOINT_IDS } from '../../shared/endpoints';
import type { SoakReply, SoakRequest } from './soak-server';

const MIB = 1024 * 1024;

export interface SoakOptions {
  minutes: number;
  everySeconds: number;
  /** Write a heap snapshot after the first sample and at the end, for a comparison in DevTools. */
  snapshotDir: string | null;
}

export interface SoakSample {
  minute: number;
  rssMiB: number;
  heapMiB: number;
  rssAfterGcMiB: number;
  heapAfterGcMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  rssAnonMiB: number | null;
  /** Requests the app's client has answered so far (the page's request log). */
  requests: number;
  /** CPU time the server has used so far. */
  cpuSeconds: number;
}

type Sample = Extract<SoakReply, { t: 'sample' }>;

class ServerChild {
  private waiting: Array<{ resolve: (m: SoakReply) => void; reject: (e: Error) => void }> = [];
  private constructor(readonly child: ChildProcess) {
    child.on('message', (m: SoakReply) => this.waiting.shift()?.resolve(m));
    child.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`soak server exited (${code})`));
    });
  }
  static async start(): Promise<{ server: ServerChild; ready: Extract<SoakReply, { t: 'ready' }> }> {
    const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'soak-server.ts');
    // SOAK_NODE_FLAGS: V8 flags to try on the server (e.g. --max-semi-space-size=8).
    const flags = (process.env.SOAK_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
    const child = fork(script, [], { execArgv: ['--expose-gc', ...flags, '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const server = new ServerChild(child);
    const ready = await server.next();
    if (ready.t !== 'ready') throw new Error('soak server: no ready message');
    return { server, ready };
  }
  private next(): Promise<SoakReply> {
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }
  ask(request: SoakRequest): Promise<SoakReply> {
    const answer = this.next();
    this.child.send(request);
    return answer;
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.send({ t: 'stop' } satisfies SoakRequest);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** The page's side of the bridge: calls, and every event read (a page that stops reading is cut off). */
class Page {
  private nextId = 1;
  private pending = new Map<number, (result: { ok: boolean; value?: unknown; error?: { message: string } }) => void>();
  requests = 0;
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as {
        t: string;
        id?: number;
        name?: string;
        payload?: { entries?: unknown[] };
        result?: { ok: boolean; value?: unknown; error?: { message: string } };
      };
      if (message.t === 'event' && message.name === 'requestLog') this.requests += message.payload?.entries?.length ?? 0;
      else if (message.t === 'result' && message.id !== undefined) this.pending.get(message.id)?.(message.result!);
    });
  }
  static open(ready: Extract<SoakReply, { t: 'ready' }>): Promise<Page> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${ready.bridgeUrl}?secret=${encodeURIComponent(ready.secret)}`, { origin: ready.origin });
      socket.once('open', () => resolve(new Page(socket)));
      socket.once('error', reject);
    });
  }
  call<T = unknown>(name: string, request: unknown = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, (result) => {
        this.pending.delete(id);
        if (result.ok) resolve(result.value as T);
        else reject(new Error(`${name}: ${result.error?.message ?? 'failed'}`));
      });
      this.socket.send(JSON.stringify({ t: 'call', id, name, request }));
    });
  }
  close(): void {
    this.socket.terminate();
  }
}

/** Least-squares slope of y over x. */
export function slope(points: ReadonlyArray<{ x: number; y: number }>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
}

const mib = (bytes: number) => bytes / MIB;

export async function soakBench(options: SoakOptions): Promise<SoakSample[]> {
  if (!(options.minutes > 0) || !(options.everySeconds > 0)) throw new Error('--soak-minutes and --soak-every take positive numbers');
  console.log(`\n## Soak: browser-mode server, built-in demo at 100% demo traffic + a competitor, ${options.minutes} min\n`);
  const { server, ready } = await ServerChild.start();
  const samples: SoakSample[] = [];
  let page: Page | null = null;
  try {
    page = await Page.open(ready);
    await page.call('selectProfile', { id: 'demo' });
    await page.call('simSetDemoTraffic', { share: 1, endpoints: [...ENDPOINT_IDS] });
    // The panel's default competitor: another consumer at 40% of an endpoint's limit.
    await page.call('simSetCompetitors', { competitors: [{ vendor: 'demo', endpoint: 'listAssets', rps: 8 }] });
    const started = Date.now();
    const end = started + options.minutes * 60_000;
    for (let i = 0; ; i++) {
      const s = (await server.ask({ t: 'sample' })) as Sample;
      const sample: SoakSample = {
        minute: (Date.now() - started) / 60_000,
        rssMiB: mib(s.rssBytes),
        heapMiB: mib(s.heapUsedBytes),
        rssAfterGcMiB: mib(s.rssAfterGcBytes),
        heapAfterGcMiB: mib(s.heapAfterGcBytes),
        heapTotalMiB: mib(s.heapTotalBytes),
        externalMiB: mib(s.externalBytes),
        rssAnonMiB: s.rssAnonBytes === null ? null : mib(s.rssAnonBytes),
        requests: page.requests,
        cpuSeconds: s.cpuMs / 1000,
      };
      samples.push(sample);
      console.error(
        `  ${sample.minute.toFixed(1)} min: RSS ${sample.rssMiB.toFixed(0)} MiB (after GC ${sample.rssAfterGcMiB.toFixed(0)}, anonymous ${sample.rssAnonMiB?.toFixed(0) ?? '?'}), heap after GC ${sample.heapAfterGcMiB.toFixed(1)} MiB of ${sample.heapTotalMiB.toFixed(0)} reserved`,
      );
      if (options.snapshotDir && i === 0) await snapshot(server, options.snapshotDir, 'start');
      if (Date.now() >= end) break;
      await new Promise((r) => setTimeout(r, Math.min(options.everySeconds * 1000, Math.max(0, end - Date.now()))));
    }
    if (options.snapshotDir) await snapshot(server, options.snapshotDir, 'end');
  } finally {
    page?.close();
    await server.stop();
  }
  printCurve(samples);
  return samples;
}

async function snapshot(server: ServerChild, dir: string, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const reply = await server.ask({ t: 'snapshot', file: path.resolve(dir, `soak-${name}.heapsnapshot`) });
  if (reply.t === 'snapshot') console.error(`  heap snapshot: ${reply.file}`);
}

function printCurve(samples: SoakSample[]): void {
  console.log('| minute | RSS MiB | heap MiB | RSS after GC MiB | of it anonymous | heap after GC MiB | V8 heap reserved MiB | external MiB |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of samples) {
    console.log(
      `| ${s.minute.toFixed(1)} | ${s.rssMiB.toFixed(0)} | ${s.heapMiB.toFixed(1)} | ${s.rssAfterGcMiB.toFixed(0)} | ${s.rssAnonMiB?.toFixed(0) ?? '—'} | ${s.heapAfterGcMiB.toFixed(1)} | ${s.heapTotalMiB.toFixed(0)} | ${s.externalMiB.toFixed(1)} |`,
    );
  }
  const secondHalf = samples.filter((s) => s.minute >= (samples.at(-1)?.minute ?? 0) / 2);
  const heapSlope = slope(secondHalf.map((s) => ({ x: s.minute, y: s.heapAfterGcMiB })));
  const rssSlope = slope(secondHalf.map((s) => ({ x: s.minute, y: s.rssAfterGcMiB })));
  const peakRss = Math.max(...samples.map((s) => s.rssMiB));
  const first = samples[0];
  const last = samples.at(-1);
  const requests = last && first ? last.requests - first.requests : 0;
  const cpu = last && first ? last.cpuSeconds - first.cpuSeconds : 0;
  const minutes = last && first ? last.minute - first.minute : 0;
  if (minutes > 0 && requests > 0) {
    console.log(
      `Requests answered: ${(requests / minutes / 60).toFixed(0)}/s; server CPU ${((cpu / minutes / 60) * 100).toFixed(0)}% of a core, ${((cpu * 1000) / requests).toFixed(2)} ms per request.`,
    );
  }
  console.log(
    `\nSecond half: heap after GC ${heapSlope >= 0 ? '+' : ''}${heapSlope.toFixed(2)} MiB/min, RSS after GC ${rssSlope >= 0 ? '+' : ''}${rssSlope.toFixed(2)} MiB/min; peak RSS ${peakRss.toFixed(0)} MiB.`,
  );
  writeFileSync(
    'bench-results/soak.json',
    JSON.stringify({ samples, heapSlopeMiBPerMin: heapSlope, rssSlopeMiBPerMin: rssSlope, peakRssMiB: peakRss }, null, 2),
  );
}
