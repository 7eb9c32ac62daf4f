/**
 * The "another consumer" banner's words: each shared endpoint with the others' rate beside its own limit
 * ("GET /assets/list about 18/s of 20"). One sum over endpoints means nothing against any one limit.
 */
import type { EndpointRow } from './budget-model';

/** "about 18/s": whole requests from 1/s up (it is an estimate), a decimal below. */
function aboutRate(rps: number): string {
  return `about ${rps >= 0.95 ? Math.round(rps) : rps.toFixed(1)}/s`;
}

/** The shared endpoints, in the table's order: "GET /assets/list about 18/s of 20, GET /assets/categories about 8/s of 20". */
export function othersPerEndpoint(rows: readonly Pick<EndpointRow, 'spec' | 'limit' | 'othersRps'>[]): string {
  return rows.map((r) => `${r.spec.label} ${aboutRate(r.othersRps)} of ${r.limit}`).join(', ');
}
