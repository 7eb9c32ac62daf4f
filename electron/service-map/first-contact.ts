/**
 * First contact: a profile with no saved map is detected when it first connects (the same <= 3
 * probe requests as Settings' Detect), so that a real service is read right without a hidden click.
 * The map found is used at once and kept as "detected, not yet reviewed"; a saved map always wins
 * (this runs only without one), and the built-in demo keeps its known map (the caller skips it).
 */
import { toErrorData } from '../../shared/errors';
import type { Proposal } from '../../shared/service-map/detect';
import type { ServiceMap } from '../../shared/service-map/schema';
import { probeService } from './probe';
import type { ProbeClient } from './probe';

/** Below this, the list's items or the asset id were not found: the built-in shapes are no worse. */
export const FIRST_CONTACT_MIN_CONFIDENCE = 0.5;
/** Detection must not hold a connection for long: a service that does not answer keeps the built-in shapes for now. */
export const FIRST_CONTACT_TIMEOUT_MS = 20_000;

export type FirstContact = { map: ServiceMap; proposal: Proposal; requests: number } | { map: null; reason: string; requests: number };

export async function detectAtFirstContact(
  client: ProbeClient,
  base: ServiceMap,
  options: { timeoutMs?: number; search?: boolean } = {},
): Promise<FirstContact> {
  try {
    const signal = AbortSignal.timeout(options.timeoutMs ?? FIRST_CONTACT_TIMEOUT_MS);
    const { proposal, requests } = await probeService(client, { base, signal, ...(options.search === false ? { search: false } : {}) });
    if (proposal.confidence < FIRST_CONTACT_MIN_CONFIDENCE) {
      return {
        map: null,
        requests,
        reason: `detection was not sure enough (confidence ${proposal.confidence})${proposal.warnings.map((w) => `; ${w}`).join('')}`,
      };
    }
    return { map: proposal.map, proposal, requests };
  } catch (e) {
    return { map: null, requests: 0, reason: toErrorData(e).message };
  }
}
