/** What a SQLite or file-system failure of the store means, by its code (better-sqlite3 and Node both set `code`). */

/** A failure's own words, whatever was thrown. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

/** The file is damaged: no later attempt lands, and what it holds can no longer be trusted whole. */
export function isStoreDamage(e: unknown): boolean {
  return /^SQLITE_(CORRUPT|NOTADB)/.test(errorCode(e));
}

/** Failures that a later attempt may not meet (a lock, a full disk, a read-only file); anything else is a bug. */
export function isPassingStoreFailure(e: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL)/.test(errorCode(e));
}

/**
 * A file could not be created or written where it lies: a full disk or quota, a read-only or
 * locked-down folder. Says nothing of the data: freeing space or granting access lets it work.
 */
export function isWriteFailure(e: unknown): boolean {
  return /^(SQLITE_(FULL|READONLY|CANTOPEN|IOERR_(WRITE|FSYNC|TRUNCATE|DIR_FSYNC))|ENOSPC|EDQUOT|EROFS|EACCES|EPERM|EBUSY)/.test(errorCode(e));
}

/** Another connection holds the lock past our wait: every write would fail alike until it goes. */
export function isLockedOut(e: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED)/.test(errorCode(e));
}
