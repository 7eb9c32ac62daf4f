/**
 * Browser mode with the real services (electron/app) over a real `ws` client: the embedded
 * simulator by default, or a profile given as flags against a separately started simulator.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer } from '../../electron/web/server';
import type { RunningWebServer } from '../../electron/web/server';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { ENDPOINT_IDS } from '../../shared/endpoints';

type Message = { t: string; id?: number; result?: { ok: boolean; value?: unknown; error?: { code: string } }; name?: string; payload?: unknown };

class Client {
  readonly received: Array<{ at: number; raw: string; message: Message }> = [];
  private nextId = 1;
  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const raw = data.toString();
      this.received.push({ at: Date.now(), raw, message: JSON.parse(raw) as Message });
    });
  }
  static open(server: RunningWebServer): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${server.bridgeUrl}?secret=${server.secret}`, { origin: server.origin });
      socket.once('open', () => resolve(new Client(socket)));
      socket.once('error', reject);
    });
  }
  async call(name: string, request: unknown): Promise<NonNullable<Message['result']>> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ t: 'call', id, name, request }));
    const deadline = Date.now() + 10_000;
    for (;;) {
      const found = this.received.find((r) => r.message.t === 'result' && r.message.id === id);
      if (found) return found.message.result!;
      if (Date.now() > deadline) throw new Error(`no result for ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

describe('browser mode with the real services', () => {
  let dir: string;
  let server: RunningWebServer | null = null;
  let simulator: RunningSimulator | null = null;
  let client: Client | null = null;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'partner-web-services-'));
    mkdirSync(path.join(dir, 'renderer'));
    writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Partner Console</title>');
  });
  afterEach(async () => {
    client?.socket.terminate();
    client = null;
    await server?.stop();
    server = null;
    await simulator?.stop();
    simulator = null;
    rmSync(dir, { recursive: true, force: true });
  });

  const start = (options: Parameters<typeof startWebServer>[0] = {}) =>
    startWebServer({ dataDir: path.join(dir, 'data'), rendererDir: path.join(dir, 'renderer'), log: () => {}, ...options });

  it('round-trips calls to the embedded simulator, as the web shell with tokens in memory', async () => {
    server = await start();
    client = await Client.open(server);
    const info = await client.call('appInfo', {});
    expect(info).toMatchObject({ ok: true, value: { shell: 'web', tokenStorage: 'memory' } });
    const page = await client.call('listAssets', { profileId: 'demo', lastId: null, pageSize: 5 });
    expect(page.ok).toBe(true);
    expect((page.value as { items: unknown[] }).items).toHaveLength(5);
    const refused = await client.call('listAssets', { profileId: 'demo', lastId: '', pageSize: 5 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const noBrowser = await client.call('openExternal', { url: 'https://example.com/file' });
    expect(noBrowser.ok).toBe(false);
  });

  it('delivers events batched: at most ~20 messages per second per stream under load', async () => {
    server = await start();
    client = await Client.open(server);
    const traffic = await client.call('simSetDemoTraffic', { share: 2, endpoints: [...ENDPOINT_IDS] });
    expect(traffic.ok).toBe(true);
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await client.call('simSetDemoTraffic', { share: 0, endpoints: [] });

    const perStreamPerSecond = new Map<string, number[]>();
    for (const { at, message } of client.received) {
      if (message.t !== 'event' || at < from) continue;
      const second = Math.floor((at - from) / 1000);
      if (second > 2) continue;
      const counts = perStreamPerSecond.get(message.name!) ?? [0, 0, 0];
      counts[second]! += 1;
      perStreamPerSecond.set(message.name!, counts);
    }
    const budget = perStreamPerSecond.get('budget') ?? [];
    const requestLog = perStreamPerSecond.get('requestLog') ?? [];
    // The load is real: hundreds of responses per second were summarised into these messages.
    expect(budget.reduce((a, b) => a + b, 0)).toBeGreaterThan(3);
    expect(requestLog.reduce((a, b) => a + b, 0)).toBeGreaterThan(3);
    const requests = client.received
      .filter((r) => r.message.t === 'event' && r.message.name === 'budget')
      .flatMap((r) => (r.message.payload as { aggregates: Array<{ requests: number }> }).aggregates)
      .reduce((sum, a) => sum + a.requests, 0);
    expect(requests).toBeGreaterThan(100);
    for (const [name, counts] of perStreamPerSecond) {
      expect(Math.max(...counts), `${name} messages per second: ${counts.join(', ')}`).toBeLessThanOrEqual(22);
    }
  });

  it('uses profiles given as flags, and their tokens never reach the page', async () => {
    const token = 'acme-very-secret-token-7f3a9c';
    simulator = await startSimulator({ tokens: [{ vendor: 'acme', token }], catalogSize: 50 });
    server = await start({ embeddedSimulator: false, initialProfiles: [{ name: 'Acme', vendor: 'acme', baseUrl: simulator.url, addTokens: [token] }] });
    client = await Client.open(server);
    const connection = await client.call('connection', {});
    expect(connection).toMatchObject({ ok: true, value: { vendor: 'acme', demo: false } });
    const page = await client.call('listAssets', { profileId: (connection.value as { profileId: string }).profileId, lastId: null, pageSize: 3 });
    expect(page.ok).toBe(true);
    const profiles = await client.call('listProfiles', {});
    expect(profiles.ok).toBe(true);
    const log = await client.call('requestLog', { endpoint: null, status: null, limit: 50 });
    const entries = (log.value as { entries: Array<{ id: number }> }).entries;
    expect(entries.length).toBeGreaterThan(0);
    await client.call('requestDetail', { id: entries[0]!.id });
    await new Promise((resolve) => setTimeout(resolve, 300)); // let batched events arrive too
    const everything = client.received.map((r) => r.raw).join('\n');
    expect(everything).toContain('acme');
    expect(everything).not.toContain(token);
  });
});
