import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => import('../fakes/electron'));

import { createSafeStorageVault } from '../../electron/shell/vault';
import { fakeElectron, safeStorage } from '../fakes/electron';

describe('safeStorage token vault', () => {
  beforeEach(() => fakeElectron.reset());

  it('seals with the OS keychain to base64 and opens it again', () => {
    const vault = createSafeStorageVault(safeStorage as never, 'linux');
    expect(vault.kind).toBe('os-encrypted');
    const sealed = vault.seal('secret-token');
    expect(sealed).not.toContain('secret-token');
    expect(Buffer.from(sealed, 'base64').toString()).toBe('sealed:secret-token');
    expect(vault.open(sealed)).toBe('secret-token');
  });

  it('reports plaintext when Linux has no secret service (basic_text)', () => {
    safeStorage.backend = 'basic_text';
    expect(createSafeStorageVault(safeStorage as never, 'linux').kind).toBe('plaintext');
    // The backend only means something on Linux.
    expect(createSafeStorageVault(safeStorage as never, 'darwin').kind).toBe('os-encrypted');
  });

  it('falls back to memory when encryption is unavailable', () => {
    safeStorage.available = false;
    const vault = createSafeStorageVault(safeStorage as never, 'linux');
    expect(vault.kind).toBe('memory');
    expect(vault.open(vault.seal('t'))).toBe('t');
  });

  it('throws when a sealed token cannot be opened, rather than returning garbage', () => {
    const vault = createSafeStorageVault(safeStorage as never, 'win32');
    expect(() => vault.open(Buffer.from('not ours').toString('base64'))).toThrow(/decrypt/);
  });
});
