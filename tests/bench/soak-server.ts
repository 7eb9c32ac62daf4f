/**
 * The soak benchmark's child process: the real browser-mode server (startWebServer, so the same
 * services `npm run web` builds, embedded simulator included) on a temporary data folder. Started
 * with --expose-gc; the parent asks over IPC for a memory sample (after a full GC) or a heap snapshot.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { startWebServer } from '../../electron/web/server';

export type SoakRequest = { t: 'sample' } | { t: 'snapshot'; file: string } | { t: 'stop' };
export type SoakReply =
  | { t: 'ready'; bridgeUrl: string; origin: string; secret: string }
  | { t: 'sample'; rssBytes: number; heapUsedBytes: number; rssAfterGcBytes: number; heapAfterGcBytes: number; externalBytes: number }
  | { t: 'snapshot'; file: string };

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc || !process.send) {
  console.error('soak-server: run as a forked child with --expose-gc');
  process.exit(2);
}
const reply = (message: SoakReply) => process.send!(message);

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
    reply({ t: 'sample', rssBytes: before.rss, heapUsedBytes: before.heapUsed, rssAfterGcBytes: after.rss, heapAfterGcBytes: after.heapUsed, externalBytes: after.external });
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
