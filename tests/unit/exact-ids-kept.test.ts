/** ExactIds with the local store (a real SQLite file): the ledger's service key, and the catalog's reading over a purchase answer's. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Sqlite from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ExactIds } from '../../electron/app/exact-ids';
import { IdKindStore, openDatabase } from '../../electron/store';
import { NumberText } from '../../shared/json/number-text';

let dir: string;
let db: Sqlite.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'exact-ids-'));
  db = openDatabase(dir).db!;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const demo = { vendor: 'demo', baseUrl: 'https://a.example' };
const spelt = [
  { vendor: ' Demo ', baseUrl: 'https://a.example' },
  { vendor: 'ＤＥＭＯ', baseUrl: 'https://a.example/' },
];

it('knows one vendor at one service however its label and base URL are spelt, as the ledger does', () => {
  const ids = new ExactIds(new IdKindStore(db));
  ids.noteRead(demo, [42, new NumberText('9007199254740993')]);
  for (const other of spelt) {
    expect(ids.fromBridge(other, '42')).toBe(42);
    expect(ids.fromBridge(other, '9007199254740993')).toEqual(new NumberText('9007199254740993'));
  }
  // And from the local store, after a restart.
  new ExactIds(new IdKindStore(db)).noteAnswered(demo, 43);
  for (const other of spelt) expect(new ExactIds(new IdKindStore(db)).fromBridge(other, '43')).toBe(43);
});

it("a purchase answer's id kind does not overrule the catalog's, in this session or after a restart", () => {
  const ids = new ExactIds(new IdKindStore(db));
  ids.noteRead(demo, [42, 44]);
  // This service's purchase API writes its asset ids as strings.
  ids.noteAnswered(demo, '42');
  ids.noteAnswered(demo, '43');
  expect(ids.fromBridge(demo, '42')).toBe(42);
  expect(ids.fromBridge(demo, '43')).toBe(43);
  ids.noteSent(demo, '44');
  const restarted = new ExactIds(new IdKindStore(db));
  // 44 was registered from the Catalog: its kind there was kept.
  expect(restarted.fromBridge(demo, '44')).toBe(44);
  restarted.noteAnswered(demo, '44');
  expect(new ExactIds(new IdKindStore(db)).fromBridge(demo, '44')).toBe(44);
  // No catalog read since the restart: the purchase answer's kind is all there is.
  expect(restarted.fromBridge(demo, '42')).toBe('42');
  restarted.noteRead(demo, [45]);
  expect(restarted.fromBridge(demo, '42')).toBe(42);
});

it('keeps the big-integer path: digits past 2^53 read as a number go out as the same exact digits', () => {
  const ids = new ExactIds(new IdKindStore(db));
  ids.noteRead(demo, [new NumberText('1234567890123456789')]);
  ids.noteSent(demo, '1234567890123456789');
  expect(new ExactIds(new IdKindStore(db)).fromBridge(demo, '1234567890123456789')).toEqual(new NumberText('1234567890123456789'));
});
