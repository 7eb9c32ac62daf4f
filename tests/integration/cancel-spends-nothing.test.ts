/**
 * Issue 11 item 10 end to end in main: a call the page cancels while it waits for budget is never
 * sent (the services and the real client on a loopback service that counts what reaches it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { shownProfile } from '../helpers/app-calls';

describe('a cancelled call spends nothing', () => {
  let dir: string;
  let app: AppServices;
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(new URL(req.url ?? '/', 'http://x').pathname);
    req.resume();
    req.on('end', () => {
      // Remaining 0 with a reset in 2 s: the next search has to wait in its bucket (well past the 200 ms below, even under load).
      res.writeHead(200, { 'content-type': 'application/json', 'x-rate-limit-limit': '20', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': '2' });
      res.end(JSON.stringify({ items: [], total: 0 }));
    });
  });

  beforeEach(async () => {
    seen.length = 0;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dir = mkdtempSync(join(tmpdir(), 'cancel-spends-'));
    app = await createAppServices({
      shell: 'web',
      dataDir: dir,
      vault: memoryVault(),
      version: '0.0.0',
      embeddedSimulator: false,
      initialProfiles: [
        { name: 'Acme', vendor: 'acme', baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, addTokens: ['tok-acme-123456'] },
      ],
      log: () => undefined,
    });
  });
  afterEach(async () => {
    await app.dispose();
    await new Promise<void>((r) => server.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a search superseded while it waits for budget is cancelled and never sent', async () => {
    const first = await app.dispatch('searchAssets', { profileId: await shownProfile(app), query: 'a', category: null, limit: 5 });
    expect(first.ok).toBe(true);
    const searches = () => seen.filter((p) => p === '/assets/search').length;
    expect(searches()).toBe(1);

    const controller = new AbortController();
    const second = app.dispatch('searchAssets', { profileId: await shownProfile(app), query: 'ab', category: null, limit: 5 }, controller.signal);
    await new Promise((r) => setTimeout(r, 200)); // queued: the bucket is empty until the reset
    controller.abort();
    await expect(second).resolves.toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    await new Promise((r) => setTimeout(r, 3000)); // a second past the reset: still nothing sent
    expect(searches()).toBe(1);
  });
});
