/**
 * Browser mode's server over real loopback HTTP and a real `ws` client, with a fake of the services
 * (the services' own behaviour is tested with them; web-services.test.ts runs the real ones).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startWebServer } from '../../electron/web/server';
import type { RunningWebServer } from '../../electron/web/server';
import { createFakeServices } from '../fakes/electron';

type Message = {
  t: string;
  id?: number | null;
  result?: { ok: boolean; value?: unknown; error?: { code: string; message: string } };
  name?: string;
  payload?: unknown;
  message?: string;
};

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

/** Resolves with the HTTP status of a refused upgrade, or 101 when the socket opened. */
function upgradeStatus(url: string, origin: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.on('open', () => {
      resolve(101);
      socket.close();
    });
    socket.on('error', (error) => reject(error));
  });
}

class Client {
  readonly messages: Message[] = [];
  private waiters: Array<() => void> = [];
  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      for (const wake of this.waiters.splice(0)) wake();
    });
  }
  static open(url: string, origin: string): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { origin });
      socket.once('open', () => resolve(new Client(socket)));
      socket.once('error', reject);
    });
  }
  async next(predicate: (m: Message) => boolean, timeoutMs = 3000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(predicate);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no matching message; got ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  }
  send(value: unknown): void {
    this.socket.send(typeof value === 'string' ? value : JSON.stringify(value));
  }
  async call(id: number, name: string, request: unknown): Promise<Message> {
    this.send({ t: 'call', id, name, request });
    return this.next((m) => m.t === 'result' && m.id === id);
  }
}

