/**
 * Seeds a data folder's usage history through the app's own store (LocalStore.openUsage, the
 * UsageStore API), before browser mode starts on it: yesterday's demo traffic with one spike.
 */
import { ENDPOINTS } from '../../shared/endpoints';
import { timerClock } from '../../shared/clock';
import { LocalStore } from '../../electron/store';
import { syntheticAggregate } from '../../electron/usage/synthetic-usage';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface SeededUsage {
  /** The spike on GET /assets/list: its first minute and length. */
  spikeStartMs: number;
  spikeMinutes: number;
  /** 429s in the spike (the only ones seeded). */
  spike429s: number;
  /** Requests seeded on GET /assets/list from `fromMs` (yesterday) up to `toMs`. */
  listRequests: number;
  fromMs: number;
  toMs: number;
}

/** 24 hours of quiet traffic ending 2 h ago (per minute, 10% of the limit) and a 10-minute spike 14 h ago. */
export function seedYesterday(dataDir: string, profileId = 'demo', vendor = 'demo', now = Date.now()): SeededUsage {
  const local = new LocalStore(dataDir);
  const usage = local.openUsage({ clock: timerClock });
  if (!usage) throw new Error(`the local store in ${dataDir} could not be opened: ${local.problem}`);
  const toMs = Math.floor((now - 2 * HOUR) / MINUTE) * MINUTE;
  const fromMs = toMs - 24 * HOUR;
  const spikeStartMs = Math.floor((now - 14 * HOUR) / MINUTE) * MINUTE;
  const spikeMinutes = 10;
  const spike429s = 7;
  let listRequests = 0;
  for (let t = fromMs; t < toMs; t += MINUTE) {
    const inSpike = t >= spikeStartMs && t < spikeStartMs + spikeMinutes * MINUTE;
    const list = syntheticAggregate(ENDPOINTS.listAssets, 60, inSpike ? { share: 0.95, throttled: t === spikeStartMs ? spike429s : 0, foreign: 40 } : { share: 0.1 });
    listRequests += list.requests;
    usage.recordAggregate({ profileId, vendor, endpoint: 'listAssets' }, t, list);
    usage.recordAggregate({ profileId, vendor, endpoint: 'purchaseInfo' }, t, syntheticAggregate(ENDPOINTS.purchaseInfo, 60, { share: 0.05 }));
  }
  // Rolled up and pruned now, as the app's schedule would have done by today.
  usage.downsample(now);
  local.close();
  return { spikeStartMs, spikeMinutes, spike429s, listRequests, fromMs, toMs };
}
