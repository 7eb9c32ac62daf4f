/**
 * The desktop shell's start-up, in the order Electron requires: crash guards, one instance, the
 * app:// scheme (before ready), the data folder's lock, then after ready the session's hardening,
 * the protocol handler, the services, the IPC bridge and the window; the services are disposed and
 * the lock released before the app quits.
 * main.ts only calls this, so the whole sequence runs in unit tests against a fake `electron`.
 */
import path from 'node:path';
import { app, clipboard, dialog, net, safeStorage, session, shell } from 'electron';
import type { BrowserWindow } from 'electron';
import type { AppEnvironment, AppServices } from '../app';
import type { TokenVault } from '../app/token-vault';
import { proxyFromPac, systemTrust } from '../client/fresh-connection';
import type { NetworkRoute } from '../client/fresh-connection';
import { lockDataDir } from '../catalog/file-lock';
import type { FileLock } from '../catalog/file-lock';
import { toErrorData } from '../../shared/errors';
import { APP_ENTRY_URL } from './channels';
import { hardenSession, hardenWebContents } from './hardening';
import { registerIpcBridge } from './ipc';
import type { IpcBridge } from './ipc';
import { createShellLog, installCrashGuards } from './log';
import { createDesktopNotifier } from './notifier';
import type { ShellLog } from './log';
import { registerAppScheme, serveAppProtocol } from './protocol';
import { createSafeStorageVault } from './vault';
import { createMainWindow } from './window';

export interface DesktopOptions {
  createServices: (env: AppEnvironment) => Promise<AppServices>;
  /** Folder holding main.cjs and preload.cjs (dist/main); the renderer is its sibling dist/renderer. */
  mainDir: string;
  version: string;
  log?: ShellLog;
  /** Overrides the data folder (tests, QA); default PARTNER_CONSOLE_DATA_DIR, else <appData>/partner-console. */
  dataDir?: string;
  /** How long quitting waits for the services to dispose. */
  disposeTimeoutMs?: number;
  /** Where uncaught errors are caught and logged: the process by default; false in tests (the runner owns them). */
  crashGuards?: NodeJS.EventEmitter | false;
}

export interface DesktopHandle {
  readonly services: AppServices;
  readonly vault: TokenVault;
  window(): BrowserWindow | null;
}

/** One data folder whatever way Electron was launched (an app dir, a bare main.cjs, a package). */
const USER_DATA_FOLDER = 'partner-console';

/**
 * Electron's net.fetch (system proxy, certificates) with Node's fetch signature. The services use it
 * only for requests the endpoint table marks safe to resend: Chromium's stack silently resends a
 * request whose kept-alive connection broke, so registration goes on a fresh undici connection
 * instead (electron/client/transport.ts).
 */
export function fetchOverNet(netFetch: typeof net.fetch): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => netFetch(input instanceof URL ? input.href : input, init)) as typeof fetch;
}

/**
 * What registration's own connection needs to go where net.fetch goes: the proxy Chromium resolves for its
 * URL (a PAC script, the system settings) and the certificates the system trusts (a TLS-inspecting proxy's
 * own authority, installed by IT). Without it, reads would work behind such a proxy while every
 * registration failed.
 */
