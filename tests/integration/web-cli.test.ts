/** `npm run web` as a process: the one URL line, a working bridge behind it, a clean stop, usage errors. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { URL_LINE_PREFIX } from '../../electron/web/protocol';

const CLI = path.resolve(__dirname, '..', '..', 'electron', 'web', 'cli.ts');

function runCli(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', PARTNER_CONSOLE_TOKENS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitFor<T>(read: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The one URL line the server prints once it listens, and the URL in it. */
async function printedUrl(run: ReturnType<typeof runCli>): Promise<{ line: string; url: URL }> {
  const line = await waitFor(
    () =>
      run
        .stdout()
        .split('\n')
        .find((l) => l.startsWith(URL_LINE_PREFIX)),
    20_000,
    'the URL line',
  );
  return { line, url: new URL(line.slice(URL_LINE_PREFIX.length).trim()) };
}

describe('npm run web (the CLI)', () => {
  let dir: string;
  let running: ReturnType<typeof runCli> | null = null;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'partner-web-cli-'));
    mkdirSync(path.join(dir, 'renderer'));
    writeFileSync(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>Partner Console</title>');
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints one URL line, serves the app and the bridge behind it, and stops cleanly on SIGTERM', async () => {
    running = runCli(['--no-open', '--data-dir', path.join(dir, 'data'), '--renderer-dir', path.join(dir, 'renderer')]);
    const { line, url } = await printedUrl(running);
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.hash).toMatch(/^#secret=[A-Za-z0-9_-]{43}$/);
    expect(running.stdout().trim().split('\n')).toEqual([line]);
    expect(running.stderr()).not.toMatch(/browser/); // --no-open: not even tried

    const page = await fetch(`${url.origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Partner Console');

    const secret = url.hash.slice('#secret='.length);
    const socket = new WebSocket(`ws://${url.host}/bridge?secret=${secret}`, { origin: url.origin });
    const answer = await new Promise<string>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ t: 'call', id: 1, name: 'appInfo', request: {} })));
      socket.on('message', (data) => {
        const text = data.toString();
        if (text.includes('"t":"result"')) resolve(text);
      });
    });
    expect(JSON.parse(answer)).toMatchObject({ t: 'result', id: 1, result: { ok: true, value: { shell: 'web' } } });
    socket.close();

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  });

  it('serves on, and stops cleanly, once nobody reads its log (stderr closed, as `2>&1 | head -1` leaves it)', async () => {
    const data = path.join(dir, 'data');
    running = runCli(['--no-open', '--data-dir', data, '--renderer-dir', path.join(dir, 'renderer')]);
    const { url } = await printedUrl(running);
    running.child.stderr!.destroy();
    // A refused bridge connection makes the server log a line: to the closed stderr.
    const refused = new WebSocket(`ws://${url.host}/bridge?secret=wrong`, { origin: url.origin });
    await new Promise<void>((resolve) => {
      refused.once('error', () => resolve());
      refused.once('close', () => resolve());
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const page = await fetch(`${url.origin}/`, { signal: AbortSignal.timeout(5_000) });
    expect(page.status).toBe(200);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(existsSync(path.join(data, 'instance.lock'))).toBe(false);
  });

  it('refuses a bad flag with the usage text and exit code 2', async () => {
    running = runCli(['--port', 'eighty']);
    expect(await running.exited).toBe(2);
    expect(running.stderr()).toMatch(/--port needs a whole number/);
    expect(running.stderr()).toMatch(/Usage: npm run web/);
    expect(running.stdout()).toBe('');
  });
});
