/**
 * Review s37 item 3: the export keeps every field of the service's items. A mapped value that could
 * not be read, and a field of the service whose name an export field takes (the map reads `id` from
 * `sku`), are kept as sent under `source`; a value that could not be read is warned about.
 * The catalog CLI on loopback, as a user runs it.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCatalogCli } from '../../electron/catalog/cli-main';
import { capturedIo } from '../helpers/catalog-cli-io';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';

type Item = Record<string, unknown>;

/** One page of the given items (a top-level `items`, the real next cursor, has_more false), then the end. */
async function itemService(items: Item[], idOf: (item: Item) => unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/assets/list') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    const page = url.searchParams.get('last_id') === null ? items : [];
    const last = page[page.length - 1];
    res.writeHead(200, { 'content-type': 'application/json', 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '49', 'x-rate-limit-reset': '0' });
    res.end(JSON.stringify({ items: page, last_id: last === undefined ? null : idOf(last), has_more: false, total: items.length }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const lines = async (path: string): Promise<Item[]> =>
  (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Item);

/** Each field of the service's item is in the line (under its own name, or the one the map reads it as), or kept under `source`, or a warning names it. */
function expectKept(sent: Item, line: Item, warnings: string[], readAs: Record<string, string> = {}): void {
  const source = (line['source'] ?? {}) as Item;
  for (const [key, value] of Object.entries(sent)) {
    const same = (v: unknown): boolean => JSON.stringify(v) === JSON.stringify(value);
    const kept = same(line[readAs[key] ?? key]) || same(source[key]);
    if (!kept) expect(warnings.join('\n'), `field ${key} of ${JSON.stringify(sent)} in ${JSON.stringify(line)}`).toContain(`\`${key}\``);
  }
}

let dir: string;
let service: { url: string; close: () => Promise<void> } | null = null;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-fields-'));
});
afterEach(async () => {
  await service?.close();
  service = null;
  await rm(dir, { recursive: true, force: true });
});

describe('the export keeps every field of the items', () => {
  it('values that could not be read (a title per language, a decimal comma) are kept as sent and warned about', async () => {
    const items = [1, 2, 3].map((id) => ({ id, title: { en: `Lamp ${id}`, de: `Lampe ${id}` }, category: 'fonts', price: '12,50' }));
    service = await itemService(items, (i) => i['id']);
    for (const detect of [[], ['--no-detect']]) {
      const run = capturedIo(dir);
      const out = `cat${detect.length}.jsonl`;
      const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--out', out, ...detect], run);
      expect(code).toBe(0);
      const warnings = (JSON.parse(run.out()) as { warnings: string[] }).warnings;
      const written = await lines(join(dir, out));
      expect(written).toHaveLength(3);
      written.forEach((line, i) => expectKept(items[i]!, line, warnings));
      expect(written[0]).toMatchObject({ id: 1, category: 'fonts', source: { title: { en: 'Lamp 1', de: 'Lampe 1' }, price: '12,50' } });
      // Detected, the map may leave them unnamed (kept, said so); the built-in map names them (not readable, said so).
      for (const key of ['title', 'price']) expect(warnings.join('\n')).toContain(`kept as sent under \`source.${key}\``);
      if (detect.length > 0) {
        expect(warnings.join('\n')).toMatch(/`title` could not be read as asset.title: kept as sent under `source.title`/);
        expect(warnings.join('\n')).toMatch(/`price` could not be read as asset.price: kept as sent under `source.price`/);
      }
      expect(run.err()).toMatch(/warning: .*`source.price`/);
    }
  });

  it("the service's own id and title stay beside a map that reads the id from sku and no title", async () => {
    const items = [{ sku: 'A1', id: 77, title: 'Lamp', price: 3 }];
    service = await itemService(items, (i) => i['sku']);
    const map = { ...DEFAULT_SERVICE_MAP, asset: { ...DEFAULT_SERVICE_MAP.asset, id: 'sku', title: null } };
    await writeFile(join(dir, 'map.json'), JSON.stringify(map));
    const run = capturedIo(dir);
    const code = await runCatalogCli(['--base-url', service.url, '--token', 'tok-1', '--out', 'cat.jsonl', '--service-map', 'map.json'], run);
    expect(code).toBe(0);
    const [line] = await lines(join(dir, 'cat.jsonl'));
    expect(line).toEqual({ id: 'A1', price: 3, source: { id: 77, title: 'Lamp' } });
    expectKept(items[0]!, line!, [], { sku: 'id' });
    const warnings = (JSON.parse(run.out()) as { warnings: string[] }).warnings.join('\n');
    expect(warnings).toContain(
      "The service's field `id` is kept as sent under `source.id`: the export's own `id` is the service map's asset.id, which reads `sku`.",
    );
    expect(warnings).toContain(
      "The service's field `title` is kept as sent under `source.title`: the export's own `title` is the service map's asset.title, which is not set.",
    );
  });
});