describe('browser mode server', () => {
  let base: string;
  let server: RunningWebServer;
  let services: ReturnType<typeof createFakeServices>;
  const clients: Client[] = [];

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'partner-web-'));
    mkdirSync(path.join(base, 'renderer', 'assets'), { recursive: true });
    writeFileSync(path.join(base, 'renderer', 'index.html'), '<!doctype html><title>Partner Console</title>');
    writeFileSync(path.join(base, 'renderer', 'assets', 'app.js'), 'export {}');
    writeFileSync(path.join(base, 'package.json'), '{"secret":"outside"}');
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  beforeEach(async () => {
    services = createFakeServices();
    server = await startWebServer({ services, rendererDir: path.join(base, 'renderer'), log: () => {} });
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.socket.terminate();
    await server.stop();
  });

  const open = async () => {
    const client = await Client.open(`${server.bridgeUrl}?secret=${server.secret}`, server.origin);
    clients.push(client);
    return client;
  };

  it('prints one URL on 127.0.0.1 with the secret in the fragment', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/#secret=${server.secret}`);
    expect(server.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('serves the renderer with the CSP, which allows our own ws:// only', async () => {
    const page = await get(`${server.origin}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Partner Console');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${server.port}`);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect((await get(`${server.origin}/assets/app.js`)).headers['content-type']).toMatch(/javascript/);
  });

  it('refuses path traversal and foreign Host headers', async () => {
    const traversal = await get(`${server.origin}/..%2fpackage.json`);
    expect(traversal.status).toBe(403);
    expect(traversal.body).not.toContain('outside');
    const rebound = await get(`${server.origin}/`, { Host: `evil.example:${server.port}` });
    expect(rebound.status).toBe(403);
  });

  it('refuses a bridge connection without the secret (401)', async () => {
    expect(await upgradeStatus(server.bridgeUrl, server.origin)).toBe(401);
    expect(await upgradeStatus(`${server.bridgeUrl}?secret=`, server.origin)).toBe(401);
  });

  it('refuses a bridge connection with a wrong secret (401)', async () => {
    expect(await upgradeStatus(`${server.bridgeUrl}?secret=${server.secret.slice(0, -2)}xx`, server.origin)).toBe(401);
  });

  it('refuses a foreign or missing Origin even with the right secret (403)', async () => {
    const url = `${server.bridgeUrl}?secret=${server.secret}`;
    expect(await upgradeStatus(url, 'http://evil.example')).toBe(403);
    expect(await upgradeStatus(url, `http://evil.example:${server.port}`)).toBe(403);
    expect(await upgradeStatus(url, `https://127.0.0.1:${server.port}`)).toBe(403);
    expect(await upgradeStatus(url, undefined)).toBe(403);
    expect(await upgradeStatus(`ws://127.0.0.1:${server.port}/other?secret=${server.secret}`, server.origin)).toBe(404);
    expect(await upgradeStatus(url, server.origin)).toBe(101);
  });

  it('round-trips a call to the services', async () => {
    const client = await open();
    const answer = await client.call(1, 'listAssets', { profileId: 'demo', lastId: null, pageSize: 20 });
    expect(answer).toEqual({ t: 'result', id: 1, result: { ok: true, value: { echo: 'listAssets' } } });
    expect(services.dispatched).toEqual([{ name: 'listAssets', request: { profileId: 'demo', lastId: null, pageSize: 20 } }]);
  });

  it('answers invalid calls with BAD_REQUEST results and malformed messages with errors, and keeps the socket open', async () => {
    const client = await open();
    const badRequest = await client.call(2, 'listAssets', { profileId: 'demo', lastId: null, pageSize: 1000 });
    expect(badRequest.result).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(badRequest.result?.error?.message).toMatch(/pageSize/);
    const unknown = await client.call(3, 'dropTables', {});
    expect(unknown.result?.error?.message).toMatch(/Unknown call "dropTables"/);

    client.send('this is not json');
    expect((await client.next((m) => m.t === 'error')).message).toMatch(/Not JSON/);
    client.send({ t: 'call', id: 9, name: 42 });
    expect(await client.next((m) => m.t === 'error' && m.id === 9)).toMatchObject({ message: expect.stringMatching(/name/) });
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    await client.next((m) => m.t === 'error' && /Binary/.test(m.message ?? ''));

    expect(services.dispatched).toEqual([]);
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    expect((await client.call(4, 'categories', { profileId: 'demo' })).result).toEqual({ ok: true, value: { echo: 'categories' } });
  });

  it('sends every service event to every connected page', async () => {
    const first = await open();
    const second = await open();
    services.emit('connection', { state: 'connected' });
    for (const client of [first, second]) {
      expect(await client.next((m) => m.t === 'event')).toEqual({ t: 'event', name: 'connection', payload: { state: 'connected' } });
    }
  });

  /** A HAR export past the 8 MiB a page may leave unread. */
  const BIG_HAR = 'x'.repeat(12 * 1024 * 1024);
  /** Restarts the server on services whose HAR export is BIG_HAR; the lines it logs. */
  async function serveBigHar(): Promise<string[]> {
    const lines: string[] = [];
    services = createFakeServices((name) => ({ ok: true, value: name === 'requestLogHar' ? { har: BIG_HAR } : { echo: name } }));
    await server.stop();
    server = await startWebServer({ services, rendererDir: path.join(base, 'renderer'), log: (...args) => lines.push(args.join(' ')) });
    return lines;
  }

  it('delivers an answer over 8 MiB to a page that reads while events flow, and keeps its socket open', async () => {
    await serveBigHar();
    const client = await open();
    const ticker = setInterval(() => services.emit('budget', { aggregates: [], seq: 1 }), 20);
    try {
      client.send({ t: 'call', id: 1, name: 'requestLogHar', request: { endpoint: 'all', status: 'all', rangeS: 0, text: '' } });
      const closed = new Promise<Message>((resolve) => client.socket.once('close', (code) => resolve({ t: `closed ${code}` })));
      const answer = await Promise.race([client.next((m) => m.t === 'result' && m.id === 1, 10_000), closed]);
      expect(answer.t).toBe('result');
      expect((answer.result?.value as { har: string }).har.length).toBe(BIG_HAR.length);
      const eventsSoFar = client.messages.length;
      await client.next(() => client.messages.length > eventsSoFar + 5);
      expect(client.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      clearInterval(ticker);
    }
  });

  it('cuts off a page that stops reading once events pile up, even behind a large answer', async () => {
    const lines = await serveBigHar();
    const client = await open();
    client.socket.pause();
    client.send({ t: 'call', id: 1, name: 'requestLogHar', request: { endpoint: 'all', status: 'all', rangeS: 0, text: '' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
    const bulky = { aggregates: [], seq: 1, padding: 'y'.repeat(256 * 1024) };
    let sent = 0;
    while (!lines.some((line) => /stopped reading/.test(line))) {
      if (sent > 400) throw new Error('a page that stopped reading was never cut off');
      services.emit('budget', bulky);
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(sent * bulky.padding.length).toBeGreaterThan(8 * 1024 * 1024); // the answer itself did not count
    client.socket.resume();
    expect(await closed).toBe(1006);
    expect(client.messages.some((m) => m.t === 'result')).toBe(false);
  });

  it('cuts off a page that keeps calling but never reads once its unread answers pass the exempt cap', async () => {
    const lines = await serveBigHar();
    const client = await open();
    client.socket.pause();
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
    let calls = 0;
    while (!lines.some((line) => /stopped reading/.test(line))) {
      if (calls > 12) throw new Error('a page that never read its answers was never cut off');
      calls += 1;
      client.send({ t: 'call', id: calls, name: 'requestLogHar', request: { endpoint: 'all', status: 'all', rangeS: 0, text: '' } });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(calls * BIG_HAR.length).toBeGreaterThan(64 * 1024 * 1024); // answers up to the cap did not count
    client.socket.resume();
    expect(await closed).toBe(1006);
  });

  it('closes pages with 1001 on stop and stops listening', async () => {
    const client = await open();
    const closed = new Promise<number>((resolve) => client.socket.once('close', (code) => resolve(code)));
    await server.stop();
    expect(await closed).toBe(1001);
    expect(services.listenerCount).toBe(0);
    await expect(get(`${server.origin}/`)).rejects.toThrow();
    await server.stop(); // idempotent
  });
});
