/**
 * The advisory file lock on real files in a temp folder: a lock left by an earlier process that had this
 * process's pid (a restarted container) is taken over, this process's own lock is not, a lock file is
 * never seen empty, and release leaves a lock it does not own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLock } from '../../electron/catalog/file-lock';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const record = async (path: string): Promise<Record<string, unknown>> => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;

describe('FileLock', () => {
  it('takes over a lock left by an earlier process with this pid and host (another nonce), and writes its own record', async () => {
    const path = join(dir, 'cat.jsonl.lock');
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', nonce: 'an-earlier-process', token: 't' }));
    const lock = await FileLock.acquire(path, 'The download');
    const mine = await record(path);
    expect(mine).toMatchObject({ pid: process.pid, host: hostname() });
    expect(mine.nonce).not.toBe('an-earlier-process');
    expect(typeof mine.token).toBe('string');
    await lock.release();
    await expect(readFile(path)).rejects.toThrow();
  });

  it('refuses a second acquire within this process, and an old lock file (no nonce) naming this process', async () => {
    const path = join(dir, 'cat.jsonl.lock');
    const lock = await FileLock.acquire(path, 'The download');
    await expect(FileLock.acquire(path, 'The download')).rejects.toThrow(
      new RegExp(`in use by another run \\(process ${process.pid} on .*it is this process\\)`),
    );
    await lock.release();
    await writeFile(path, JSON.stringify({ pid: process.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z' }));
    await expect(FileLock.acquire(path, 'The download')).rejects.toThrow(/in use by another run/);
  });

  it('release leaves a lock file that another owner wrote', async () => {
    const path = join(dir, 'cat.jsonl.lock');
    const first = await FileLock.acquire(path, 'The download');
    // Someone deleted the first run's lock by hand and a second run took it.
    await rm(path);
    const second = await FileLock.acquire(path, 'The download');
    const secondRecord = await readFile(path, 'utf8');
    await first.release();
    expect(await readFile(path, 'utf8')).toBe(secondRecord);
    await expect(FileLock.acquire(path, 'The download')).rejects.toThrow(/in use by another run/);
    await second.release();
    await expect(readFile(path)).rejects.toThrow();
  });

  it('the lock file is complete from the first moment it exists (a reader never sees it empty)', async () => {
    const path = join(dir, 'cat.jsonl.lock');
    let seen: string | null = null;
    let done = false;
    const acquired = FileLock.acquire(path, 'The download').finally(() => {
      done = true;
    });
    // Spinning on the main thread holds the acquire's next step (its write after the file's creation)
    // while the thread pool creates the file: whatever is there when it first exists is what others see.
    while (seen === null && !done) {
      const until = Date.now() + 50;
      while (seen === null && Date.now() < until) if (existsSync(path)) seen = readFileSync(path, 'utf8');
      await new Promise((r) => setImmediate(r));
    }
    const lock = await acquired;
    expect(seen).not.toBeNull();
    expect(JSON.parse(seen!)).toMatchObject({ pid: process.pid, host: hostname() });
    await lock.release();
  });

  it('two acquires at once: exactly one holds the lock', async () => {
    for (let i = 0; i < 100; i++) {
      const path = join(dir, `l${i}.lock`);
      const results = await Promise.allSettled([FileLock.acquire(path, 'x'), FileLock.acquire(path, 'x')]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    }
  });
});
