/**
 * The soak benchmark's child process: the real browser-mode server (startWebServer, so the same
 * services `npm run web` builds, embedded simulator included) on a temporary data folder. Started
 * with --expose-gc; the parent asks over IPC for a memory sample (after a full GC) or a heap snapshot.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { startWebServer } from '../../electron/web/server';

export type SoakRequest = { t: 'sample' } | { t: 'snapshot'; file: string } | { t: 'stop' };
export type SoakReply =
  | { t: 'ready'; bridgeUrl: string; origin: string; secret: string }
  | {
      t: 'sample';
      rssBytes: number;
      heapUsedBytes: number;
      rssAfterGcBytes: number;
      heapAfterGcBytes: number;
      /** V8's heap as reserved from the system (used or not), after the GC. */
      heapTotalBytes: number;
      externalBytes: number;
      /** Linux: RSS outside files (heaps, malloc), after the GC; null elsewhere. */
      rssAnonBytes: number | null;
      /** CPU time the process has used so far (user + system). */
      cpuMs: number;
    }
  | { t: 'snapshot'; file: string };

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) {
  console.error('soak-server: run as a forked child with --expose-gc');
  process.exit(2);
}
const reply = (message: SoakReply) => process.send!(message);

function rssAnonBytes(): number | null {
  try {
    const kb = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'partner-soak-'));
const rendererDir = path.join(dir, 'renderer');
mkdirSync(rendererDir);
writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Partner Console</title>');
const server = await startWebServer({ dataDir: path.join(dir, 'data'), rendererDir, log: () => {} });

process.on('message', (message: SoakRequest) => {
  if (message.t === 'sample') {
    // RSS and heap as the app runs (no GC), then after a full GC: what is really held.
    const before = process.memoryUsage();
    gc();
    const after = process.memoryUsage();
    reply({
      t: 'sample',
      rssBytes: before.rss,
      heapUsedBytes: before.heapUsed,
      rssAfterGcBytes: after.rss,
      heapAfterGcBytes: after.heapUsed,
      heapTotalBytes: after.heapTotal,
      externalBytes: after.external,
      rssAnonBytes: rssAnonBytes(),
      cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    });
    if (process.env.SOAK_SPACES === '1')
      console.error(
        getHeapSpaceStatistics()
          .map((x) => `${x.space_name} ${(x.space_size / 1048576).toFixed(0)}/${(x.space_used_size / 1048576).toFixed(0)}`)
          .join(', '),
      );
  } else if (message.t === 'snapshot') {
    reply({ t: 'snapshot', file: writeHeapSnapshot(message.file) });
  } else {
    void server.stop().finally(() => {
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    });
  }
});
reply({ t: 'ready', bridgeUrl: server.bridgeUrl, origin: server.origin, secret: server.secret });
