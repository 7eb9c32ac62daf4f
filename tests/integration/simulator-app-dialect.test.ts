/**
 * The app's simulator controls switch the built-in demo's payload dialect (simSetDialect), and the
 * demo starts in the default dialect. Real app services on the embedded simulator, real HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';

let dir: string;
let app: AppServices;

async function call<N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await app.dispatch(name, request);
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as CallResponse<N>;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'app-dialect-'));
  app = await createAppServices({ shell: 'desktop', dataDir: dir, vault: memoryVault(), version: '0.0.0', openExternal: async () => {}, log: () => undefined });
});

afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('simSetDialect', () => {
  it('the demo starts in the default dialect; switching answers the new state and the simulator speaks it', async () => {
    const before = await call('simState', {});
    expect(before?.dialect).toBe('default');
    const after = await call('simSetDialect', { dialect: 'camel-minor' });
    expect(after.dialect).toBe('camel-minor');
    const page = await fetch(`${after.url}/assets/list?limit=2`, { headers: { Authorization: 'Bearer demo-token-1' } });
    const json = (await page.json()) as { items: unknown[]; hasMore: boolean };
    expect(json.items).toHaveLength(2);
    expect(json.hasMore).toBe(true);
  });

  it('refuses an unknown dialect at the bridge and changes nothing', async () => {
    const bad = await app.dispatch('simSetDialect', { dialect: 'xml' });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? null : bad.error.code).toBe('BAD_REQUEST');
    expect((await call('simState', {}))?.dialect).toBe('camel-minor');
    expect((await call('simSetDialect', { dialect: 'default' })).dialect).toBe('default');
  });
});
