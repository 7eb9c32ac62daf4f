/** The simulator CLI as a process (its bundle: tests/helpers/cli-bundles.ts; npm run sim runs the same source with tsx): --port 0 prints the real URL, flags take effect, signals stop it, bad flags exit 2. */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_CLI_BUNDLE } from '../helpers/cli-bundles';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

function run(args: string[]): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [SIMULATOR_CLI_BUNDLE, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function urlOf(p: ReturnType<typeof run>): Promise<string> {
  const end = Date.now() + 20_000;
  for (;;) {
    const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(p.output());
    if (m?.[1]) return m[1];
    if (p.child.exitCode !== null || Date.now() > end) throw new Error(`no URL printed:\n${p.output()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('simulator CLI', () => {
  it('--port 0 prints the real URL, the refill model, catalog size, tokens and a curl line; SIGTERM stops it cleanly', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sim-cli-'));
    try {
      const file = join(dir, 'tokens.txt');
      await writeFile(file, '# test vendors\nalpha:a-1\nalpha:a-2\nbeta:b-1\n');
      const p = run(['--port', '0', '--refill', 'continuous', '--catalog-size', '321', '--tokens-file', file, '--compete', 'beta:categories:2']);
      const url = await urlOf(p);
      await new Promise((r) => setTimeout(r, 50));
      const out = p.output();
      expect(out).toContain('refill model: continuous');
      expect(out).toContain('catalog: 321 assets');
      expect(out).toContain('alpha: a-1, a-2');
      expect(out).toContain('beta: b-1');
      expect(out).toContain(`curl -i -H "Authorization: Bearer a-1" "${url}/assets/list?per-page=5"`);
      expect(out).not.toContain('demo-token-1');

      const page = await fetch(`${url}/assets/list?per-page=5`, { headers: { Authorization: 'Bearer a-2' } });
      expect(page.status).toBe(200);
      expect(((await page.json()) as { total: number }).total).toBe(321);
      expect((await fetch(`${url}/assets/list`, { headers: { Authorization: 'Bearer demo-token-1' } })).status).toBe(401);
      const state = (await (await fetch(`${url}/_sim/state`)).json()) as { competitors: unknown[]; refill: string };
      expect(state).toMatchObject({ refill: 'continuous', competitors: [{ vendor: 'beta', endpoint: 'categories', rps: 2 }] });

      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
      expect(p.output()).toContain('stopping');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--dialect NAME serves that dialect and says so, with a curl line in its own page-size parameter', async () => {
    const p = run(['--port', '0', '--dialect', 'snake-envelope', '--catalog-size', '30']);
    const url = await urlOf(p);
    await new Promise((r) => setTimeout(r, 50));
    expect(p.output()).toContain('payload dialect: snake-envelope');
    expect(p.output()).toContain(`"${url}/assets/list?page_size=5"`);
    const page = await fetch(`${url}/assets/list?page_size=5`, { headers: { Authorization: 'Bearer demo-token-1' } });
    const json = (await page.json()) as { status: string; result: { records: unknown[]; paging: { total: number } } };
    expect(json.status).toBe('ok');
    expect(json.result.records).toHaveLength(5);
    expect(json.result.paging.total).toBe(30);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('SIGINT stops it too, with a kept-alive connection open', async () => {
    const p = run(['--port', '0', '--token', 'v:t']);
    const url = await urlOf(p);
    expect((await fetch(`${url}/assets/categories`, { headers: { Authorization: 'Bearer t' } })).status).toBe(200);
    p.child.kill('SIGINT');
    expect(await p.exited).toBe(0);
  });

  it('a bad flag: a clear message, the usage, exit code 2 (every flag check is unit-tested in simulator-config)', async () => {
    const p = run(['--compete', 'demo:nope:1']);
    expect(await p.exited).toBe(2);
    expect(p.output()).toMatch(/^sim: unknown endpoint "nope"/);
    expect(p.output()).toContain('Usage: npm run sim');
  });
});
