/**
 * A service whose clock is years off (issue 21, item 11): its answers' Date must not file the usage
 * history years away from the traffic. The real client against the simulator behind a loopback proxy
 * that rewrites Date 3 years ahead; the samples go into the usage history on a real SQLite file, which
 * must hold them at the local time (visible to today's history query), as the live figures do.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { startSimulator, type RunningSimulator } from '../../electron/simulator';
import { seededRandom } from '../../electron/client/testing';
import { LocalStore } from '../../electron/store';
import { UsageService } from '../../electron/usage/usage-service';
import { timerClock } from '../../shared/clock';
import { until } from '../helpers/redis-server';

const THREE_YEARS_MS = 3 * 365 * 86_400_000;

let sim: RunningSimulator;
let proxy: Server;
let proxyUrl: string;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(5) });
  const target = new URL(sim.url);
  // Every answer as the simulator gave it, but with a Date three years ahead.
  proxy = createServer((req, res) => {
    const up = httpRequest({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers, date: new Date(Date.now() + THREE_YEARS_MS).toUTCString() };
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  dir = mkdtempSync(join(tmpdir(), 'usage-skew-'));
});

afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('usage history of a service whose clock is 3 years off', () => {
  it("files the traffic at the local time: today's history shows every request, and no row lies in the future", async () => {
    const local = new LocalStore(dir);
    const usage = new UsageService(local, { clock: timerClock });
    const client = new PartnerClient({ baseUrl: proxyUrl, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry() });
    try {
      client.onSample((sample) => usage.record('p1', sample, 0));
      const from = Date.now() - 1_000;
      const sent = 6;
      for (let i = 0; i < sent; i++) {
        const answer = await client.request('categories');
        // The proxy did its part: the answer's second is years ahead.
        expect((answer.sample.serverSecond ?? 0) - Date.now()).toBeGreaterThan(THREE_YEARS_MS - 86_400_000);
      }
      const allRows = () => usage.rows({ level: 'second', fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, profileId: 'p1' });
      await until(() => allRows().reduce((n, r) => n + r.requests, 0) >= sent, 5_000).catch(() => undefined);
      const rows = allRows();
      expect(rows.reduce((n, r) => n + r.requests, 0)).toBe(sent);
      expect(rows.filter((r) => r.startMs > Date.now() + 2_000)).toEqual([]);
      // The history view's query for the last seconds (seconds level: nothing rolled up yet), once they are complete (~2 s).
      const recent = () => usage.read({ profileId: 'p1', vendor: 'demo', fromMs: from, toMs: Date.now() + 1_000 });
      const shown = () =>
        recent()
          .points.filter((p) => p.endpoint === 'categories')
          .reduce((n, p) => n + p.requests, 0);
      await until(() => shown() >= sent, 5_000).catch(() => undefined);
      expect(recent().level).toBe('second');
      expect(shown()).toBe(sent);
    } finally {
      client.close();
      local.close();
    }
  });
});
