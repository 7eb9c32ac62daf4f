/**
 * Settings shows the built-in demo's public tokens beside the demo profile: main sends their text for the
 * built-in demo alone. A real profile's token, even one with the same text, and any token the embedded
 * simulator was started with instead of the public ones, stay masked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { profileInputSchema, profileViewSchema } from '../../shared/bridge/schemas';
import { EmbeddedDemo } from '../../electron/app/embedded-demo';
import { memoryVault } from '../../electron/app/token-vault';
import { ProfileStore } from '../../electron/profiles';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('the built-in demo profile shows its public tokens', () => {
  it('sends the text of the public demo tokens for the demo profiles, masked beside it', () => {
    const demo = new EmbeddedDemo(true);
    const view = profileViewSchema.parse(demo.view('demo'));
    expect(view.tokens.map((t) => t.publicText)).toEqual(['demo-token-1', 'demo-token-2']);
    expect(view.tokens.every((t) => !t.masked.includes('demo-token-1'))).toBe(true);
    expect(demo.view('demo-acme').tokens.map((t) => t.publicText)).toEqual(['acme-token-1']);
  });

  it('never sends a real profile\u2019s token text, even when it is a demo token', () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-tokens-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = new ProfileStore({ dataDir: dir, vault: memoryVault() });
    const saved = store.save(
      profileInputSchema.parse({ name: 'My sim', vendor: 'demo', baseUrl: 'http://127.0.0.1:8700', addTokens: ['demo-token-1', 'real-secret-token-42'] }),
    );
    const listed = store.list();
    for (const view of [saved, ...listed]) {
      expect(view.demo).toBe(false);
      expect(view.tokens.every((t) => t.publicText === undefined)).toBe(true);
      expect(JSON.stringify(view)).not.toContain('real-secret-token-42');
      expect(JSON.stringify(view)).not.toContain('demo-token-1');
    }
  });

  it('keeps masked the tokens a simulator was started with in place of the public ones', async () => {
    const demo = new EmbeddedDemo(true, { tokens: [{ vendor: 'demo', token: 'private-sim-token-7' }] });
    cleanups.push(() => demo.stop());
    await demo.ensure();
    const view = demo.view('demo');
    expect(view.tokens).toHaveLength(1);
    expect(view.tokens[0]!.publicText).toBeUndefined();
    expect(JSON.stringify(view)).not.toContain('private-sim-token-7');
  });
});
