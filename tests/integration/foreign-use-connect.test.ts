/**
 * Connecting a profile leaves the estimates of others' use as they are (app services, embedded
 * simulator): two profiles of vendor demo on one server, ours the only requests there, connected one
 * after the other within one server second. Forgetting the estimate when the second connects would
 * take the first one's requests of that second for another consumer's. The answers come from the
 * simulator with their Date held on one second and their Remaining counting our requests alone, so
 * the outcome does not depend on where the real second boundaries fall.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { callApp, until } from '../helpers/app-calls';

/** Our profiles' server: the embedded simulator under another name, its answers rewritten as one second's. */
const SERVER = 'http://partner-alone.test';

let dir: string;
let app: AppServices;
let simUrl = '';
let second = 0;
let answered = 0;

const call = <N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> => callApp(app, name, request);

/** Requests to SERVER go to the simulator; the answer's Date is `second` and its Remaining counts only our answers. */
const rewritingFetch: typeof fetch = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(SERVER)) return fetch(input, init);
  const res = await fetch(simUrl + url.slice(SERVER.length), init);
  const headers = new Headers(res.headers);
  headers.delete('content-encoding');
  headers.delete('content-length');
  const limit = Number(res.headers.get('x-rate-limit-limit'));
  headers.set('date', new Date(second).toUTCString());
  headers.set('x-rate-limit-remaining', String(limit - 1 - answered));
  answered += 1;
  return new Response(await res.arrayBuffer(), { status: res.status, headers });
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'foreign-connect-'));
  app = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '0.0.0',
    openExternal: async () => undefined,
    log: () => undefined,
    fetch: rewritingFetch,
    detectAtFirstContact: false,
  });
  // The built-in demo connected: the simulator's refill model is known for vendor demo.
  await until(async () => (await call('connection', {})).state === 'connected', 10_000);
  simUrl = (await call('simState', {}))!.url;
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe("others' use when a profile of the vendor connects", () => {
  it('connecting a second profile on the server mid-second, then reconnecting the first, reads none of our requests as another consumer', async () => {
    const profile = (name: string) => call('saveProfile', { name, vendor: 'demo', baseUrl: SERVER, addTokens: ['demo-token-1'] });
    const first = await profile('First');
    const secondProfile = await profile('Second');
    const t0 = Date.now() - 1000;
    second = Math.floor(Date.now() / 1000) * 1000;
    await call('selectProfile', { id: first.id });
    await until(() => answered >= 1); // its connection probe
    for (let k = 0; k < 3; k++) await call('testConnection', { id: first.id });
    await call('selectProfile', { id: secondProfile.id });
    await until(() => answered >= 5);
    await call('testConnection', { id: secondProfile.id });
    // The first one disconnected and connected again, in the same second.
    await call('disconnectProfile', { id: first.id });
    await call('selectProfile', { id: first.id });
    await until(() => answered >= 7);
    await call('testConnection', { id: first.id });
    expect(answered).toBe(8);
    const aggregates = (await call('budgetHistory', { sinceMs: t0 })).aggregates.filter((a) => a.vendor === 'demo' && a.endpoint === 'categories');
    expect(aggregates.reduce((n, a) => n + a.requests, 0)).toBeGreaterThanOrEqual(8);
    expect(aggregates.reduce((n, a) => n + a.foreignUse, 0)).toBe(0);
  }, 20_000);
});
