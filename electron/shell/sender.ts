/**
 * Who may call the services over IPC: only our window's main frame, showing our own app:// page.
 * An iframe, another window, or our window after it somehow left app://partner is refused
 * (GitHub Desktop's trusted-sender check, tightened to the frame).
 */
import type { BrowserWindow, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { APP_ORIGIN, originOf } from './channels';

export type SenderVerdict = { trusted: true } | { trusted: false; reason: string };

function sameFrame(a: WebFrameMain, b: WebFrameMain): boolean {
  if (a === b) return true;
  // WebFrameMain objects are cached per frame, but compare the frame's identity too.
  return a.processId === b.processId && a.routingId === b.routingId;
}

export function judgeSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, window: BrowserWindow | null): SenderVerdict {
  if (window === null || window.isDestroyed()) return { trusted: false, reason: 'the app window is gone' };
  const contents = window.webContents;
  if (event.sender !== contents) return { trusted: false, reason: 'the call came from another window' };
  const frame = event.senderFrame;
  if (frame === null || frame.isDestroyed()) return { trusted: false, reason: 'the calling frame is gone' };
  if (!sameFrame(frame, contents.mainFrame)) return { trusted: false, reason: 'the call came from a sub-frame' };
  const origin = originOf(frame.url);
  if (origin !== APP_ORIGIN) return { trusted: false, reason: `the calling page is not ${APP_ORIGIN} (it is ${origin ?? 'unknown'})` };
  return { trusted: true };
}
