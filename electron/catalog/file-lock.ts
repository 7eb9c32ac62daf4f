/**
 * An advisory lock held as a file (`<what>.lock`) that names its owner's process: two runs that
 * would write the same files (two `--resume` of one download, two web servers on one data folder)
 * refuse each other clearly instead of interleaving. A lock left by a process that is gone (kill -9)
 * is taken over; one held by a live process, or by another machine, is not.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PartnerError } from '../../shared/errors';

interface LockOwner {
  pid: number;
  host: string;
  since: string;
  /** The owner process's nonce: a restarted container reuses pids (the app is PID 1 again), never this. Absent in old lock files. */
  nonce?: string;
  /** This acquire's own token: release deletes only the lock it wrote. Absent in old lock files. */
  token?: string;
}

/** One per process, even if this module is loaded twice in it. */
const PROCESS_NONCE: string = ((globalThis as Record<symbol, unknown>)[Symbol.for('partner-console.file-lock.nonce')] ??= randomUUID()) as string;

/** Whether a process of this machine is running (EPERM: it is, under another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseOwner(text: string): LockOwner | null {
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    if (typeof parsed.pid !== 'number' || typeof parsed.host !== 'string') return null;
    const owner: LockOwner = { pid: parsed.pid, host: parsed.host, since: String(parsed.since ?? '') };
    if (typeof parsed.nonce === 'string') owner.nonce = parsed.nonce;
    if (typeof parsed.token === 'string') owner.token = parsed.token;
    return owner;
  } catch {
    return null;
  }
}

const readText = (path: string): Promise<string | null> => readFile(path, 'utf8').catch(() => null);

/**
 * Whether a lock's owner is gone: an unreadable record (an old version killed while writing it), a
 * process of this machine that no longer runs, or an earlier process that had this process's pid.
 */
function isStale(owner: LockOwner | null): boolean {
  if (owner === null) return true;
  if (owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return owner.nonce !== undefined && owner.nonce !== PROCESS_NONCE;
  return !processAlive(owner.pid);
}

/** File systems without hard links (FAT, exFAT, some network shares) answer link() with one of these. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Creates `path` holding `record`, or throws EEXIST: never seen empty or half written (a complete temp file is linked in). */
async function createWith(path: string, record: string, token: string): Promise<void> {
  const temp = `${path}.${token}.tmp`;
  await writeFile(temp, record, { flag: 'wx' });
  try {
    await link(temp, path);
    return;
  } catch (e) {
    if (!NO_HARD_LINKS.has((e as NodeJS.ErrnoException).code ?? '')) throw e;
  } finally {
    await rm(temp, { force: true });
  }
  // No hard links here: create then write, empty for the moment between the two.
  await writeFile(path, record, { flag: 'wx' });
}

export class FileLock {
  private released = false;
  private constructor(
    readonly path: string,
    private readonly token: string,
  ) {}

  /** Takes the lock or throws BAD_REQUEST naming the run that holds it. `what` says what is locked, in words. */
  static async acquire(path: string, what: string): Promise<FileLock> {
    for (let tries = 0; tries < 2; tries++) {
      const token = randomUUID();
      const owner: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), nonce: PROCESS_NONCE, token };
      try {
        await createWith(path, JSON.stringify(owner), token);
        return new FileLock(path, token);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const text = await readText(path);
      if (text === null) continue; // released meanwhile
      const held = parseOwner(text);
      if (held !== null && !isStale(held)) {
        const self = held.pid === process.pid && held.host === hostname() ? '; it is this process' : '';
        throw new PartnerError({
          code: 'BAD_REQUEST',
          retryable: false,
          message: `${what} is in use by another run (process ${held.pid} on ${held.host}, since ${held.since}${self}); refusing to run two at once.`,
          hint: `Wait for the other run to end, or stop it. If no such process exists, delete ${path}.`,
        });
      }
      // Remove only the stale record judged above, not one another run has put there since.
      if ((await readText(path)) === text) await rm(path, { force: true });
    }
    throw new PartnerError({
      code: 'BAD_REQUEST',
      retryable: false,
      message: `${what} was locked by another run at the same moment; refusing to run two at once.`,
    });
  }

  /** Deletes the lock file only if it is still this lock's (not one another run took over or wrote since). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    const text = await readText(this.path);
    if (text !== null && parseOwner(text)?.token === this.token) await rm(this.path, { force: true });
  }
}

export const DATA_DIR_LOCK = 'instance.lock';

/** The lock every app instance (desktop or web server) takes on its data folder. */
export async function lockDataDir(dataDir: string): Promise<FileLock> {
  await mkdir(dataDir, { recursive: true });
  return FileLock.acquire(join(dataDir, DATA_DIR_LOCK), `The data folder ${dataDir}`);
}
