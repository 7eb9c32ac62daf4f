/**
 * `npm run bench -- --only json` (issue 21 item 6): the exact JSON reader's cost per 100-item page
 * against V8's JSON.parse, with ordinary ids (the fast path: no 16-digit run) and with snowflake
 * ids (the scan, V8's parse and the restore walk); and the exact writer's cost per page of JSON
 * Lines against JSON.stringify.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseJsonExact } from '../../shared/json/parse-exact';
import { stringifyJsonExact } from '../../shared/json/stringify-exact';

const ITEMS = 100;
const ROUNDS = 2000;

/** A page in the simulator's shape; ids as given (number text). */
function page(idOf: (i: number) => string): string {
  const items = Array.from(
    { length: ITEMS },
    (_, i) =>
      `{"id":${idOf(i)},"title":"Asset ${i}: a reasonably long title for a catalog entry","category":"cat-${i % 7}","price":${(i * 1.37 + 0.99).toFixed(2)},"currency":"EUR","created_at":"2024-03-0${(i % 9) + 1}T10:00:00Z","tags":["alpha","beta"],"owner":{"name":"Vendor ${i % 5}","rating":4.5}}`,
  );
  return `{"items":[${items.join(',')}],"last_id":${idOf(ITEMS - 1)},"has_more":true,"total":100000}`;
}

/** Median microseconds of one call over ROUNDS calls (after a warm-up). */
function micros(run: () => unknown): number {
  for (let i = 0; i < 200; i++) run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]! * 1000;
}

export function jsonBench(): void {
  const plain = page((i) => String(100_000 + i));
  const snowflakes = page((i) => (1234567890123456789n + BigInt(i)).toString());
  const rows = [
    { what: 'read a page, ordinary ids', bytes: plain.length, native: micros(() => JSON.parse(plain)), exact: micros(() => parseJsonExact(plain)) },
    {
      what: 'read a page, snowflake ids',
      bytes: snowflakes.length,
      native: micros(() => JSON.parse(snowflakes)),
      exact: micros(() => parseJsonExact(snowflakes)),
    },
  ];
  const items = (parseJsonExact(snowflakes) as { items: unknown[] }).items;
  const plainItems = (JSON.parse(snowflakes) as { items: unknown[] }).items;
  rows.push({
    what: 'write a page as JSON Lines',
    bytes: items.reduce<number>((n, item) => n + (stringifyJsonExact(item)?.length ?? 0) + 1, 0),
    native: micros(() => plainItems.map((item) => JSON.stringify(item)).join('\n')),
    exact: micros(() => items.map((item) => stringifyJsonExact(item)).join('\n')),
  });
  console.log(`\n## Exact JSON (ids past 2^53), per ${ITEMS}-item page, median of ${ROUNDS}\n`);
  console.log('| step | bytes | V8 JSON (rounds ids) µs | exact µs | extra µs |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) console.log(`| ${r.what} | ${r.bytes} | ${r.native.toFixed(0)} | ${r.exact.toFixed(0)} | ${(r.exact - r.native).toFixed(0)} |`);
  writeFileSync('bench-results/json.json', JSON.stringify(rows, null, 2));
}
