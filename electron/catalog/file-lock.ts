/**
 * An advisory lock held as a file (`<what>.lock`) that names its owner's process: two runs that
 * would write the same files (two `--resume` of one download, two web servers on one data folder)
 * refuse each other clearly instead of interleaving. A lock left by a process that is gone (kill -9)
 * is taken over; one held by a live process, or by another machine, is not.
 */
import { hostname } from 'node:os';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PartnerError } from '../../shared/errors';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

/** Whether a process of this machine is running (EPERM: it is, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string' ? { pid: parsed.pid, host: parsed.host, since: String(parsed.since ?? '') } : null;
  } catch {
    return null;
  }
}

export class FileLock {
  private released = false;
  private constructor(readonly path: string) {}

  /** Takes the lock or throws BAD_REQUEST naming the run that holds it. `what` says what is locked, in words. */
  static async acquire(path: string, what: string): Promise<FileLock> {
    for (let tries = 0; tries < 2; tries++) {
      try {
        const handle = await open(path, 'wx');
        const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
        await handle.writeFile(JSON.stringify(owner));
        await handle.close();
        return new FileLock(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const owner = await readOwner(path);
      // A torn lock file (killed while writing it) or one whose process is gone on this machine is stale.
      const stale = owner === null || (owner.host === hostname() && !processAlive(owner.pid));
      if (!stale) {
        throw new PartnerError({
          code: 'BAD_REQUEST',
          retryable: false,
          message: `${what} is in use by another run (process ${owner.pid} on ${owner.host}, since ${owner.since}); refusing to run two at once.`,
          hint: `Wait for the other run to end, or stop it. If no such process exists, delete ${path}.`,
        });
      }
      await rm(path, { force: true });
    }
    throw new PartnerError({
      code: 'BAD_REQUEST',
      retryable: false,
      message: `${what} was locked by another run at the same moment; refusing to run two at once.`,
    });
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    await rm(this.path, { force: true });
  }
}

export const DATA_DIR_LOCK = 'instance.lock';

/** The lock every app instance (desktop or web server) takes on its data folder. */
export async function lockDataDir(dataDir: string): Promise<FileLock> {
  await mkdir(dataDir, { recursive: true });
  return FileLock.acquire(join(dataDir, DATA_DIR_LOCK), `The data folder ${dataDir}`);
}
