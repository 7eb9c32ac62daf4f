/**
 * The report CLI reads the database read only: the file is also the purchase ledger, so the CLI never
 * migrates it, moves it aside or starts an empty one. A damaged file is a clear error, exit 1, and the
 * folder is left byte for byte; a database of an older schema is read as it is when it holds the usage
 * history, refused clearly when it is older than that.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runReportCli } from '../../electron/reports/cli-main';
import { MIGRATIONS, openDatabase, schemaVersion, STORE_FILE_NAME } from '../../electron/store';

const NOW = Date.parse('2026-11-21T12:00:00Z');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'report-read-only-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function report(): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runReportCli(['--profile', 'demo', '--from', '2026-11-20', '--time-zone', 'UTC', '--data-dir', dir], {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: {},
    cwd: dir,
    now: () => NOW,
  });
  return { code, stdout, stderr };
}

/** Every file of the folder with its bytes. */
function snapshot(): Record<string, string> {
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name)).toString('base64')]));
}

/** A database as an older app left it: only the first `versions` migrations, one ledger row. */
function olderDatabase(versions: number): void {
  const db = openDatabase(dir, { migrations: MIGRATIONS.slice(0, versions) }).db!;
  db.prepare(
    "INSERT INTO purchase_ledger (vendor, base_url, profile_id, asset_id, state, created_at, updated_at) VALUES ('demo', 'http://x', 'demo', 'a1', 'registered', 0, 0)",
  ).run();
  if (versions >= 2) {
    // As the app of that schema wrote it (this version's store writes columns a schema-2 file lacks): one answer, Remaining 5 of 10.
    for (const table of ['usage_second', 'usage_minute']) {
      db.prepare(
        `INSERT INTO ${table} (profile_id, vendor, endpoint, start_ms, requests, throttled, failures, lowest_remaining, use_sum, use_count, use_peak, waited_ms, foreign_requests, latency)
         VALUES ('demo', 'demo', 'listAssets', ?, 1, 0, 0, 5, 0.5, 1, 0.5, 0, 0, '[1]')`,
      ).run(Date.parse(table === 'usage_second' ? '2026-11-20T09:00:05Z' : '2026-11-20T09:00:00Z'));
    }
  }
  db.close();
}

/** The schema version and ledger rows, read afterwards. */
function stored(): { version: number; ledger: number } {
  const db = new Database(join(dir, STORE_FILE_NAME), { readonly: true });
  const ledger = (db.prepare('SELECT COUNT(*) AS n FROM purchase_ledger').get() as { n: number }).n;
  const version = schemaVersion(db);
  db.close();
  return { version, ledger };
}

describe('the report CLI opens the database read only', () => {
  it('refuses a damaged file with exit 1 and leaves the folder as it was', async () => {
    writeFileSync(join(dir, STORE_FILE_NAME), Buffer.from('this is not a SQLite database, but it could be a ledger someone needs '.repeat(64)));
    const before = snapshot();
    const r = await report();
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^report: .*partner-console\.db is damaged or not a Partner Console database .*left as it is/);
    expect(r.stdout).toBe('');
    expect(snapshot()).toEqual(before);
  });

  it('reads a database of an older schema that has the usage history, without migrating it', async () => {
    olderDatabase(2);
    const r = await report();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('2026-11-20,listAssets,1,');
    // Its mean use is the older per-answer measure, and the CSV says so.
    expect(r.stdout).toMatch(/2026-11-20,listAssets,1,50\.0,50\.0,.*,older_per_answer,\r\n/);
    expect(stored()).toEqual({ version: 2, ledger: 1 });
  });

  it('refuses a database from before the usage history, without migrating it', async () => {
    olderDatabase(1);
    const main = readFileSync(join(dir, STORE_FILE_NAME));
    const r = await report();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/older schema \(1\) without usage_second, usage_minute, usage_hour\. Open the app once/);
    expect(readFileSync(join(dir, STORE_FILE_NAME)).equals(main)).toBe(true);
    expect(stored()).toEqual({ version: 1, ledger: 1 });
  });
});
