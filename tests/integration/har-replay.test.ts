/**
 * HAR export and replay, for real: traffic at known rates through app A's services (the built-in
 * simulator on loopback), exported as HAR 1.2 (checked by a HAR 1.2 JSON-schema validator, no token in
 * its text), then replayed through app B's own client into B's fresh simulator, whose log is exported
 * again and compared with the recording per endpoint and per second.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import harSdk from '@har-sdk/validator';
import type { Har } from 'har-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import type { EndpointId } from '../../shared/endpoints';
import { readReplayFile } from '../../electron/replay/cli-replay';
import { readHarText } from '../../shared/har-replay';
import type { LogFilter } from '../../shared/request-log-filter';
import { callApp, sleep, until } from '../helpers/app-calls';
import { SIMULATOR_CLI_BUNDLE } from '../helpers/cli-bundles';

const ALL: LogFilter = { endpoint: 'all', status: 'all', rangeS: 0, text: '', minute: null };
/** Known rates for 6 s; phases keep every request >= 40 ms from a second's edge (time 0: the first entry). */
const STREAMS: { endpoint: EndpointId; perSecond: number; phaseMs: number }[] = [
  { endpoint: 'listAssets', perSecond: 8, phaseMs: 40 },
  { endpoint: 'categories', perSecond: 4, phaseMs: 90 },
  { endpoint: 'searchAssets', perSecond: 2, phaseMs: 200 },
];
const SECONDS = 6;

const dirs: string[] = [];
const apps: AppServices[] = [];

async function startApp(): Promise<AppServices> {
  const dir = mkdtempSync(join(tmpdir(), 'har-it-'));
  dirs.push(dir);
  const app = await createAppServices({ shell: 'web', dataDir: dir, vault: memoryVault(), version: '9.9.9', log: () => undefined });
  apps.push(app);
  await until(async () => (await callApp(app, 'connection', {})).state === 'connected', 10_000);
  return app;
}

