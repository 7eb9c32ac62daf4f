/**
 * The desktop bridge: one `ipcMain.handle` per contract call (channel partner:call:<name>), each
 * checking who is calling before anything reaches the services, and every service event forwarded
 * to our window only (partner:event:<name>).
 */
import { ipcMain } from 'electron';
import type { BrowserWindow } from 'electron';
import { CALL_NAMES } from '../../shared/bridge/contract';
import type { CallName, CallResult, EventName } from '../../shared/bridge/contract';
import { toErrorData } from '../../shared/errors';
import type { AppServices } from '../app';
import { checkCall, refusal } from './call-gate';
import { APP_ORIGIN, callChannel, eventChannel, originOf } from './channels';
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

export function registerIpcBridge(options: IpcBridgeOptions): IpcBridge {
  const { services, getWindow } = options;
  const log = options.log ?? (() => {});
  const channels = CALL_NAMES.map((name) => {
    const channel = callChannel(name);
    ipcMain.handle(channel, (event, request: unknown) => handleCall(name, event, request));
    return channel;
  });

  async function handleCall(name: CallName, event: Parameters<typeof judgeSender>[0], request: unknown): Promise<CallResult<unknown>> {
    const verdict = judgeSender(event, getWindow());
    if (!verdict.trusted) {
      log(`refused IPC call ${name}: ${verdict.reason}`);
      return refusal({ code: 'UNAUTHORIZED', message: `Call ${name} refused: ${verdict.reason}.` });
    }
    const gate = checkCall(name, request);
    if (!gate.ok) return gate.result;
    try {
      return await services.dispatch(name, request ?? {});
    } catch (error) {
      // dispatch promises never to throw; if it does, the renderer still gets plain data.
      log(`dispatch of ${name} threw`, error);
      return { ok: false, error: toErrorData(error) };
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
    },
  };
}
