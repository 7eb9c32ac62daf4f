/**
 * The desktop bridge: one `ipcMain.handle` per contract call (channel partner:call:<name>), each
 * checking who is calling before anything reaches the services, and every service event forwarded
 * to our window only (partner:event:<name>). The page's calls are capped, cancellable
 * (partner:cancel <callId>) and all cancelled when the page is replaced (reload, another document) or dies.
 */
import { ipcMain } from 'electron';
import type { BrowserWindow, IpcMainEvent, WebContents, WebContentsDidStartNavigationEventParams } from 'electron';
import { CALL_NAMES } from '../../shared/bridge/contract';
import type { CallName, CallResult, EventName } from '../../shared/bridge/contract';
import { toErrorData } from '../../shared/errors';
import type { AppServices } from '../app';
import { checkCall, refusal } from './call-gate';
import { CallsInFlight, tooManyCalls } from './calls-in-flight';
import { APP_ORIGIN, CANCEL_CHANNEL, callChannel, eventChannel, originOf } from './channels';
import type { ShellLog } from './log';
import { judgeSender } from './sender';

export interface IpcBridgeOptions {
  services: Pick<AppServices, 'dispatch' | 'onEvent'>;
  /** The one window allowed to call; read at call time so a re-created window works. */
  getWindow: () => BrowserWindow | null;
  log?: ShellLog;
}

export interface IpcBridge {
  /** The channels that have a handler, one per contract call. */
  readonly channels: readonly string[];
  /** Removes the handlers and the event subscription; idempotent. */
  dispose(): void;
}

type NavigationDetails = Pick<WebContentsDidStartNavigationEventParams, 'isSameDocument' | 'isMainFrame'>;

/**
 * Whether a navigation replaces the page, and so ends its calls: a reload or another URL in the main
 * frame. A hash-route change (the renderer's views) keeps the document; a subframe's keeps the page.
 */
function startsNewDocument(details: NavigationDetails): boolean {
  return details.isMainFrame && !details.isSameDocument;
}

export function registerIpcBridge(options: IpcBridgeOptions): IpcBridge {
  const { services, getWindow } = options;
  const log = options.log ?? (() => {});
  const channels = CALL_NAMES.map((name) => {
    const channel = callChannel(name);
    ipcMain.handle(channel, (event, request: unknown, callId: unknown) => handleCall(name, event, request, callId));
    return channel;
  });

  // The page's calls in flight, per loaded page: a reload or a crash abandons them all. The page's
  // listeners go with it, so a window that reloads all day holds three at most.
  let page: { contents: WebContents; calls: CallsInFlight; detach: () => void } | null = null;
  let anonymousId = -1;
  function callsOf(contents: WebContents): CallsInFlight {
    if (page?.contents === contents) return page.calls;
    endPage();
    const onNavigation = (details: NavigationDetails) => {
      if (startsNewDocument(details)) endPage();
    };
    contents.on('did-start-navigation', onNavigation);
    contents.once('render-process-gone', endPage);
    contents.once('destroyed', endPage);
    const detach = () => {
      contents.removeListener('did-start-navigation', onNavigation);
      contents.removeListener('render-process-gone', endPage);
      contents.removeListener('destroyed', endPage);
    };
    page = { contents, calls: new CallsInFlight(), detach };
    return page.calls;
  }
  function endPage(): void {
    const ended = page;
    page = null;
    ended?.calls.cancelAll();
    ended?.detach();
  }

  const onCancel = (event: IpcMainEvent, callId: unknown) => {
    if (!judgeSender(event, getWindow()).trusted || typeof callId !== 'number') return;
    if (page?.contents === event.sender) page.calls.cancel(callId);
  };
  ipcMain.on(CANCEL_CHANNEL, onCancel);

  async function handleCall(name: CallName, event: Parameters<typeof judgeSender>[0], request: unknown, callId: unknown): Promise<CallResult<unknown>> {
    const verdict = judgeSender(event, getWindow());
    if (!verdict.trusted) {
      log(`refused IPC call ${name}: ${verdict.reason}`);
      return refusal({ code: 'UNAUTHORIZED', message: `Call ${name} refused: ${verdict.reason}.` });
    }
    const gate = checkCall(name, request);
    if (!gate.ok) return gate.result;
    const calls = callsOf(event.sender);
    // Calls the page will never cancel still count against the cap, under ids of their own.
    const id = typeof callId === 'number' && Number.isInteger(callId) && callId >= 0 ? callId : anonymousId--;
    const signal = calls.begin(id);
    if (signal === null) return tooManyCalls();
    try {
      return await services.dispatch(name, request ?? {}, signal);
    } catch (error) {
      // dispatch promises never to throw; if it does, the renderer still gets plain data.
      log(`dispatch of ${name} threw`, error);
      return { ok: false, error: toErrorData(error) };
    } finally {
      calls.end(id);
    }
  }

  const unsubscribe = services.onEvent((name: EventName, payload: unknown) => {
    const window = getWindow();
    if (window === null || window.isDestroyed() || window.webContents.isDestroyed()) return;
    // Only to our own page: never to whatever a crashed or error page left in the frame.
    if (originOf(window.webContents.mainFrame.url) !== APP_ORIGIN) return;
    try {
      window.webContents.send(eventChannel(name), payload);
    } catch (error) {
      log(`could not send event ${name}`, error);
    }
  });

  let disposed = false;
  return {
    channels,
    dispose() {
      if (disposed) return;
      disposed = true;
      unsubscribe();
      for (const channel of channels) ipcMain.removeHandler(channel);
      ipcMain.removeListener(CANCEL_CHANNEL, onCancel);
      endPage();
    },
  };
}
