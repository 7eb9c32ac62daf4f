/**
 * Issue 11 item 12: the desktop session allows exactly what the app's own page needs (the copy
 * buttons' clipboard write, the Budget CSV's Blob download) from its own origin; everything else
 * stays denied.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { APP_ENTRY_URL, APP_ORIGIN } from '../../electron/shell/channels';
import { startDesktop } from '../../electron/shell/desktop';
import { FakeEvent, createFakeServices, fakeElectron, session } from '../fakes/electron';

/** Each start takes a real lock in its data folder: a folder of its own each time. */
async function start(dataDir: string): Promise<void> {
  const services = createFakeServices();
  await startDesktop({
    dataDir,
    createServices: async () => services,
    mainDir: path.join('/opt', 'p', 'dist', 'main'),
    version: '1.0.0',
    log: () => undefined,
    crashGuards: false,
  });
}

function requestAnswer(permission: string, requestingUrl: string): boolean {
  let answer: boolean | null = null;
  session.defaultSession.permissionRequestHandler!(fakeElectron.windows[0]!.webContents, permission, (granted: boolean) => (answer = granted), {
    requestingUrl,
  });
  return answer!;
}

function downloadBlocked(url: string): boolean {
  const event = new FakeEvent();
  session.defaultSession.emit('will-download', event, { getURL: () => url }, fakeElectron.windows[0]!.webContents);
  return event.defaultPrevented;
}

describe('desktop permissions', () => {
  let dataDir: string;
  beforeEach(async () => {
    fakeElectron.reset();
    dataDir = mkdtempSync(path.join(tmpdir(), 'shell-permissions-'));
    await start(dataDir);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('lets the app page write to the clipboard (copy buttons), asked or checked', () => {
    expect(session.defaultSession.permissionCheckHandler!(null, 'clipboard-sanitized-write', APP_ORIGIN, {})).toBe(true);
    expect(requestAnswer('clipboard-sanitized-write', APP_ENTRY_URL)).toBe(true);
  });

  it('denies the clipboard write to any other origin, and every other permission even to the app', () => {
    expect(session.defaultSession.permissionCheckHandler!(null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);
    expect(requestAnswer('clipboard-sanitized-write', 'https://evil.example/x')).toBe(false);
    for (const permission of ['clipboard-read', 'media', 'geolocation', 'notifications', 'openExternal', 'fileSystem']) {
      expect(session.defaultSession.permissionCheckHandler!(null, permission, APP_ORIGIN, {}), permission).toBe(false);
      expect(requestAnswer(permission, APP_ENTRY_URL), permission).toBe(false);
    }
  });

  it("allows the Budget CSV's Blob download from the app's origin, and no other download", () => {
    expect(downloadBlocked(`blob:${APP_ORIGIN}/6f1c2a9e-0000-4000-8000-000000000000`)).toBe(false);
    expect(downloadBlocked('https://x.example/a.zip')).toBe(true);
    expect(downloadBlocked('blob:https://evil.example/6f1c2a9e')).toBe(true);
    expect(downloadBlocked(`${APP_ORIGIN}/index.html`)).toBe(true);
    expect(downloadBlocked('data:text/csv,a,b')).toBe(true);
  });
});
