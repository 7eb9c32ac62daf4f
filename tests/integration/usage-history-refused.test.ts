/**
 * The usage history counts the requests that reached the service, and only those: an attempt whose
 * connection was refused never reached it, so it adds nothing. The real client against the simulator
 * and against a closed loopback port, both into one usage history on a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BudgetRegistry, PartnerClient } from '../../electron/client';
import { seededRandom } from '../../electron/client/testing';
import { startSimulator, type RunningSimulator } from '../../electron/simulator';
import { openDatabase, UsageStore } from '../../electron/store';
import { timerClock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { sentTo } from '../helpers/sim-counts';

let sim: RunningSimulator;
let closedUrl: string;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, catalogSize: 50, random: seededRandom(7) });
  // A port that was free a moment ago: nothing listens there, so every connection is refused.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await new Promise((resolve) => server.close(resolve));
  dir = mkdtempSync(join(tmpdir(), 'usage-refused-'));
});

afterAll(async () => {
  await sim?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const storedRequests = (store: UsageStore): number =>
  store.read({ level: 'second', fromMs: 0, toMs: Number.MAX_SAFE_INTEGER, profileId: 'p1' }).reduce((n, r) => n + r.requests, 0);

describe('usage history and refused connections', () => {
  it('counts no request for refused attempts, and stores what the service counted', async () => {
    const { db } = openDatabase(dir);
    const store = new UsageStore(db!, { clock: timerClock });
    const retry = { baseMs: 1, capMs: 5 };
    const down = new PartnerClient({
      baseUrl: closedUrl,
      vendor: 'demo',
      tokens: ['demo-token-1'],
      budgets: new BudgetRegistry(),
      retry,
      random: seededRandom(1),
    });
    const up = new PartnerClient({ baseUrl: sim.url, vendor: 'demo', tokens: ['demo-token-1'], budgets: new BudgetRegistry(), retry, random: seededRandom(2) });
    const samples: BudgetSample[] = [];
    for (const client of [down, up]) client.onSample((s) => (samples.push(s), store.record('p1', s)));
    try {
      await expect(down.request('categories')).rejects.toMatchObject({ code: 'NETWORK' });
      const refused = samples.length;
      expect(refused).toBeGreaterThan(1);
      store.flush();
      expect(storedRequests(store)).toBe(0);

      for (let i = 0; i < 4; i++) await up.request('categories');
      await down.request('categories').catch(() => undefined);
      store.flush();
      expect(sentTo(sim, 'categories')).toBe(4);
      expect(storedRequests(store)).toBe(sentTo(sim, 'categories'));
    } finally {
      down.close();
      up.close();
      store.close();
      db!.close();
    }
  });
});
