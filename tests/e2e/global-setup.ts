/**
 * Starts browser mode once for the web specs, as QA would: `npm run web` in its own process on a
 * free loopback port with a throw-away data folder, and hands its URL (with the secret) to the specs.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';

const URL_LINE = /Partner Console \(browser mode\): (\S+)/;

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const webProject = config.projects.some((p) => p.name === 'web');
  if (!webProject || process.env.PARTNER_WEB_URL) return async () => {};
  const dataDir = mkdtempSync(join(tmpdir(), 'partner-console-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/web/cli.ts', '--port', '0', '--no-open', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PARTNER_WEB_NO_BUILD: '1' },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not print its URL in 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = URL_LINE.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited with ${code} before printing its URL:\n${output}`));
    });
  });
  process.env.PARTNER_WEB_URL = url;
  return async () => {
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
}
