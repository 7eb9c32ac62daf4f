/**
 * Desktop notifications for alerts: Electron's Notification, where the platform has one (a Linux
 * desktop without a notification daemon has none: the alert still shows in the app). Clicking one
 * brings the window forward.
 */
import { Notification } from 'electron';
import type { BrowserWindow } from 'electron';

export interface DesktopNotifierOptions {
  /** The window to bring forward on a click; null when it is closed. */
  getWindow: () => BrowserWindow | null;
  log: (message: string, detail?: unknown) => void;
}

export function createDesktopNotifier(options: DesktopNotifierOptions): (notice: { title: string; body: string }) => void {
  return ({ title, body }) => {
    if (!Notification.isSupported()) return;
    try {
      const notification = new Notification({ title, body });
      notification.on('click', () => {
        const window = options.getWindow();
        if (!window) return;
        if (window.isMinimized()) window.restore();
        window.focus();
      });
      notification.show();
    } catch (e) {
      options.log('could not show a notification', e);
    }
  };
}
