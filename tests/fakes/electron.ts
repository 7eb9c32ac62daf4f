/**
 * A fake of the parts of the `electron` module the shell uses, for unit tests
 * (`vi.mock('electron', () => import('../fakes/electron'))`): no Electron runtime can be downloaded
 * on this machine, and the shell is thin enough that recording what it asks Electron to do, and
 * playing Electron's events back at it, tests what matters. `fakeElectron.reset()` between tests.
 */
import { EventEmitter } from 'node:events';

type Handler = (event: unknown, ...args: unknown[]) => unknown;

/** An Electron event: records preventDefault. */
export class FakeEvent {
  defaultPrevented = false;
  constructor(fields: Record<string, unknown> = {}) {
    Object.assign(this, fields);
  }
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

let nextFrameId = 1;

export class FakeWebFrameMain {
  readonly processId: number;
  readonly routingId: number;
  destroyed = false;
  constructor(
    public url: string,
    ids?: { processId: number; routingId: number },
  ) {
    this.processId = ids?.processId ?? 1;
    this.routingId = ids?.routingId ?? nextFrameId++;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

type ResponseHeaders = { responseHeaders?: Record<string, string[]> };
export type HeadersReceivedListener = (details: ResponseHeaders, callback: (response: ResponseHeaders) => void) => void;

export class FakeSession extends EventEmitter {
  permissionRequestHandler: ((...args: unknown[]) => void) | null = null;
  permissionCheckHandler: ((...args: unknown[]) => boolean) | null = null;
  readonly webRequest: { headersReceived: HeadersReceivedListener | null; onHeadersReceived(listener: HeadersReceivedListener): void } = {
    headersReceived: null,
    onHeadersReceived(listener) {
      this.headersReceived = listener;
    },
  };
  readonly protocol = {
    handlers: new Map<string, (request: Request) => Response | Promise<Response>>(),
    handle(scheme: string, handler: (request: Request) => Response | Promise<Response>) {
      if (this.handlers.has(scheme)) throw new Error(`scheme ${scheme} is already handled`);
      this.handlers.set(scheme, handler);
    },
    unhandle(scheme: string) {
      this.handlers.delete(scheme);
    },
  };
  setPermissionRequestHandler(handler: ((...args: unknown[]) => void) | null): void {
    this.permissionRequestHandler = handler;
  }
  setPermissionCheckHandler(handler: ((...args: unknown[]) => boolean) | null): void {
    this.permissionCheckHandler = handler;
  }
  /** What Chromium's proxy resolution (system settings, a PAC script) gives, per URL asked. */
  proxies = new Map<string, string>();
  readonly proxyQueries: string[] = [];
  resolveProxy(url: string): Promise<string> {
    this.proxyQueries.push(url);
    return Promise.resolve(this.proxies.get(new URL(url).host) ?? 'DIRECT');
  }
}

let nextContentsId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly mainFrame = new FakeWebFrameMain('about:blank');
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  destroyed = false;
  readonly session = session.defaultSession;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    if (this.destroyed) throw new Error('Object has been destroyed');
    // Electron serialises with the structured clone algorithm: functions and the like throw.
    structuredClone(args);
    this.sent.push({ channel, args });
  }
  loadURL(url: string): Promise<void> {
    this.mainFrame.url = url;
    return Promise.resolve();
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
}

export class BrowserWindow extends EventEmitter {
  static getAllWindows(): BrowserWindow[] {
    return fakeElectron.windows.filter((w) => !w.destroyed);
  }
  readonly webContents = new FakeWebContents();
  destroyed = false;
  visible = false;
  focused = 0;
  constructor(readonly options: Record<string, unknown> & { webPreferences?: Record<string, unknown> } = {}) {
    super();
    fakeElectron.windows.push(this);
    app.emit('web-contents-created', new FakeEvent(), this.webContents);
  }
  loadURL(url: string): Promise<void> {
    return this.webContents.loadURL(url);
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  show(): void {
    this.visible = true;
  }
  focus(): void {
    this.focused += 1;
  }
  /** What Electron does when the user closes the window. */
  destroy(): void {
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}

class FakeApp extends EventEmitter {
  readonly paths = new Map<string, string>();
  gotLock = true;
  ready = false;
  isPackaged = false;
  quitCalls = 0;
  exitCodes: number[] = [];
  getPath(name: string): string {
    const found = this.paths.get(name);
    if (found === undefined) throw new Error(`fake app has no path ${name}`);
    return found;
  }
  setPath(name: string, value: string): void {
    this.paths.set(name, value);
  }
  getVersion(): string {
    return '45.4.1';
  }
  requestSingleInstanceLock(): boolean {
    return this.gotLock;
  }
  whenReady(): Promise<void> {
    this.ready = true;
    return Promise.resolve();
  }
  isReady(): boolean {
    return this.ready;
  }
  quit(): void {
    this.quitCalls += 1;
    // Like Electron: before quitting, 'will-quit' is emitted and may be prevented.
    const event = new FakeEvent();
    this.emit('will-quit', event);
  }
  exit(code = 0): void {
    this.exitCodes.push(code);
  }
}

export const app = new FakeApp();

export const session = { defaultSession: new FakeSession() };

export const protocol = {
  privileged: [] as unknown[],
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    if (app.ready) throw new Error('registerSchemesAsPrivileged must be called before the app is ready');
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>): void {
    session.defaultSession.protocol.handle(scheme, handler);
  },
};

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, handler: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Plays a renderer's ipcRenderer.invoke at the registered handler, with the given sender. */
  async invoke(channel: string, sender: { sender: unknown; senderFrame: unknown }, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (handler === undefined) throw new Error(`No handler registered for '${channel}'`);
    // Arguments and results cross as structured clones.
    return structuredClone(await handler(sender, ...structuredClone(args)));
  }
}

export const ipcMain = new FakeIpcMain();

class FakeIpcRenderer extends EventEmitter {
  /** Where invoke goes; by default to ipcMain as our first window's main frame. */
  route: ((channel: string, ...args: unknown[]) => Promise<unknown>) | null = null;
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    if (this.route !== null) return this.route(channel, ...args);
    const window = fakeElectron.windows[0];
    if (window === undefined) return Promise.reject(new Error('no window'));
    return ipcMain.invoke(channel, { sender: window.webContents, senderFrame: window.webContents.mainFrame }, ...args);
  }
  /** Plays ipcRenderer.send: to ipcMain's listeners, as our first window's main frame. */
  send(channel: string, ...args: unknown[]): void {
    const window = fakeElectron.windows[0];
    if (window === undefined) return;
    ipcMain.emit(channel, { sender: window.webContents, senderFrame: window.webContents.mainFrame }, ...structuredClone(args));
  }
}

export const ipcRenderer = new FakeIpcRenderer();

export const contextBridge = {
  exposed: new Map<string, unknown>(),
  exposeInMainWorld(key: string, api: unknown): void {
    if (this.exposed.has(key)) throw new Error(`Cannot bind an API on top of an existing property on the window object: ${key}`);
    this.exposed.set(key, api);
  },
};

export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret' as string,
  isEncryptionAvailable(): boolean {
    return this.available;
  },
  getSelectedStorageBackend(): string {
    return this.backend;
  },
  encryptString(plain: string): Buffer {
    return Buffer.from(`sealed:${plain}`, 'utf8');
  },
  decryptString(sealed: Buffer): string {
    const text = sealed.toString('utf8');
    if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return text.slice('sealed:'.length);
  },
};

