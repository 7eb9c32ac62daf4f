/**
 * How tokens are kept at rest. The desktop shell implements this with Electron's safeStorage
 * (the OS keychain); web mode and tests use the memory vault below. Everything else in the app
 * only ever stores `seal()`ed strings and calls `open()` when a client needs the plain token.
 */
import { randomBytes } from 'node:crypto';

export type TokenStorageKind = 'os-encrypted' | 'plaintext' | 'memory';

export interface TokenVault {
  kind: TokenStorageKind;
  /** To a storable string (base64). */
  seal(plain: string): string;
  /** Back to the plain token; throws when the sealed string cannot be opened. */
  open(sealed: string): string;
}

const MEMORY_PREFIX = 'mem:';

/**
 * Keeps tokens in this process only: the sealed form is a random handle, so a file written with it
 * holds no token at all (and cannot be opened after a restart, which is what "memory only" means).
 */
export function memoryVault(): TokenVault {
  const byHandle = new Map<string, string>();
  return {
    kind: 'memory',
    seal(plain: string): string {
      const handle = MEMORY_PREFIX + randomBytes(18).toString('base64');
      byHandle.set(handle, plain);
      return handle;
    },
    open(sealed: string): string {
      const plain = byHandle.get(sealed);
      if (plain === undefined) throw new Error('This token was kept in memory by an earlier run and is gone; enter it again.');
      return plain;
    },
  };
}
