/** PartnerError constructors the client shares. Token scrubbing lives in ./redact. */
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { PartnerError } from '../../shared/errors';

export function label(endpoint: EndpointId): string {
  return ENDPOINTS[endpoint].label;
}

/** A call that waited its longest time in the queue without a free slot: nothing was sent. */
export function queueTimeoutError(endpoint: EndpointId, waitedMs: number): PartnerError {
  return new PartnerError({
    code: 'RATE_LIMITED',
    message: `${label(endpoint)}: no free slot of the shared budget after ${Math.round(waitedMs / 1000)} s in the queue; not sent.`,
    endpoint,
    retryable: true,
    hint: 'The budget is in heavy use (by this app or other consumers of the vendor): try again in a moment.',
  });
}

/** The fleet's budget store gave this call a slot further off than the call waits in a queue. */
export function slotTooFarError(endpoint: EndpointId, slotInMs: number, maxWaitMs: number): PartnerError {
  return new PartnerError({
    code: 'RATE_LIMITED',
    message: `${label(endpoint)}: the fleet's next free slot of the shared budget is ${Math.round(slotInMs / 1000)} s away, longer than this call waits (${Math.round(maxWaitMs / 1000)} s); not sent.`,
    endpoint,
    retryable: true,
    hint: "The vendor's workers that share the budget store have many requests queued: try again in a moment.",
  });
}

/** Words for a 429 the caller sees: say when the budget is taken by others. */
export function sharedBudgetError(e: PartnerError, consumers: number, vendor: string): PartnerError {
  if (consumers < 2) return e;
  const others = Math.max(1, Math.round(consumers - 1));
  return new PartnerError({
    ...e.data,
    message: `${e.message}. The budget is taken by other consumers of vendor ${vendor} (about ${others} other${others === 1 ? '' : 's'} share it).`,
    hint: 'Try again in a few seconds, when their use of the budget fades.',
  });
}

/** A background call stops waiting only when nobody's request of the bucket has gone through for a long time. */
export function stalledError(endpoint: EndpointId, e: PartnerError, stalledMs: number): PartnerError {
  return new PartnerError({
    ...e.data,
    message: `${label(endpoint)}: no request of this budget has gone through for anyone for ${Math.round(stalledMs / 60_000)} min; stopped waiting. ${e.message}`,
    hint: "The vendor's budget made no progress for a long time: check the service, then resume.",
  });
}

export function cancelledError(endpoint: EndpointId, why = 'The request was cancelled.'): PartnerError {
  return new PartnerError({ code: 'CANCELLED', message: `${label(endpoint)}: ${why}`, endpoint, retryable: true });
}
