/**
 * Which server's budget a sample of ours spent, and how many of our requests to that budget are in
 * flight, for the estimate of others' use (ForeignUseOptions.serverOf and inFlight). Servers are
 * named by their one spelling (normalizeBaseUrl), as the client's budgets are: two profiles spelling
 * one server two ways share one budget, so they must share one estimate, or each would take the
 * other's requests for another consumer's.
 */
import { normalizeBaseUrl } from '../../shared/base-url';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import type { ForeignUseOptions } from './foreign-use-bound';

/** A connected profile, as far as its server's budget goes. */
export interface ServerProfile {
  id: string;
  vendor: string;
  baseUrl: string;
}

export interface ForeignServersDeps {
  /** The connected profiles. */
  connected(): readonly ServerProfile[];
  /** A profile's base URL when it is not connected (a Test connection, a first contact); undefined: unknown. */
  savedBaseUrl(profileId: string): string | undefined;
  /** The profile whose client sent the sample; undefined: not ours to place. */
  profileOf(sample: BudgetSample): string | undefined;
  /** Our requests in flight to one budget (the client's budget registry, which every client of the process shares). */
  inFlightAt(server: string, vendor: string, endpoint: EndpointId): number;
}

/** The base URL in its one spelling (as stored when it is not a URL the client could use anyway). */
export function serverName(baseUrl: string): string {
  try {
    return normalizeBaseUrl(baseUrl);
  } catch {
    return baseUrl;
  }
}

export function foreignServers(deps: ForeignServersDeps): Required<Pick<ForeignUseOptions, 'inFlight' | 'serverOf'>> {
  return {
    serverOf: (sample) => {
      const profileId = deps.profileOf(sample);
      if (profileId === undefined) return null;
      const url = deps.connected().find((p) => p.id === profileId)?.baseUrl ?? deps.savedBaseUrl(profileId);
      return url === undefined ? null : serverName(url);
    },
    // The server known: its budget's own count, whoever sent them (a first contact's requests too, before its session is pooled).
    inFlight: (vendor, endpoint, server) => {
      if (server !== null) return deps.inFlightAt(server, vendor, endpoint);
      const servers = new Set(deps.connected().flatMap((p) => (p.vendor === vendor ? [serverName(p.baseUrl)] : [])));
      return [...servers].reduce((n, url) => n + deps.inFlightAt(url, vendor, endpoint), 0);
    },
  };
}
