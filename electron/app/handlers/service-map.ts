/**
 * A profile's service map: read it, save it (then the active session reconnects to use it), and
 * detect it with at most 3 probe requests (electron/service-map/probe.ts). Detection saves nothing:
 * Settings shows the proposal and the samples, and the user accepts or edits it.
 */
import { PartnerError } from '../../../shared/errors';
import type { ServiceMap } from '../../../shared/service-map/schema';
import { DEFAULT_SERVICE_MAP } from '../../../shared/service-map/schema';
import { PartnerClient } from '../../client';
import { redactValue } from '../../client/redact';
import type { Digits } from '../../../shared/json/as-digits';
import { probeService } from '../../service-map/probe';
import type { ProbeClient } from '../../service-map/probe';
import { profileServiceMap } from '../../service-map/profile-map';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

type Names = 'serviceMapGet' | 'serviceMapSave' | 'serviceMapDetect';

/** Tokens masked in whatever the app shows of a service's answer (services echo them). */
export function maskedAnswer<T>(ctx: AppContext, value: T): Digits<T> {
  // Ids past 2^53 leave as their digits (remembered, to go back as the service wrote them).
  return redactValue(ctx.ids.toBridge(value), [...ctx.store.knownTokens(), ...ctx.demo.tokens()]) as Digits<T>;
}

function noProfile(id: string): PartnerError {
  return new PartnerError({ code: 'NOT_FOUND', message: `No profile with id "${id}".`, retryable: false });
}

function mapOf(ctx: AppContext, profileId: string): { map: ServiceMap; source: 'default' | 'saved' | 'detected' } {
  if (ctx.demo.isDemo(profileId)) return { map: DEFAULT_SERVICE_MAP, source: 'default' };
  const record = ctx.store.get(profileId);
  if (!record) throw noProfile(profileId);
  return { map: profileServiceMap(record), source: !record.serviceMap ? 'default' : record.serviceMapDetected ? 'detected' : 'saved' };
}

/** The profile's connected client, or a short-lived one (a demo's simulator started and stopped as testConnection does). */
async function withClient<T>(ctx: AppContext, profileId: string, run: (client: ProbeClient) => Promise<T>): Promise<T> {
  const connected = ctx.pool.sessions().find((s) => s.profile.id === profileId);
  if (connected) return run(connected.client);
  return ctx.profiles.borrow(profileId, async ({ profile, tokens }) => {
    const client = new PartnerClient({
      baseUrl: profile.baseUrl,
      vendor: profile.vendor,
      tokens,
      fetch: ctx.fetch,
      budgets: ctx.budgets,
      stores: ctx.stores,
      timeoutMs: ctx.settings().timeoutMs,
      tokenPresentation: profile.tokenPresentation,
    });
    const unsubscribe = client.onSample((s) => ctx.recordSample(profileId, s));
    try {
      return await run(client);
    } finally {
      unsubscribe();
      client.close();
    }
  });
}

export function serviceMapHandlers(ctx: AppContext): HandlerGroup<Names> {
  return {
    serviceMapGet: async ({ profileId }) => mapOf(ctx, profileId),
    async serviceMapSave({ profileId, map, detected }) {
      if (ctx.demo.isDemo(profileId)) {
        throw new PartnerError({
          code: 'BAD_REQUEST',
          message: "The built-in demo profile's service map cannot be changed.",
          hint: 'Add a profile for the service and save the map there.',
          retryable: false,
        });
      }
      ctx.store.saveServiceMap(profileId, map, { detected: detected === true });
      await ctx.profileChanged(profileId, 'changed');
      return mapOf(ctx, profileId);
    },
    async serviceMapDetect({ profileId }) {
      const base = mapOf(ctx, profileId).map;
      const result = await withClient(ctx, profileId, (client) => probeService(client, { base }));
      return maskedAnswer(ctx, { ...result.proposal, samples: result.samples, requests: result.requests });
    },
  };
}
