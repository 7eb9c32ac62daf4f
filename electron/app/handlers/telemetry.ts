/** budgetSnapshot (the client's model now), budgetHistory, requestLog, requestLogSpan, requestDetail. */
import { PartnerError } from '../../../shared/errors';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

export function telemetryHandlers(ctx: AppContext): HandlerGroup<'budgetSnapshot' | 'budgetHistory' | 'requestLog' | 'requestLogSpan' | 'requestDetail'> {
  return {
    async budgetSnapshot() {
      const session = ctx.currentSession();
      if (!session) return { vendor: null, buckets: [] };
      const buckets = session.client.budgetSnapshot().map((b) => ({
        endpoint: b.endpoint,
        limit: b.limit,
        remaining: b.remaining,
        pausedUntil: b.pausedUntil,
        resetAt: b.resetAt,
        queued: b.queued,
        inFlight: b.inFlight,
      }));
      return { vendor: session.profile.vendor, buckets };
    },
    budgetHistory: async ({ sinceMs }) => ctx.telemetry.budgetHistory(sinceMs),
    requestLog: async (filter) => ctx.telemetry.requestLog(filter),
    requestLogSpan: async ({ limit }) => ctx.telemetry.requestLogSpan(limit),
    async requestDetail({ id }) {
      const detail = ctx.telemetry.requestDetail(id);
      if (!detail) throw new PartnerError({ code: 'NOT_FOUND', message: `The request log no longer holds entry ${id}.`, retryable: false });
      return detail;
    },
  };
}