export const shell = {
  opened: [] as string[],
  openExternal(url: string): Promise<void> {
    this.opened.push(url);
    return Promise.resolve();
  },
  shown: [] as string[],
  showItemInFolder(file: string): void {
    this.shown.push(file);
  },
  openPath(file: string): Promise<string> {
    this.opened.push(file);
    return Promise.resolve('');
  },
};

/** Electron's clipboard: records what was written. */
export const clipboard = {
  written: [] as string[],
  writeText(text: string): void {
    this.written.push(text);
  },
};

export const dialog = {
  errors: [] as Array<{ title: string; content: string }>,
  showErrorBox(title: string, content: string): void {
    this.errors.push({ title, content });
  },
};

export const net = {
  requests: [] as unknown[],
  fetch(input: unknown, _init?: unknown): Promise<Response> {
    this.requests.push(input);
    return Promise.resolve(new Response('{}', { headers: { 'content-type': 'application/json' } }));
  },
};

/** Electron's Notification: records what was shown (and whether the platform supports it). */
export class Notification extends EventEmitter {
  static supported = true;
  static shown: Array<{ title: string; body: string }> = [];
  /** The notifications shown, to play a click back (`emit('click')`). */
  static instances: Notification[] = [];
  static isSupported(): boolean {
    return Notification.supported;
  }
  constructor(readonly options: { title: string; body: string; silent?: boolean }) {
    super();
  }
  show(): void {
    Notification.shown.push({ title: this.options.title, body: this.options.body });
    Notification.instances.push(this);
  }
}

/** Test controls: the windows made so far, and a reset between tests. */
export const fakeElectron = {
  windows: [] as BrowserWindow[],
  reset(): void {
    this.windows.length = 0;
    app.removeAllListeners();
    app.paths.clear();
    app.paths.set('appData', '/tmp/fake-electron/appData');
    app.paths.set('userData', '/tmp/fake-electron/appData/Electron');
    app.gotLock = true;
    app.ready = false;
    app.isPackaged = false;
    app.quitCalls = 0;
    app.exitCodes = [];
    session.defaultSession = new FakeSession();
    protocol.privileged.length = 0;
    ipcMain.handlers.clear();
    ipcMain.removeAllListeners();
    ipcRenderer.removeAllListeners();
    ipcRenderer.route = null;
    contextBridge.exposed.clear();
    safeStorage.available = true;
    safeStorage.backend = 'gnome_libsecret';
    shell.opened.length = 0;
    shell.shown.length = 0;
    clipboard.written.length = 0;
    dialog.errors.length = 0;
    net.requests.length = 0;
    Notification.supported = true;
    Notification.shown = [];
    Notification.instances = [];
  },
};

fakeElectron.reset();

export default { app, BrowserWindow, clipboard, contextBridge, dialog, ipcMain, ipcRenderer, net, Notification, protocol, safeStorage, session, shell };

/**
 * A test double of AppServices (electron/app) for the shells' unit tests: dispatch records and
 * answers from `answer`, events are played with `emit`.
 */
export function createFakeServices(answer: (name: string, request: unknown) => unknown = (name) => ({ ok: true, value: { echo: name } })) {
  const listeners = new Set<(name: never, payload: unknown) => void>();
  const dispatched: Array<{ name: string; request: unknown }> = [];
  let disposeCalls = 0;
  return {
    dispatched,
    get disposeCalls() {
      return disposeCalls;
    },
    get listenerCount() {
      return listeners.size;
    },
    async dispatch(name: string, request: unknown) {
      dispatched.push({ name, request });
      return answer(name, request) as never;
    },
    onEvent(listener: (name: never, payload: unknown) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(name: string, payload: unknown): void {
      for (const listener of listeners) listener(name as never, payload);
    },
    async dispose(): Promise<void> {
      disposeCalls += 1;
    },
  };
}
