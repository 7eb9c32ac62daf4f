/**
 * QA's request log on the embedded simulator: the text search finds bodies (a registration's client
 * reference, an asset id in a page's answer) and never a token; Copy as curl gives a command that
 * curl runs for real with PARTNER_TOKEN set; Copy with token writes the real token only to the clipboard.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { toCurl } from '../../shared/curl';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { LONG_KEPT_DETAIL_CHARS } from '../../shared/request-log-filter';
import { callApp, until } from '../helpers/app-calls';

/** The copied command names `curl`; the shell finds it on PATH (.ci/run installs Debian's curl). */
const CURL = '/usr/bin/curl';
const DEMO_TOKEN = 'demo-token-1'; // the simulator's public token of the demo vendor

let dir: string;
let app: AppServices;
const clipboard: string[] = [];
const call = <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => callApp(app, name, request);

/** Runs a copied command as a user's shell would, with only PATH and the variables given; answers curl's status line. */
function runInShell(command: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      '/bin/sh',
      ['-c', `${command} --silent --output /dev/null --write-out '%{http_code}'`],
      { env: { PATH: '/usr/bin:/bin', ...env }, timeout: 10_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout.trim())),
    );
  });
}

/** The newest logged request of an endpoint, with its detail. */
async function newest(endpoint: string) {
  await until(async () => (await call('requestLog', { endpoint, status: 200, limit: 1 })).entries.length > 0);
  const [entry] = (await call('requestLog', { endpoint, status: 200, limit: 1 })).entries;
  // The response excerpt is read a moment after the answer.
  await until(async () => (await call('requestDetail', { id: entry!.id })).responseBody !== null);
  return call('requestDetail', { id: entry!.id });
}

beforeAll(async () => {
  expect(existsSync(CURL), `${CURL} is needed to run the copied commands`).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'requests-curl-'));
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    writeClipboard: (text) => void clipboard.push(text),
    log: () => undefined,
  });
  await until(async () => (await call('connection', {})).state === 'connected', 10_000);
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('the request log search runs in main, over the bodies', () => {
  it('finds a registration by its client reference (request body) and a page by an asset id (response body)', async () => {
    const page = await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 10 });
    const asset = page.items[7]!;
    const registered = await call('registerPurchase', { profileId: 'demo', assetId: asset.id, assetTitle: null });
    const record = (await call('ledgerList', { limit: 10 })).items.find((r) => r.purchaseId === registered.id)!;
    expect(record.reference).toBeTruthy();

    const registration = await newest('registerPurchase');
    expect(registration.path).not.toContain(record.reference!);
    const byReference = await call('searchRequestLog', { text: record.reference!.toUpperCase() });
    expect(byReference.ids).toContain(registration.id);
    // Small enough for its bodies to stay searchable for the whole log (the demo's registration weighs well under the bound).
    const weight = (h: Record<string, string>) => Object.entries(h).reduce((n, [k, v]) => n + k.length + v.length, 0);
    const chars =
      weight(registration.requestHeaders) +
      weight(registration.responseHeaders) +
      (registration.requestBody ?? '').length +
      (registration.responseBody ?? '').length;
    expect(chars).toBeLessThan(LONG_KEPT_DETAIL_CHARS / 2);

    const list = (await call('requestLog', { endpoint: 'listAssets', status: 200, limit: 10 })).entries.find((e) => !e.path.includes('last'))!;
    const listDetail = await call('requestDetail', { id: list.id });
    expect(listDetail.path).not.toContain(String(page.items[3]!.id));
    expect(listDetail.responseBody).toContain(String(page.items[3]!.id));
    expect((await call('searchRequestLog', { text: String(page.items[3]!.id) })).ids).toContain(list.id);
    // The purchase id is in the registration's answer.
    expect((await call('searchRequestLog', { text: registered.id })).ids).toContain(registration.id);

    const none = await call('searchRequestLog', { text: 'no-such-reference-anywhere' });
    expect(none.ids).toEqual([]);
    expect(none.scanned).toBeGreaterThan(2);
    expect(none.withBodies).toBe(none.scanned);
    await call('cancelPurchase', { profileId: 'demo', purchaseId: registered.id });
  });

  it('never finds a token by typing it: bodies are searched masked', async () => {
    // The simulator echoes nothing secret; a search whose text is the token finds nothing, whatever the headers held.
    expect((await call('searchRequestLog', { text: DEMO_TOKEN })).ids).toEqual([]);
  });
});

describe('copy as curl gives a command that runs', () => {
  it('runs against the simulator with PARTNER_TOKEN set (GET with a query, POST with a body), and is refused without it', async () => {
    await call('searchAssets', { profileId: 'demo', query: 'castle', category: null, limit: 3 });
    for (const endpoint of ['listAssets', 'searchAssets']) {
      const d = await newest(endpoint);
      expect(d.tokenHeader).toEqual({ header: 'authorization', scheme: 'Bearer' });
      const command = toCurl({
        method: d.method,
        origin: d.origin,
        target: d.target,
        headers: d.requestHeaders,
        body: d.requestBody,
        tokenHeader: d.tokenHeader,
      });
      expect(command).toContain(`'authorization: Bearer '"$PARTNER_TOKEN"`);
      expect(command).not.toContain('…');
      expect(await runInShell(command, { PARTNER_TOKEN: DEMO_TOKEN })).toBe('200');
      expect(await runInShell(command, {})).toBe('401');
    }
  });

  it('Copy with token writes the real token to the clipboard only; the answer never holds it', async () => {
    const d = await newest('listAssets');
    clipboard.length = 0;
    const result = await app.dispatch('copyCurlWithToken', { requestId: d.id });
    expect(result).toEqual({ ok: true, value: { ok: true, tokenHeader: 'authorization' } });
    expect(JSON.stringify(result)).not.toMatch(/demo-token-\d/);
    expect(clipboard).toHaveLength(1);
    const used = d.requestHeaders.authorization!.endsWith('-2') ? 'demo-token-2' : 'demo-token-1';
    expect(clipboard[0]).toContain(`'authorization: Bearer ${used}'`);
    expect(clipboard[0]).not.toContain('PARTNER_TOKEN');
    expect(await runInShell(clipboard[0]!, {})).toBe('200');
    expect(await app.dispatch('copyCurlWithToken', { requestId: 987_654_321 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});
