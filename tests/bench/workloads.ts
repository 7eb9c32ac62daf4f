/** The work each benchmark scenario asks of a client: a sequential catalog download, or a flood. */
import type { EndpointId } from '../../shared/endpoints';
import { ENDPOINT_LIST } from '../../shared/endpoints';
import type { BenchCall, BenchClient, BenchOutcome } from './bench-client';

export interface Tally {
  /** Final outcomes that were not 429, each with its completion time (ms since the run started). */
  good: number;
  failed: number;
  waits: number[];
  finishedAt: number;
  /** The client was refused so often that the download was abandoned. */
  gaveUp: boolean;
}

function record(tally: Tally, outcome: BenchOutcome, t0: number): void {
  if (outcome.status >= 200 && outcome.status < 500 && outcome.status !== 429) tally.good++;
  else tally.failed++;
  tally.waits.push(outcome.waitedMs);
  tally.finishedAt = performance.now() - t0;
}

export const newTally = (): Tally => ({ good: 0, failed: 0, waits: [], finishedAt: 0, gaveUp: false });

/** A download refused this many times in a row is abandoned (a naive client can spin forever). */
const MAX_REFUSALS = 2_000;

/** Reads every page of /assets/list in sequence by last_id; a refused page is asked for again. */
export async function downloadCatalog(client: BenchClient, token: string, pageSize: number, t0: number, tally = newTally()): Promise<Tally> {
  let lastId: number | null = null;
  let refusals = 0;
  for (;;) {
    const query: Record<string, string | number> = { 'per-page': pageSize };
    if (lastId !== null) query.last_id = lastId;
    const outcome = await client.request('listAssets', { token, query });
    record(tally, outcome, t0);
    if (outcome.status !== 200) {
      if (++refusals > MAX_REFUSALS) {
        tally.gaveUp = true;
        return tally;
      }
      continue;
    }
    refusals = 0;
    const body = outcome.body as { items: { id: number }[]; has_more: boolean };
    const last = body.items.at(-1);
    if (!body.has_more || !last) return tally;
    lastId = last.id;
  }
}

/** A realistic request for each endpoint (purchase calls on a purchase made beforehand). */
export function callFor(endpoint: EndpointId, token: string, purchaseId: string): BenchCall {
  switch (endpoint) {
    case 'listAssets':
      return { token, query: { 'per-page': 20 } };
    case 'searchAssets':
      return { token, body: { query: 'stone', limit: 20 } };
    case 'assetHistory':
      return { token, body: { asset_id: 1000 } };
    case 'registerPurchase':
      return { token, body: { asset_id: 1000 } };
    case 'validatePurchase':
      return { token, body: { purchase_id: purchaseId } };
    case 'categories':
      return { token };
    default:
      return { token, query: { purchase_id: purchaseId } };
  }
}

/** Keeps every endpoint asking for more than its limit for `seconds`: `callers` loops per endpoint. */
export async function flood(
  client: BenchClient,
  token: string,
  purchaseId: string,
  seconds: number,
  callersPerEndpoint: number,
): Promise<Map<EndpointId, Tally>> {
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  const tallies = new Map<EndpointId, Tally>();
  const loops: Promise<void>[] = [];
  for (const spec of ENDPOINT_LIST) {
    const tally = newTally();
    tallies.set(spec.id, tally);
    for (let i = 0; i < callersPerEndpoint; i++) {
      loops.push(
        (async () => {
          while (performance.now() < end) {
            const outcome = await client.request(spec.id, callFor(spec.id, token, purchaseId));
            if (performance.now() <= end) record(tally, outcome, t0);
          }
        })(),
      );
    }
  }
  await Promise.all(loops);
  return tallies;
}

export function p95(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}
