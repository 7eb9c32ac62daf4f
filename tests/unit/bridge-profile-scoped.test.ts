/**
 * Issue 21 §2, the contract: every call that works on a vendor's session names the profile the page
 * showed, and its handler asks for that profile's session (never "whichever is active now").
 * The list is tests/helpers/profile-scoped-calls.ts; a new session call that is not listed, or a
 * listed one whose schema or handler forgets the profile, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CALL_NAMES, calls } from '../../shared/bridge/contract';
import type { CallName } from '../../shared/bridge/contract';
import { profileScoped } from '../../shared/bridge/profile-scoped';
import type { ProfileScoped } from '../../shared/bridge/profile-scoped';
import { createHandlers } from '../../electron/app/handlers';
import type { AppContext, CallHandlers } from '../../electron/app/handlers';
import { PROFILE_SCOPED_CALLS, PROFILE_SCOPED_EXAMPLES } from '../helpers/profile-scoped-calls';

const HANDLERS_DIR = join(__dirname, '../../electron/app/handlers');
const handlerSources = readdirSync(HANDLERS_DIR)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f, text: readFileSync(join(HANDLERS_DIR, f), 'utf8') }));

const shapeOf = (name: CallName): Record<string, unknown> | null => {
  const request = calls[name].request as unknown as Partial<z.ZodObject>;
  return request.shape ?? null;
};
const usesProfileScoped = (name: CallName): boolean => shapeOf(name)?.profileId === profileScoped.shape.profileId;

describe('the contract: vendor-scoped calls name the profile the page showed', () => {
  it.each(PROFILE_SCOPED_CALLS)('%s requires profileId (the shared profileScoped piece)', (name) => {
    expect(usesProfileScoped(name)).toBe(true);
    const schema = calls[name].request;
    const example = PROFILE_SCOPED_EXAMPLES[name];
    expect(schema.safeParse({ ...example, profileId: 'p_shown' }).success).toBe(true);
    for (const without of [example, { ...example, profileId: '' }, { ...example, profileId: '   ' }, { ...example, profileId: null }]) {
      const parsed = schema.safeParse(without);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain('profileId');
    }
  });

  it('no call outside the list takes the shared piece: the list and the contract agree', () => {
    const scoped = CALL_NAMES.filter(usesProfileScoped).sort();
    expect(scoped).toEqual([...PROFILE_SCOPED_CALLS].sort());
  });
});

describe('the handlers: a session only by the request profileId', () => {
  it('no handler asks for a session without naming the profile', () => {
    for (const { file, text } of handlerSources) {
      // ctx.session(scope), the request's profile scope passed whole, is the one way in; `ctx.session()` was "whichever is active".
      expect([...text.matchAll(/\bctx\.session\(([^)]*)\)/g)].map((m) => `${file}: ${m[0]}`).filter((s) => !s.endsWith('ctx.session(scope)'))).toEqual([]);
      // The active session is for what shows the active profile itself (its budget, the demo's controls), not vendor data.
      if (/\bctx\.currentSession\(/.test(text)) expect(['telemetry.ts', 'simulator.ts']).toContain(file);
      // The pool's own lookup falls back to the active profile without an id: handlers go through ctx.session.
      expect(text).not.toMatch(/\bctx\.pool\.(sessionFor|active)\(/);
    }
  });

  it('every listed handler asks for the session of the profile in its request, even while another is active', async () => {
    const asked: string[] = [];
    const unreached = () => {
      throw new Error('reached without a session');
    };
    const refused = new Error('the fake context has no sessions');
    const record = {
      id: 1,
      vendor: 'acme',
      baseUrl: 'http://x',
      profileId: 'p_shown',
      assetId: '1',
      assetTitle: null,
      reference: 'pc-1',
      purchaseId: null,
      state: 'unknown',
    };
    const ctx = {
      session: (scope: ProfileScoped) => {
        asked.push(`${scope.profileId} shown at ${scope.shownAt?.vendor}`);
        throw refused;
      },
      currentSession: () => {
        throw new Error('asked for the active session');
      },
      sessionFor: () => {
        throw new Error('asked for the active session');
      },
      connection: { current: () => ({ profileId: 'p_active' }) },
      local: { available: true, problem: null, ledger: () => ({ get: () => record, refuseInFlight: () => undefined }) },
      settings: () => ({ downloadDir: '/nonexistent' }),
      downloads: { start: unreached, resume: unreached },
    } as unknown as AppContext;
    const handlers = createHandlers(ctx) as unknown as Record<string, (request: unknown) => Promise<unknown>>;
    for (const name of PROFILE_SCOPED_CALLS) {
      asked.length = 0;
      const request = calls[name].request.parse({ ...PROFILE_SCOPED_EXAMPLES[name], profileId: 'p_shown', shownAt: { vendor: 'acme', baseUrl: 'http://x' } });
      // Some handlers throw before their first await: run each as the dispatcher does.
      await expect(
        Promise.resolve().then(() => handlers[name]!(request)),
        name,
      ).rejects.toBe(refused);
      // The scope whole: where the page saw the profile point goes with it.
      expect(asked, name).toEqual(['p_shown shown at acme']);
    }
    expect(Object.keys(handlers).sort()).toEqual([...CALL_NAMES].sort() satisfies (keyof CallHandlers)[]);
  });
});
