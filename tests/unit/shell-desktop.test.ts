import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { lockDataDir } from '../../electron/catalog/file-lock';
import { APP_ENTRY_URL, callChannel } from '../../electron/shell/channels';
import { networkRouteOf, startDesktop } from '../../electron/shell/desktop';
import type { DesktopOptions } from '../../electron/shell/desktop';
import { CALL_NAMES } from '../../shared/bridge/contract';
import { FakeEvent, app, clipboard, createFakeServices, dialog, fakeElectron, ipcMain, net, protocol, session, shell } from '../fakes/electron';

const MAIN_DIR = path.join('/opt', 'partner', 'dist', 'main');

describe('desktop start-up', () => {
  let services: ReturnType<typeof createFakeServices>;
  let environments: Array<Parameters<DesktopOptions['createServices']>[0]>;
  const logged: string[] = [];
  // The app takes a real lock in its data folder: each test gets folders of its own.
  let appData: string;

  beforeEach(() => {
    fakeElectron.reset();
    appData = mkdtempSync(path.join(tmpdir(), 'shell-desktop-'));
    app.setPath('appData', appData);
    logged.length = 0;
    services = createFakeServices();
    environments = [];
    delete process.env.PARTNER_CONSOLE_DATA_DIR;
  });
  afterEach(() => rmSync(appData, { recursive: true, force: true }));

  const start = (overrides: Partial<DesktopOptions> = {}) =>
    startDesktop({
      createServices: async (env) => {
        environments.push(env);
        return services;
      },
      mainDir: MAIN_DIR,
      version: '9.9.9',
      log: (m) => logged.push(m),
      crashGuards: false,
      ...overrides,
    });

  it('builds the services for the desktop shell with the OS vault, net.fetch and openExternal', async () => {
    const handle = await start();
    expect(handle).not.toBeNull();
    const env = environments[0]!;
    expect(env.shell).toBe('desktop');
    expect(env.version).toBe('9.9.9');
    expect(env.dataDir).toBe(path.join(appData, 'partner-console'));
    expect(app.getPath('userData')).toBe(env.dataDir);
    expect(env.vault.kind).toBe('os-encrypted');
    expect(env.vault.open(env.vault.seal('tok-1'))).toBe('tok-1');

    await env.fetch!(new URL('https://partner.example/assets/list'), { method: 'GET' });
    expect(net.requests).toEqual(['https://partner.example/assets/list']);

    // Registration's own connection goes where net.fetch would: the proxy Chromium resolves for its URL.
    session.defaultSession.proxies.set('partner.example', 'PROXY corp-proxy:3128; DIRECT');
    expect(await env.networkRoute!.proxyFor('https://partner.example/purchase/register')).toBe('http://corp-proxy:3128');
    expect(await env.networkRoute!.proxyFor('https://other.example/purchase/register')).toBeNull();
    expect(session.defaultSession.proxyQueries).toEqual(['https://partner.example/purchase/register', 'https://other.example/purchase/register']);
    // Proxy settings that never answer (a hung PAC script) fail the route instead of holding the registration.
    const hung = networkRouteOf({ resolveProxy: () => new Promise<string>(() => undefined) }, 20);
    await expect(hung.proxyFor('https://partner.example/purchase/register')).rejects.toThrow(/no answer from the proxy settings within 20 ms/);

    await env.openExternal!('https://downloads.example/file');
    expect(shell.opened).toEqual(['https://downloads.example/file']);
    await expect(env.openExternal!('file:///etc/passwd')).rejects.toThrow(/https/);
    await expect(env.openExternal!('javascript:alert(1)')).rejects.toThrow(/https/);
    expect(shell.opened).toHaveLength(1);
  });

  it("gives the services Electron's clipboard for Copy with token: main writes the command, the page never sees it", async () => {
    await start();
    const env = environments[0]!;
    expect(env.writeClipboard).toBeTypeOf('function');
    env.writeClipboard!(`curl 'http://127.0.0.1:9/assets/list' -H 'authorization: Bearer tok-1'`);
    expect(clipboard.written).toEqual([`curl 'http://127.0.0.1:9/assets/list' -H 'authorization: Bearer tok-1'`]);
    // Nothing of it went to the window.
    expect(fakeElectron.windows.flatMap((w) => w.webContents.sent).some((m) => JSON.stringify(m.args).includes('tok-1'))).toBe(false);
  });

  it('honours PARTNER_CONSOLE_DATA_DIR for an isolated data folder', async () => {
    const qaProfile = path.join(appData, 'qa-profile');
    process.env.PARTNER_CONSOLE_DATA_DIR = qaProfile;
    await start();
    delete process.env.PARTNER_CONSOLE_DATA_DIR;
    expect(environments[0]!.dataDir).toBe(qaProfile);
    // Chromium's profile and the single-instance lock live there too, away from the user's own app.
    expect(app.getPath('userData')).toBe(qaProfile);
  });

  it('opens one window with the secure webPreferences, our preload, and the app:// page', async () => {
    await start();
    expect(fakeElectron.windows).toHaveLength(1);
    const window = fakeElectron.windows[0]!;
    expect(window.options.webPreferences).toMatchObject({
      disableBlinkFeatures: 'Auxclick',
      experimentalFeatures: false,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: path.join(MAIN_DIR, 'preload.cjs'),
    });
    expect(window.webContents.mainFrame.url).toBe(APP_ENTRY_URL);
  });

  it('registers app:// as a standard, secure scheme before ready, without bypassing CSP', async () => {
    await start();
    expect(protocol.privileged).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
    expect(JSON.stringify(protocol.privileged)).not.toMatch(/bypassCSP/);
    expect(session.defaultSession.protocol.handlers.has('app')).toBe(true);
  });

  it('prevents every navigation of the window, including to app:// itself', async () => {
    await start();
    const contents = fakeElectron.windows[0]!.webContents;
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'app://partner/other.html']) {
      const event = new FakeEvent();
      contents.emit('will-navigate', event, url);
      expect(event.defaultPrevented, url).toBe(true);
    }
    const redirect = new FakeEvent();
    contents.emit('will-redirect', redirect, 'https://evil.example/');
    expect(redirect.defaultPrevented).toBe(true);
    const subFrame = new FakeEvent({ url: 'https://evil.example/', isMainFrame: false });
    contents.emit('will-frame-navigate', subFrame);
    expect(subFrame.defaultPrevented).toBe(true);
  });

  it('denies new windows and <webview>s', async () => {
    await start();
    const contents = fakeElectron.windows[0]!.webContents;
    expect(contents.windowOpenHandler).not.toBeNull();
    expect(contents.windowOpenHandler!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: APP_ENTRY_URL })).toEqual({ action: 'deny' });
    const attach = new FakeEvent();
    contents.emit('will-attach-webview', attach, {}, {});
    expect(attach.defaultPrevented).toBe(true);
  });

  it('hardens any other web contents created later too', async () => {
    await start();
    const { BrowserWindow } = await import('../fakes/electron');
    const stray = new BrowserWindow({});
    expect(stray.webContents.windowOpenHandler!({ url: 'https://x.example/' })).toEqual({ action: 'deny' });
  });

  it('denies every permission request and check, and page-started downloads', async () => {
    await start();
    const ses = session.defaultSession;
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      ses.permissionRequestHandler!(fakeElectron.windows[0]!.webContents, permission, (granted: boolean) => answers.push(granted), {});
    }
    expect(answers).toEqual([false, false, false, false, false]);
    expect(ses.permissionCheckHandler!(null, 'media', 'app://partner', {})).toBe(false);
    // The app's own clipboard write is allowed (shell-permissions.test.ts); no other origin's.
    expect(ses.permissionCheckHandler!(null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);
    const download = new FakeEvent();
    ses.emit('will-download', download, { getURL: () => 'https://x.example/a.zip' }, null);
    expect(download.defaultPrevented).toBe(true);
  });

  it('puts the same CSP on every response of the session, over any the server sent', async () => {
    const { contentSecurityPolicy } = await import('../../electron/shell/csp');
    await start();
    const listener = session.defaultSession.webRequest.headersReceived!;
    let answered: { responseHeaders?: Record<string, string[]> } = {};
    listener({ responseHeaders: { 'Content-Type': ['text/html'] } }, (response) => (answered = response));
    expect(answered.responseHeaders).toEqual({ 'Content-Type': ['text/html'], 'Content-Security-Policy': [contentSecurityPolicy()] });
  });

  it('serves every contract call over IPC once the window is up', async () => {
    await start();
    expect(ipcMain.handlers.size).toBe(CALL_NAMES.length);
    const window = fakeElectron.windows[0]!;
    const result = await ipcMain.invoke(callChannel('appInfo'), { sender: window.webContents, senderFrame: window.webContents.mainFrame }, {});
    expect(result).toEqual({ ok: true, value: { echo: 'appInfo' } });
  });

  it('quits at once when another instance holds the lock', async () => {
    app.gotLock = false;
    const handle = await start();
    expect(handle).toBeNull();
    expect(app.quitCalls).toBe(1);
    expect(environments).toEqual([]);
    expect(fakeElectron.windows).toEqual([]);
  });

  it('disposes the services before quitting, once', async () => {
    await start();
    app.quit();
    await vi.waitFor(() => expect(services.disposeCalls).toBe(1));
    await vi.waitFor(() => expect(ipcMain.handlers.size).toBe(0));
    expect(services.listenerCount).toBe(0);
    // The first will-quit was held back for the disposal, then quit ran again and went through.
    expect(app.quitCalls).toBe(2);
  });

  it('still quits when disposing hangs, after the timeout', async () => {
    const hanging = { ...createFakeServices(), dispose: () => new Promise<void>(() => {}) };
    await start({ createServices: async () => hanging, disposeTimeoutMs: 10 });
    app.quit();
    await vi.waitFor(() => expect(app.quitCalls).toBe(2));
  });

  it('shows an error and exits cleanly when the services cannot start', async () => {
    const handle = await start({
      createServices: async () => {
        throw new Error('settings file is unreadable');
      },
    });
    expect(handle).toBeNull();
    expect(dialog.errors).toEqual([{ title: 'Partner Console could not start', content: 'settings file is unreadable' }]);
    expect(app.exitCodes).toEqual([1]);
    expect(fakeElectron.windows).toEqual([]);
    // Its data folder is free again.
    await (await lockDataDir(path.join(appData, 'partner-console'))).release();
  });

  it('holds the data folder for as long as it runs: browser mode on that folder is refused until the app quits', async () => {
    const dataDir = path.join(appData, 'shared');
    await start({ dataDir });
    // `npm run web -- --data-dir <dataDir>` takes this lock before its services (electron/web/server.ts).
    await expect(lockDataDir(dataDir)).rejects.toThrow(/data folder .* is in use by another run/);
    app.quit();
    await vi.waitFor(() => expect(app.quitCalls).toBe(2));
    await (await lockDataDir(dataDir)).release();
  });

  it('refuses to start on a data folder browser mode holds: says who holds it, and quits without touching the data', async () => {
    const dataDir = path.join(appData, 'shared');
    const web = await lockDataDir(dataDir);
    const handle = await start({ dataDir });
    expect(handle).toBeNull();
    expect(dialog.errors).toEqual([
      {
        title: 'Partner Console could not start',
        content: expect.stringMatching(
          new RegExp(`^The data folder ${dataDir} is in use by another run \\(process ${process.pid} .*\\n\\nWait for the other run to end`, 's'),
        ),
      },
    ]);
    expect(app.exitCodes).toEqual([1]);
    expect(environments).toEqual([]);
    expect(fakeElectron.windows).toEqual([]);
    expect(readdirSync(dataDir)).toEqual(['instance.lock']);
    // Still browser mode's: its release removes it.
    await web.release();
    expect(existsSync(path.join(dataDir, 'instance.lock'))).toBe(false);
  });

  it('logs uncaught errors and rejections instead of crashing', async () => {
    const { EventEmitter } = await import('node:events');
    const processLike = new EventEmitter();
    await start({ crashGuards: processLike });
    processLike.emit('uncaughtException', new Error('a bug in a handler'));
    processLike.emit('unhandledRejection', new Error('a forgotten promise'));
    expect(logged.filter((line) => line.includes('keeps running'))).toHaveLength(2);
    expect(processLike.listenerCount('uncaughtException')).toBe(1);
  });

  it('re-creates the window for a second instance when the first was closed, and focuses an open one', async () => {
    await start();
    const first = fakeElectron.windows[0]!;
    app.emit('second-instance');
    expect(first.focused).toBe(1);
    first.destroy();
    app.emit('second-instance');
    expect(fakeElectron.windows).toHaveLength(2);
    expect(fakeElectron.windows[1]!.webContents.mainFrame.url).toBe(APP_ENTRY_URL);
  });
});
