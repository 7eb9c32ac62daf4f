/**
 * The desktop TokenVault over Electron's safeStorage: tokens at rest are sealed with the OS keychain
 * (macOS Keychain, Windows DPAPI, a Linux secret service). Two weaker cases are reported, not
 * hidden, so the UI can warn: Linux with no secret service ('basic_text': Chromium's hard-coded
 * password, i.e. effectively 'plaintext'), and no encryption at all ('memory': tokens are kept for
 * this run only). Must be built after the app's ready event (safeStorage needs it on Linux).
 *
 * TokenVault is synchronous, so this uses encryptString/decryptString (deprecated in favour of the
 * async pair in Electron 45, still present); moving to the async API needs an async TokenVault.
 */
import type { SafeStorage } from 'electron';
import { memoryVault } from '../app/token-vault';
import type { TokenVault } from '../app/token-vault';

type SafeStoragePort = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

export function createSafeStorageVault(safeStorage: SafeStoragePort, platform: NodeJS.Platform = process.platform): TokenVault {
  let available = false;
  try {
    available = safeStorage.isEncryptionAvailable();
  } catch {
    available = false;
  }
  if (!available) return memoryVault();
  const kind = platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text' ? 'plaintext' : 'os-encrypted';
  return {
    kind,
    seal: (plain) => safeStorage.encryptString(plain).toString('base64'),
    open: (sealed) => safeStorage.decryptString(Buffer.from(sealed, 'base64')),
  };
}
