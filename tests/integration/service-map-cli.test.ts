/**
 * The catalog command line with service maps, in process against the simulator over loopback:
 * --detect finds a dialect by itself, --service-map reads a file, and a page-size parameter the
 * service ignores is said on stderr and in the summary's warnings.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import type { CliIo } from '../../electron/catalog/cli-main';
import { startSimulator } from '../../electron/simulator';
import type { RunningSimulator } from '../../electron/simulator';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';

const SIZE = 260;
let dir: string;
let sim: RunningSimulator | null = null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'map-cli-'));
});
afterEach(async () => {
  await sim?.stop();
  sim = null;
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t), isTTY: false } as CliIo['stderr'],
    env: {},
    cwd: dir,
    onInterrupt: () => () => undefined,
  };
  const code = await runCatalogCli(['--base-url', sim!.url, '--token', 'demo-token-1', '--vendor', 'demo', ...args], io);
  return { code, stdout, stderr };
}

async function lines(file: string): Promise<Record<string, unknown>[]> {
  return (await readFile(join(dir, file), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('catalog CLI with service maps', () => {
  it('--detect: a dialect it was not told about is downloaded whole, with the detected map', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: 3, dialect: 'snake-envelope' });
    const r = await run(['--detect', '--out', 'cat.jsonl', '--page-size', '50']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/detected a service map with [1-3] requests/);
    const rows = await lines('cat.jsonl');
    expect(rows).toHaveLength(SIZE);
    expect(new Set(rows.map((x) => x.id)).size).toBe(SIZE);
    expect(typeof rows[0]!.title).toBe('string');
    const summary = JSON.parse(r.stdout) as { pages: number; warnings: string[] };
    expect(summary.pages).toBeLessThanOrEqual(Math.ceil(SIZE / 50) + 1);
    expect(
      summary.warnings.filter((w) => w.includes('page-size')),
      r.stderr,
    ).toEqual([]);
  }, 30_000);

  it('--service-map FILE: a page-size parameter the service ignores is a warning on stderr and in the summary', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: 3, dialect: 'camel-minor' });
    // The default dialect's map against camel-minor: its lists are read, but `per-page` is not its page size.
    const map = {
      ...DEFAULT_SERVICE_MAP,
      asset: { ...DEFAULT_SERVICE_MAP.asset, title: 'name', price: 'priceCents', priceUnit: 'minor', currency: 'currencyCode' },
    };
    await writeFile(join(dir, 'map.json'), JSON.stringify(map));
    const r = await run(['--service-map', 'map.json', '--out', 'cat.jsonl', '--page-size', '50']);
    expect(r.code, r.stderr).toBe(0);
    expect(await lines('cat.jsonl')).toHaveLength(SIZE);
    expect(r.stderr).toContain('warning: The page-size parameter `per-page` seems ignored');
    const summary = JSON.parse(r.stdout) as { warnings: string[] };
    expect(summary.warnings.some((w) => w.includes('list.pageSizeParam'))).toBe(true);
    const first = (await lines('cat.jsonl'))[0]!;
    expect(first.price).toBeLessThan(1000); // minor units read as major
  }, 30_000);

  it('--service-map with a broken file is a usage error that names the problem; nothing is sent', async () => {
    sim = await startSimulator({ catalogSize: SIZE, seed: 3 });
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ ...DEFAULT_SERVICE_MAP, list: { ...DEFAULT_SERVICE_MAP.list, pageSizeMax: 0 } }));
    const r = await run(['--service-map', 'bad.json', '--out', 'cat.jsonl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('list.pageSizeMax');
    expect((await run(['--service-map', 'missing.json'])).stderr).toContain('cannot read missing.json');
    expect((await run(['--service-map', 'bad.json', '--detect'])).code).toBe(2);
    expect(sim.control.counters().reduce((n, c) => n + c.count, 0)).toBe(0);
  });
});
