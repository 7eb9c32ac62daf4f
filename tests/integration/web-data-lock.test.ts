/** Issue 11 item 8: two browser-mode servers on one data folder would overwrite each other's files; the second is refused. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startWebServer } from '../../electron/web/server';
import type { RunningWebServer } from '../../electron/web/server';

describe('one app instance per data folder', () => {
  let dir: string;
  const servers: RunningWebServer[] = [];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'web-lock-'));
    mkdirSync(path.join(dir, 'renderer'));
    writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Partner Console</title>');
  });
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = () => startWebServer({ dataDir: path.join(dir, 'data'), rendererDir: path.join(dir, 'renderer'), embeddedSimulator: false, log: () => {} });

  it('refuses a second server on the same data folder, clearly, and frees the folder on stop', async () => {
    const first = await start();
    servers.push(first);
    await expect(start()).rejects.toThrow(/data folder .*data is in use by another run \(process \d+/);
    await first.stop();
    expect(existsSync(path.join(dir, 'data', 'instance.lock'))).toBe(false);
    servers.push(await start());
  });
});
