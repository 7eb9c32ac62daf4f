/**
 * Starts browser mode as QA would: `npm run web` in its own process on a free loopback port with a
 * throw-away data folder; answers its URL (with the secret) and a stop that cleans up.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const URL_LINE = /Partner Console \(browser mode\): (\S+)/;
/** The CLI exits by itself within 5 s of SIGTERM (it says so and exits 1 past that). */
const STOP_WAIT_MS = 6000;

export interface BrowserMode {
  url: string;
  stop(): Promise<void>;
}

/**
 * `extraArgs`: e.g. ['--base-url', URL, '--token', 'VENDOR:TOKEN', '--no-simulator']. `dataDir`: a
 * data folder the caller owns (kept on stop, for a restart); default a throw-away one.
 */
export async function startBrowserMode(extraArgs: readonly string[] = [], options: { dataDir?: string } = {}): Promise<BrowserMode> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'partner-console-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/web/cli.ts', '--port', '0', '--no-open', '--data-dir', dataDir, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PARTNER_WEB_NO_BUILD: '1' },
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    // Its own shutdown (services disposed, data folder unlocked) ends by itself within 5 s; killed only past that.
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
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
    return { url, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
