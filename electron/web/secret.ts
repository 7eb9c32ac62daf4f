/** The per-run secret of browser mode: made fresh each run, compared in constant time. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function createSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison; hashing first makes the lengths equal without leaking them. */
export function secretMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(expected, 'utf8').digest();
  const b = createHash('sha256').update(given, 'utf8').digest();
  return timingSafeEqual(a, b);
}
