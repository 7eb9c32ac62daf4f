/** A memory-only token from before a restart is listed as lost, so Settings can say "enter it again". */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { memoryVault } from '../../electron/app/token-vault';
import { ProfileStore } from '../../electron/profiles';
import { profileInputSchema } from '../../shared/bridge/schemas';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lost-token-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('lists the tokens the vault can no longer open, and only those', () => {
  const before = new ProfileStore({ dataDir: dir, vault: memoryVault() });
  const view = before.save(
    profileInputSchema.parse({ name: 'Acme', vendor: 'acme', baseUrl: 'https://partner.example.com/api', addTokens: ['tok-aaaaaaaaaaaa'] }),
  );
  expect(before.lostTokenIds(view.id)).toEqual([]);

  // A restart: the same data folder, a new memory vault.
  const after = new ProfileStore({ dataDir: dir, vault: memoryVault() });
  expect(after.lostTokenIds(view.id)).toEqual([view.tokens[0]!.id]);
  const again = after.save(
    profileInputSchema.parse({
      id: view.id,
      name: 'Acme',
      vendor: 'acme',
      baseUrl: 'https://partner.example.com/api',
      addTokens: ['tok-bbbbbbbbbbbb'],
      removeTokenIds: [view.tokens[0]!.id],
    }),
  );
  expect(after.lostTokenIds(again.id)).toEqual([]);
  expect(after.lostTokenIds('no-such-profile')).toEqual([]);
});
