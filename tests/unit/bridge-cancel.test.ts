/**
 * Issue 11 item 10, main side: both shells give each call a signal that reaches the services, cap a
 * page's calls in flight, cancel one call on the page's word, and cancel all of a page's calls when
 * the page goes (socket closed; window reloaded). Real WebSocket server on loopback; the fake
 * electron for IPC.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';

vi.mock('electron', () => import('../fakes/electron'));

import type { CallResult } from '../../shared/bridge/contract';
import { CANCEL_CHANNEL, APP_ENTRY_URL, callChannel } from '../../electron/shell/channels';
import { MAX_CALLS_IN_FLIGHT } from '../../electron/shell/calls-in-flight';
import { registerIpcBridge } from '../../electron/shell/ipc';
import { startWebServer } from '../../electron/web/server';
import type { RunningWebServer } from '../../electron/web/server';
import { toPartnerApi } from '../../shared/bridge/api';
import type { PartnerBridge } from '../../shared/bridge/api';
import { BrowserWindow, contextBridge, fakeElectron, ipcMain, ipcRenderer } from '../fakes/electron';

/** Services whose calls wait until cancelled, keeping every signal they were given. */
function waitingServices() {
  const signals: AbortSignal[] = [];
  return {
    signals,
    dispatch(_name: string, _request: unknown, signal?: AbortSignal): Promise<CallResult<unknown>> {
      if (signal) signals.push(signal);
      return new Promise((resolve) =>
        signal?.addEventListener('abort', () => resolve({ ok: false, error: { code: 'CANCELLED', message: 'cancelled', retryable: true } }), { once: true }),
      );
    },
    onEvent: () => () => undefined,
    dispose: async () => undefined,
  };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('WebSocket bridge', () => {
  let dir: string;
  let server: RunningWebServer;
  let services: ReturnType<typeof waitingServices>;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bridge-cancel-'));
    mkdirSync(path.join(dir, 'renderer'));
    writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html>');
    services = waitingServices();
    server = await startWebServer({ services, rendererDir: path.join(dir, 'renderer'), log: () => undefined });
  });
  afterEach(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<{ socket: WebSocket; results: Map<number, CallResult<unknown>> }> {
    const socket = new WebSocket(`${server.bridgeUrl}?secret=${encodeURIComponent(server.secret)}`, { origin: server.origin });
    const results = new Map<number, CallResult<unknown>>();
    socket.on('message', (data) => {
      const m = JSON.parse(String(data)) as { t: string; id: number; result: CallResult<unknown> };
      if (m.t === 'result') results.set(m.id, m.result);
    });
    await new Promise((r) => socket.once('open', r));
    return { socket, results };
  }
  const call = (socket: WebSocket, id: number) =>
    socket.send(JSON.stringify({ t: 'call', id, name: 'searchAssets', request: { profileId: 'demo', query: 'x', category: null, limit: 5 } }));

  it('a cancel message aborts that call only', async () => {
    const { socket, results } = await open();
    call(socket, 1);
    call(socket, 2);
    await until(() => services.signals.length === 2);
    socket.send(JSON.stringify({ t: 'cancel', id: 1 }));
    await until(() => results.has(1));
    expect(results.get(1)).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(services.signals.map((s) => s.aborted)).toEqual([true, false]);
    socket.close();
  });

  it('closing the socket cancels every call it had in flight', async () => {
    const { socket } = await open();
    for (let id = 1; id <= 3; id++) call(socket, id);
    await until(() => services.signals.length === 3);
    socket.close();
    await until(() => services.signals.every((s) => s.aborted));
  });

  it('caps the calls in flight per socket', async () => {
    const { socket, results } = await open();
    for (let id = 1; id <= MAX_CALLS_IN_FLIGHT + 1; id++) call(socket, id);
    await until(() => results.has(MAX_CALLS_IN_FLIGHT + 1));
    expect(results.get(MAX_CALLS_IN_FLIGHT + 1)).toMatchObject({
      ok: false,
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(/Too many calls in flight/) },
    });
    expect(services.signals).toHaveLength(MAX_CALLS_IN_FLIGHT);
    socket.close();
  });
});

describe('IPC bridge', () => {
  let window: BrowserWindow;
  let services: ReturnType<typeof waitingServices>;
  let dispose: () => void;
  beforeEach(async () => {
    fakeElectron.reset();
    window = new BrowserWindow({});
    await window.loadURL(APP_ENTRY_URL);
    services = waitingServices();
    dispose = registerIpcBridge({ services, getWindow: () => window as never }).dispose;
  });
  afterEach(() => dispose());

  const from = () => ({ sender: window.webContents, senderFrame: window.webContents.mainFrame });
  /** What Electron 45 emits when the page reloads: the main frame starts a new document. */
  const reload = { url: APP_ENTRY_URL, isSameDocument: false, isMainFrame: true };
  const call = (callId: number) => ipcMain.invoke(callChannel('searchAssets'), from(), { profileId: 'demo', query: 'x', category: null, limit: 5 }, callId);

  it('cancels a call on the page\u2019s word, and all of them when the page reloads', async () => {
    const first = call(1);
    void call(2);
    void call(3);
    await until(() => services.signals.length === 3);
    ipcMain.emit(CANCEL_CHANNEL, from(), 1);
    await expect(first).resolves.toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(services.signals.map((s) => s.aborted)).toEqual([true, false, false]);
    window.webContents.emit('did-start-navigation', reload);
    expect(services.signals.every((s) => s.aborted)).toBe(true);
  });

  it('keeps the calls in flight across a hash-route change and a frame navigating inside the page', async () => {
    void call(1);
    await until(() => services.signals.length === 1);
    // What Electron 45 emits when the page sets location.hash (the renderer routes by hash).
    window.webContents.emit('did-start-navigation', { url: `${APP_ENTRY_URL}#/catalog/42`, isSameDocument: true, isMainFrame: true });
    window.webContents.emit('did-start-navigation', { url: 'about:blank', isSameDocument: false, isMainFrame: false });
    expect(services.signals[0]!.aborted).toBe(false);
  });

  it('listens to each window once, however many views the page switches and pages it loads', async () => {
    const pages = 3;
    const views = 200;
    for (let p = 0; p < pages; p++) {
      for (let v = 0; v < views; v++) {
        void call(p * views + v);
        window.webContents.emit('did-start-navigation', { url: `${APP_ENTRY_URL}#/view/${v}`, isSameDocument: true, isMainFrame: true });
      }
      window.webContents.emit('did-start-navigation', reload);
    }
    for (const event of ['did-start-navigation', 'render-process-gone', 'destroyed']) expect(window.webContents.listenerCount(event)).toBeLessThanOrEqual(1);
    dispose();
    for (const event of ['did-start-navigation', 'render-process-gone', 'destroyed']) expect(window.webContents.listenerCount(event)).toBe(0);
  });

  it("the page's react-query signal, through the preload, cancels the call in main", async () => {
    ipcRenderer.route = null;
    await import('../../electron/preload');
    const api = toPartnerApi(contextBridge.exposed.get('partner') as PartnerBridge);
    const controller = new AbortController();
    const search = api.searchAssets({ profileId: 'demo', query: 'x', category: null, limit: 5 }, { signal: controller.signal });
    await until(() => services.signals.length === 1);
    controller.abort();
    await expect(search).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(services.signals[0]!.aborted).toBe(true);
  });

  it('caps the calls in flight of the page', async () => {
    for (let id = 1; id <= MAX_CALLS_IN_FLIGHT; id++) void call(id);
    await expect(call(MAX_CALLS_IN_FLIGHT + 1)).resolves.toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});