export function networkRouteOf(resolver: Pick<Electron.Session, 'resolveProxy'>, resolveTimeoutMs = 5_000): NetworkRoute {
  const ca = systemTrust();
  // A PAC script that never answers must not hold a registration until its attempt times out (an unknown outcome).
  const proxyFor = async (url: string): Promise<string | null> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the proxy settings within ${resolveTimeoutMs} ms`)), resolveTimeoutMs);
    });
    try {
      return proxyFromPac(await Promise.race([resolver.resolveProxy(url), late]));
    } finally {
      clearTimeout(timer);
    }
  };
  return { proxyFor, ...(ca ? { ca } : {}) };
}

/** shell.openExternal for https URLs only (the contract checks too; this is the last gate). */
export function openHttpsExternally(url: string): Promise<void> {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return Promise.reject(new Error('Not a URL.'));
  }
  if (protocol !== 'https:') return Promise.reject(new Error('Only https URLs are opened.'));
  return shell.openExternal(url); // eng-disable OPEN_EXTERNAL_JS_CHECK: only https URLs get here (checked above, and by the contract's schema)
}

/** The download's file in the file manager, or opened with the system's app for its type. */
export async function revealInShell(file: string, action: 'show' | 'open'): Promise<void> {
  if (action === 'show') return shell.showItemInFolder(file);
  const problem = await shell.openPath(file);
  if (problem !== '') throw new Error(problem);
}

/**
 * The lock browser mode takes too (electron/web/server.ts): Electron's single-instance lock keeps out
 * only a second desktop app, and two processes on one folder each rewrite its files from their own
 * memory. Null once the user was told who holds it and the app is exiting, nothing touched.
 */
async function lockDataDirOrExit(dataDir: string, log: ShellLog): Promise<FileLock | null> {
  try {
    return await lockDataDir(dataDir);
  } catch (error) {
    log('the data folder is in use', error);
    const { message, hint } = toErrorData(error);
    dialog.showErrorBox('Partner Console could not start', hint === undefined ? message : `${message}\n\n${hint}`);
    app.exit(1);
    return null;
  }
}

async function releaseDataDir(lock: FileLock, log: ShellLog): Promise<void> {
  await lock.release().catch((error: unknown) => log(`could not release ${lock.path}`, error));
}

export async function startDesktop(options: DesktopOptions): Promise<DesktopHandle | null> {
  const log = options.log ?? createShellLog('desktop');
  if (options.crashGuards !== false) installCrashGuards(log, options.crashGuards ?? process);

  // One folder for Chromium's profile, the single-instance lock and the services' files; an override
  // (QA, Playwright) isolates all three from the user's own app.
  const dataDir = options.dataDir ?? process.env.PARTNER_CONSOLE_DATA_DIR ?? path.join(app.getPath('appData'), USER_DATA_FOLDER);
  app.setPath('userData', dataDir);
  if (!app.requestSingleInstanceLock()) {
    log('another Partner Console is already running; handing over to it');
    app.quit();
    return null;
  }
  registerAppScheme();
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, log));
  const dataLock = await lockDataDirOrExit(dataDir, log);
  if (dataLock === null) return null;

  await app.whenReady();
  hardenSession(session.defaultSession, log);
  const rendererDir = path.join(options.mainDir, '..', 'renderer');
  serveAppProtocol(session.defaultSession, rendererDir);

  const vault = createSafeStorageVault(safeStorage);
  if (vault.kind !== 'os-encrypted')
    log(`tokens are kept ${vault.kind === 'memory' ? 'in memory only (no OS encryption available)' : 'with a plain-text key (no secret service found)'}`);

  let services: AppServices;
  try {
    services = await options.createServices({
      shell: 'desktop',
      dataDir,
      fetch: fetchOverNet(net.fetch.bind(net)),
      networkRoute: networkRouteOf(session.defaultSession),
      vault,
      openExternal: openHttpsExternally,
      revealFile: revealInShell,
      // Copy with token: the command with the plain token goes from main to the clipboard, never through the page.
      writeClipboard: (text) => clipboard.writeText(text),
      // getWindow is declared below; a notification is only clicked once the window exists.
      notify: createDesktopNotifier({ getWindow: () => getWindow(), log }),
      version: options.version,
    });
  } catch (error) {
    log('the services could not start', error);
    dialog.showErrorBox('Partner Console could not start', error instanceof Error ? error.message : String(error));
    await releaseDataDir(dataLock, log);
    app.exit(1);
    return null;
  }

  let window: BrowserWindow | null = null;
  const getWindow = () => (window !== null && !window.isDestroyed() ? window : null);
  const bridge: IpcBridge = registerIpcBridge({ services, getWindow, log });
  const preloadPath = path.join(options.mainDir, 'preload.cjs');

  const openWindow = () => {
    const created = createMainWindow(preloadPath, !app.isPackaged);
    created.on('closed', () => {
      if (window === created) window = null;
    });
    window = created;
    created.loadURL(APP_ENTRY_URL).catch((error: unknown) => log(`could not load ${APP_ENTRY_URL}`, error));
  };
  openWindow();

  app.on('second-instance', () => {
    const current = getWindow();
    if (current === null) return openWindow();
    if (current.isMinimized()) current.restore();
    current.focus();
  });
  app.on('activate', () => {
    if (getWindow() === null) openWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let disposed = false;
  let disposing = false;
  app.on('will-quit', (event) => {
    if (disposed) return;
    event.preventDefault();
    if (disposing) return;
    disposing = true;
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.disposeTimeoutMs ?? 5000).unref());
    Promise.race([services.dispose(), timeout])
      .catch((error: unknown) => log('disposing the services failed', error))
      .finally(async () => {
        disposed = true;
        bridge.dispose();
        await releaseDataDir(dataLock, log);
        app.quit();
      });
  });

  return { services, vault, window: getWindow };
}
