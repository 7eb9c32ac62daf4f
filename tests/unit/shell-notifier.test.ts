/** The desktop notifier for alerts: Electron's Notification through the shell (fake electron). */
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

const { BrowserWindow, Notification, fakeElectron } = await import('../fakes/electron');
const { createDesktopNotifier } = await import('../../electron/shell/notifier');

beforeEach(() => fakeElectron.reset());

describe('desktop notifier', () => {
  it('shows an Electron Notification; a click brings the window forward', () => {
    const window = new BrowserWindow({});
    const notify = createDesktopNotifier({ getWindow: () => window as never, log: () => {} });
    notify({ title: 'Partner Console: demo', body: 'List assets answered 429' });
    expect(Notification.shown).toEqual([{ title: 'Partner Console: demo', body: 'List assets answered 429' }]);
    expect(window.focused).toBe(0);
    Notification.instances[0]!.emit('click');
    expect(window.focused).toBe(1);
  });

  it('does nothing where the platform has no notifications', () => {
    Notification.supported = false;
    const notify = createDesktopNotifier({ getWindow: () => null, log: () => {} });
    notify({ title: 't', body: 'b' });
    expect(Notification.shown).toEqual([]);
  });
});
