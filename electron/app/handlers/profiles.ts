/** Profiles, settings, app info and the connection. The built-in demo profiles are listed but cannot be edited. */
import type { BudgetSample } from '../../../shared/rate-limit';
import { PartnerError, toErrorData } from '../../../shared/errors';
import { PartnerClient } from '../../client';
import { sameConnection } from '../../profiles';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

type Names = 'listProfiles' | 'saveProfile' | 'removeProfile' | 'selectProfile' | 'testConnection' | 'getSettings' | 'saveSettings' | 'appInfo' | 'connection';

const TEST_TIMEOUT_MS = 10_000;

function demoIsReadOnly(): PartnerError {
  return new PartnerError({
    code: 'BAD_REQUEST',
    message: 'The built-in demo profiles cannot be changed or removed.',
    hint: 'Add a new profile for your own service instead.',
    retryable: false,
  });
}

export function profileHandlers(ctx: AppContext): HandlerGroup<Names> {
  /** One cheap request (categories) with the profile's first token, never retried. */
  function testConnection(id: string) {
    // A simulator started for the test stops afterwards unless a demo profile is connected.
    return ctx.profiles.borrow(id, async ({ profile, tokens }) => {
      const first = tokens[0];
      if (first === undefined) throw new PartnerError({ code: 'BAD_REQUEST', message: 'This profile has no token to test.', retryable: false });
      let sample: BudgetSample | null = null;
      const client = new PartnerClient({
        baseUrl: profile.baseUrl,
        vendor: profile.vendor,
        tokens: [first],
        fetch: ctx.fetch,
        budgets: ctx.budgets,
        stores: ctx.stores,
        timeoutMs: Math.min(TEST_TIMEOUT_MS, ctx.settings().timeoutMs),
        retry: { maxAttempts: 1 },
        tokenPresentation: profile.tokenPresentation,
      });
      const unsubscribe = client.onSample((s) => {
        sample = s;
        ctx.recordSample(id, s);
      });
      try {
        const res = await client.request('categories', { priority: 'interactive' });
        return {
          ok: true,
          status: res.status,
          latencyMs: res.sample.latencyMs,
          limit: res.rateLimit.limit,
          remaining: res.rateLimit.remaining,
          reset: res.rateLimit.reset,
          error: null,
        };
      } catch (e) {
        const error = toErrorData(e);
        const s = sample as BudgetSample | null;
        return {
          ok: false,
          status: error.status ?? s?.status ?? 0,
          latencyMs: s?.latencyMs ?? 0,
          limit: s?.limit ?? null,
          remaining: s?.remaining ?? null,
          reset: s?.reset ?? null,
          error,
        };
      } finally {
        unsubscribe();
        client.close();
      }
    });
  }

  return {
    async listProfiles() {
      // A token the vault cannot open says so here, before a test blames the service for it.
      const stored = ctx.store.list().map((p) => {
        const lost = ctx.store.lostTokenIds(p.id);
        return lost.length === 0 ? p : { ...p, tokens: p.tokens.map((t) => (lost.includes(t.id) ? { ...t, lost: true } : t)) };
      });
      const items = [...ctx.demo.views(), ...stored];
      return { items, activeId: ctx.connection.current().profileId };
    },
    async saveProfile(input) {
      if (input.id !== undefined && ctx.demo.isDemo(input.id)) throw demoIsReadOnly();
      const before = input.id === undefined ? undefined : ctx.store.get(input.id);
      const view = ctx.store.save(input);
      const after = ctx.store.get(view.id);
      await ctx.profileChanged(view.id, before && after && sameConnection(before, after) ? 'renamed' : 'changed');
      return view;
    },
    async removeProfile({ id }) {
      if (ctx.demo.isDemo(id)) throw demoIsReadOnly();
      ctx.store.remove(id);
      await ctx.profileChanged(id, 'removed');
      return { ok: true as const };
    },
    selectProfile: ({ id }) => ctx.select(id),
    testConnection: ({ id }) => testConnection(id),
    getSettings: async () => ctx.settings(),
    saveSettings: async (patch) => ctx.store.saveSettings(patch),
    appInfo: async () => ({
      shell: ctx.env.shell,
      version: ctx.env.version,
      tokenStorage: ctx.env.vault.kind,
      settingsProblem: ctx.store.settingsProblem,
    }),
    connection: async () => ctx.connection.current(),
  };
}
