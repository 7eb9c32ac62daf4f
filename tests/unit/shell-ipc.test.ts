import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { CALL_NAMES } from '../../shared/bridge/contract';
import { APP_ENTRY_URL, callChannel } from '../../electron/shell/channels';
import { registerIpcBridge } from '../../electron/shell/ipc';
import type { IpcBridge } from '../../electron/shell/ipc';
import { BrowserWindow, FakeWebFrameMain, createFakeServices, fakeElectron, ipcMain } from '../fakes/electron';

type Result = { ok: boolean; value?: unknown; error?: { code: string; message: string } };

describe('IPC bridge', () => {
  let window: BrowserWindow;
  let services: ReturnType<typeof createFakeServices>;
  let bridge: IpcBridge;
  const logged: string[] = [];

  beforeEach(async () => {
    fakeElectron.reset();
    logged.length = 0;
    window = new BrowserWindow({});
    await window.loadURL(APP_ENTRY_URL);
    services = createFakeServices();
    bridge = registerIpcBridge({ services, getWindow: () => window as never, log: (m) => logged.push(m) });
  });
  afterEach(() => bridge.dispose());

  const fromOurPage = () => ({ sender: window.webContents, senderFrame: window.webContents.mainFrame });
  const call = (name: string, request: unknown, sender = fromOurPage()) => ipcMain.invoke(callChannel(name as never), sender, request) as Promise<Result>;

  it('registers exactly one handler per contract call and nothing else', () => {
    const expected = CALL_NAMES.map((name) => `partner:call:${name}`).sort();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(expected);
    expect(bridge.channels).toHaveLength(CALL_NAMES.length);
    // Registering a second bridge would register a second handler: Electron refuses that.
    expect(() => registerIpcBridge({ services, getWindow: () => window as never })).toThrow(/second handler/);
  });

  it('passes a valid call from our page to the services and returns their result', async () => {
    const result = await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 20 });
    expect(result).toEqual({ ok: true, value: { echo: 'listAssets' } });
    expect(services.dispatched).toEqual([{ name: 'listAssets', request: { profileId: 'demo', lastId: null, pageSize: 20 } }]);
  });

  it('refuses bad payloads with a clear BAD_REQUEST and never dispatches them', async () => {
    const outOfRange = await call('listAssets', { profileId: 'demo', lastId: null, pageSize: 0 });
    expect(outOfRange.ok).toBe(false);
    expect(outOfRange.error?.code).toBe('BAD_REQUEST');
    expect(outOfRange.error?.message).toMatch(/listAssets/);
    expect(outOfRange.error?.message).toMatch(/pageSize/);

    const wrongType = await call('purchaseInfo', { profileId: 'demo', purchaseId: 42 });
    expect(wrongType.error?.code).toBe('BAD_REQUEST');
    expect(wrongType.error?.message).toMatch(/purchaseId/);

    const extraField = await call('categories', { profileId: 'demo', sneaky: true });
    expect(extraField.error?.code).toBe('BAD_REQUEST');

    const notAnObject = await call('saveSettings', 'dark');
    expect(notAnObject.error?.code).toBe('BAD_REQUEST');

    const httpUrl = await call('openExternal', { url: 'http://example.com/' });
    expect(httpUrl.error?.code).toBe('BAD_REQUEST');
    expect(httpUrl.error?.message).toMatch(/https/);

    expect(services.dispatched).toEqual([]);
  });

  it('treats a missing request as an empty one', async () => {
    const result = await ipcMain.invoke(callChannel('connectedProfiles'), fromOurPage());
    expect(result).toEqual({ ok: true, value: { echo: 'connectedProfiles' } });
  });

  it('refuses a call from another window', async () => {
    const other = new BrowserWindow({});
    await other.loadURL(APP_ENTRY_URL);
    const result = await call('categories', { profileId: 'demo' }, { sender: other.webContents, senderFrame: other.webContents.mainFrame });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('UNAUTHORIZED');
    expect(result.error?.message).toMatch(/another window/);
    expect(services.dispatched).toEqual([]);
  });

  it('refuses a call from a sub-frame of our window, even one showing app://partner', async () => {
    const iframe = new FakeWebFrameMain(APP_ENTRY_URL, { processId: 1, routingId: 999 });
    const result = await call('categories', { profileId: 'demo' }, { sender: window.webContents, senderFrame: iframe });
    expect(result.error?.code).toBe('UNAUTHORIZED');
    expect(result.error?.message).toMatch(/sub-frame/);
    expect(services.dispatched).toEqual([]);
  });

  it.each(['https://evil.example/index.html', 'file:///etc/passwd', 'app://other/index.html', 'about:blank', 'chrome-error://chromewebdata/'])(
    'refuses a call when our main frame shows %s',
    async (url) => {
      window.webContents.mainFrame.url = url;
      const result = await call('categories', { profileId: 'demo' });
      expect(result.error?.code).toBe('UNAUTHORIZED');
      expect(result.error?.message).toMatch(/not app:\/\/partner/);
      expect(services.dispatched).toEqual([]);
      expect(logged.some((line) => line.includes('refused IPC call categories'))).toBe(true);
    },
  );

  it('refuses a call when the frame is gone or the window is closed', async () => {
    const gone = await call('categories', { profileId: 'demo' }, { sender: window.webContents, senderFrame: null as never });
    expect(gone.error?.code).toBe('UNAUTHORIZED');
    window.destroy();
    const closed = await call('categories', { profileId: 'demo' });
    expect(closed.error?.code).toBe('UNAUTHORIZED');
    expect(services.dispatched).toEqual([]);
  });

  it('turns a dispatch that throws into error data instead of a rejected invoke', async () => {
    bridge.dispose();
    const throwing = createFakeServices(() => {
      throw new Error('boom');
    });
    bridge = registerIpcBridge({ services: throwing, getWindow: () => window as never, log: () => {} });
    const result = await call('categories', { profileId: 'demo' });
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(result.error?.message).toMatch(/boom/);
  });

  it('sends service events to our window only, as the payload alone', async () => {
    const other = new BrowserWindow({});
    await other.loadURL(APP_ENTRY_URL);
    const payload = { aggregates: [] };
    services.emit('budget', payload);
    expect(window.webContents.sent).toEqual([{ channel: 'partner:event:budget', args: [payload] }]);
    expect(other.webContents.sent).toEqual([]);
  });

  it('does not send events to a page that is not ours, nor to a closed window', () => {
    window.webContents.mainFrame.url = 'https://evil.example/';
    services.emit('connection', { state: 'connected' });
    expect(window.webContents.sent).toEqual([]);
    window.webContents.mainFrame.url = APP_ENTRY_URL;
    window.destroy();
    expect(() => services.emit('connection', { state: 'connected' })).not.toThrow();
  });

  it('dispose removes every handler and the event subscription, and is idempotent', () => {
    expect(services.listenerCount).toBe(1);
    bridge.dispose();
    bridge.dispose();
    expect(ipcMain.handlers.size).toBe(0);
    expect(services.listenerCount).toBe(0);
  });
});