afterAll(async () => {
  for (const app of apps) await app.dispose();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** When each entry's attempt began (startedDateTime), ms after the first entry, per endpoint. */
function offsetsByEndpoint(har: Har, since = -Infinity): Map<string, number[]> {
  const entries = har.log.entries.filter((e) => Date.parse(e.startedDateTime) >= since);
  const t0 = Math.min(...entries.map((e) => Date.parse(e.startedDateTime)));
  const out = new Map<string, number[]>();
  for (const e of entries) {
    const endpoint = (e as unknown as { _endpoint: string })._endpoint;
    out.set(endpoint, [...(out.get(endpoint) ?? []), Date.parse(e.startedDateTime) - t0]);
  }
  for (const list of out.values()) list.sort((a, b) => a - b);
  return out;
}

/** Requests per whole second after time 0. */
function perSecond(offsets: number[], seconds: number): number[] {
  const bins = new Array<number>(seconds).fill(0);
  for (const t of offsets) bins[Math.min(seconds - 1, Math.floor(t / 1000))]!++;
  return bins;
}

let recorded: { text: string; har: Har };

describe('HAR export and replay', () => {
  let a: AppServices;
  beforeAll(async () => {
    a = await startApp();
  }, 20_000);

  it('exports the traffic as HAR 1.2 that a HAR validator accepts, with no token in its text', async () => {
    // The connection's own probe is the first entry: the streams are placed on whole seconds after it.
    await until(async () => (await callApp(a, 'requestLog', { endpoint: null, status: null, limit: 10 })).entries.length > 0);
    const probe = (await callApp(a, 'requestLog', { endpoint: null, status: null, limit: 10 })).entries[0]!;
    const t0 = probe.at - probe.latencyMs - probe.waitedMs;
    const base = t0 + 1000 * Math.ceil((Date.now() + 100 - t0) / 1000);
    const calls: Promise<unknown>[] = [];
    for (const s of STREAMS) {
      for (let k = 0; k < s.perSecond * SECONDS; k++) {
        const at = base + s.phaseMs + (k * 1000) / s.perSecond;
        const request =
          s.endpoint === 'searchAssets'
            ? { profileId: 'demo', query: 'castle', category: null, limit: 5 }
            : s.endpoint === 'listAssets'
              ? { profileId: 'demo', lastId: null, pageSize: 5 }
              : { profileId: 'demo' };
        calls.push(sleep(at - Date.now()).then(() => callApp(a, s.endpoint, request)));
      }
    }
    await Promise.all(calls);

    const exported = await callApp(a, 'requestLogHar', ALL);
    expect(exported.fileName).toMatch(/^requests-.*\.har$/);
    expect(exported.entries).toBe(1 + STREAMS.reduce((n, s) => n + s.perSecond * SECONDS, 0));
    expect(exported.withoutDetail).toBe(0);
    const har = JSON.parse(exported.text) as Har;
    expect(await new harSdk.HarValidator().verify(JSON.parse(exported.text))).toEqual([]);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'Partner Console', version: '9.9.9' });

    // The demo's tokens, plain, nowhere; the Authorization header there, masked.
    for (const token of ['demo-token-1', 'demo-token-2']) expect(exported.text).not.toContain(token);
    const search = har.log.entries.find((e) => e.request.method === 'POST')!;
    const auth = search.request.headers.find((h) => h.name.toLowerCase() === 'authorization')!;
    expect(auth.value).toMatch(/^Bearer demo…/);
    expect(JSON.parse(search.request.postData!.text!)).toMatchObject({ query: 'castle' });
    expect(search.response).toMatchObject({ status: 200, statusText: 'OK', redirectURL: '', headersSize: -1 });
    expect(search.response.headers.some((h) => h.name.toLowerCase() === 'x-rate-limit-remaining')).toBe(true);
    expect(search.timings.wait).toBeGreaterThan(0);
    expect(search.time).toBeCloseTo((search.timings.blocked ?? 0) + search.timings.wait, 6);

    // The Requests view's filter, passed whole: only that endpoint.
    const onlyCategories = JSON.parse((await callApp(a, 'requestLogHar', { ...ALL, endpoint: 'categories' })).text) as Har;
    expect(onlyCategories.log.entries).toHaveLength(1 + 4 * SECONDS);
    expect(onlyCategories.log.entries.every((e) => new URL(e.request.url).pathname === '/assets/categories')).toBe(true);
    // Its text search as in the view: found in the bodies too (the search's query is in the POST body only).
    const castle = JSON.parse((await callApp(a, 'requestLogHar', { ...ALL, text: 'castle' })).text) as Har;
    expect(castle.log.entries.filter((e) => e.request.method === 'POST')).toHaveLength(2 * SECONDS);
    for (const e of castle.log.entries)
      expect(`${e.request.url} ${e.request.postData?.text ?? ''} ${e.response.content.text ?? ''}`.toLowerCase()).toContain('castle');
    recorded = { text: exported.text, har };
  }, 20_000);

  it('replays the export into a fresh simulator: requests per endpoint and per second within 5% of the recording', async () => {
    const b = await startApp();
    const read = readHarText(recorded.text);
    if (!read.ok) throw new Error(read.message);
    const started = await callApp(b, 'simReplayHar', { profileId: 'demo', har: read.har });
    expect(started).toMatchObject({ state: 'running', planned: recorded.har.log.entries.length, skipped: { notAnEndpoint: 0, retries: 0 } });
    await until(async () => (await callApp(b, 'simReplayStatus', {}))?.state === 'done', 15_000);
    const status = (await callApp(b, 'simReplayStatus', {}))!;
    expect(status.finished).toBe(status.planned);
    for (const e of status.endpoints) expect(e).toMatchObject({ sent: e.planned, ok: e.planned, failed: 0, rateLimited: 0 });

    // B's simulator counted them (B's own connection probe, one categories call, besides).
    const { url } = (await callApp(b, 'simState', {}))!;
    const { counters } = (await (await fetch(`${url}/_sim/counters`)).json()) as {
      counters: { vendor: string; endpoint: string; status: number; count: number }[];
    };
    const served = (endpoint: string) => counters.filter((c) => c.vendor === 'demo' && c.endpoint === endpoint).reduce((n, c) => n + c.count, 0);

    const replayedHar = JSON.parse((await callApp(b, 'requestLogHar', ALL)).text) as Har;
    const want = offsetsByEndpoint(recorded.har);
    // B's log from the replay's start on (its own probe came before).
    const got = offsetsByEndpoint(replayedHar, status.startedAt - 1);
    const drifts: number[] = [];
    for (const [endpoint, rec] of want) {
      const rep = got.get(endpoint) ?? [];
      expect(served(endpoint)).toBe(rep.length + (endpoint === 'categories' ? 1 : 0));
      // Over the whole run: the same number of requests, so the same requests per second.
      expect(Math.abs(rep.length - rec.length) / rec.length).toBeLessThanOrEqual(0.05);
      // Each second: the same count, give or take 5% (a request whose timer fired late may cross a second's edge: at most one).
      const recBins = perSecond(rec, SECONDS + 1);
      const repBins = perSecond(rep, SECONDS + 1);
      recBins.forEach((n, i) =>
        expect(Math.abs(repBins[i]! - n), `${endpoint} second ${i}: ${repBins.join(',')} vs ${recBins.join(',')}`).toBeLessThanOrEqual(Math.max(1, 0.05 * n)),
      );
      drifts.push(...rec.map((t, k) => Math.abs((rep[k] ?? Infinity) - t)));
    }
    // And each request near its recorded time: the k-th of each endpoint, 95% of all of them within 50 ms.
    drifts.sort((x, y) => x - y);
    expect(drifts[Math.floor(drifts.length * 0.95)], `replay offsets minus recorded, sorted: ${drifts.join(',')}`).toBeLessThan(50);
  }, 25_000);

  it("npm run sim -- --replay FILE.har replays the ten endpoints' requests, leaves retries and other URLs out, and prints a summary", async () => {
    const t0 = Date.parse(recorded.har.log.entries[0]!.startedDateTime);
    const early = recorded.har.log.entries.filter((e) => Date.parse(e.startedDateTime) - t0 < 1500);
    const extra = [
      { ...early[1]!, request: { ...early[1]!.request, url: 'http://elsewhere.invalid/favicon.ico' } },
      { ...early[2]!, _attempt: 2 },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'har-cli-'));
    dirs.push(dir);
    const file = join(dir, 'incident.har');
    writeFileSync(file, JSON.stringify({ log: { ...recorded.har.log, entries: [...early, ...extra] } }));
    const notHar = join(dir, 'not.har');
    writeFileSync(notHar, 'id,name\n1,x\n');

    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [SIMULATOR_CLI_BUNDLE, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        child.once('exit', (code) => resolve({ code, out }));
      });
    const replayed = await run(['--replay', file]);
    expect(replayed.code, replayed.out).toBe(0);
    expect(replayed.out).toContain(`replay done: ${early.length} of ${early.length} requests sent`);
    expect(replayed.out).toContain('left out: 1 not one of the ten endpoints, 1 retries');
    expect(replayed.out).toMatch(/listAssets\s+\d+\s+\d+\s+\d+\s+0\s+\d+\s+0/);
    // Read before the simulator starts (the CLI exits 2 with this message).
    expect(readReplayFile(notHar)).toEqual({ ok: false, message: expect.stringContaining('is not JSON, so it is not a HAR file') });
  }, 20_000);

  it('refuses a file that is not a HAR, in words', () => {
    expect(readHarText('id,name\n1,x')).toEqual({ ok: false, message: expect.stringContaining('not JSON') });
    expect(readHarText('{"items":[]}')).toEqual({ ok: false, message: expect.stringContaining('no "log" with "entries"') });
    expect(readHarText('{"log":{"entries":[{"startedDateTime":"yesterday","request":{"method":"GET","url":"x"}}]}}')).toEqual({
      ok: false,
      message: expect.stringContaining('startedDateTime'),
    });
    const request = { method: 'GET', url: 'http://x/assets/categories' };
    const twoDays = {
      log: {
        entries: [
          { startedDateTime: '2026-01-01T00:00:00Z', request },
          { startedDateTime: '2026-01-03T00:00:00Z', request },
        ],
      },
    };
    expect(readHarText(JSON.stringify(twoDays))).toEqual({ ok: false, message: expect.stringContaining('spans 48 hours') });
  });
});
