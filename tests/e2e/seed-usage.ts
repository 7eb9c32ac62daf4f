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
    const list = syntheticAggregate(
      ENDPOINTS.listAssets,
      60,
      inSpike ? { share: 0.95, throttled: t === spikeStartMs ? spike429s : 0, foreign: 40 } : { share: 0.1 },
    );
    listRequests += list.requests;
    usage.recordAggregate({ profileId, vendor, endpoint: 'listAssets' }, t, list);
    usage.recordAggregate({ profileId, vendor, endpoint: 'purchaseInfo' }, t, syntheticAggregate(ENDPOINTS.purchaseInfo, 60, { share: 0.05 }));
  }
  // Rolled up and pruned now, as the app's schedule would have done by today.
  usage.downsample(now);
  local.close();
  return { spikeStartMs, spikeMinutes, spike429s, listRequests, fromMs, toMs };
}

/**
 * The last `hours` of a working day (per minute, up to the minute before `now`): the catalog busy at a
 * third to half of its limits, purchases light, and half an hour in which another consumer squeezes
 * /assets/categories (its use recorded, with a few 429s). For the 6 h screenshots.
 */
export function seedRecentHours(dataDir: string, hours = 6, profileId = 'demo', vendor = 'demo', now = Date.now()): void {
  const local = new LocalStore(dataDir);
  const usage = local.openUsage({ clock: timerClock });
  if (!usage) throw new Error(`the local store in ${dataDir} could not be opened: ${local.problem}`);
  const toMs = Math.floor(now / MINUTE) * MINUTE - MINUTE;
  const fromMs = toMs - hours * HOUR;
  const squeezeFrom = toMs - 3 * HOUR;
  const squeezeTo = squeezeFrom + 30 * MINUTE;
  for (let t = fromMs; t < toMs; t += MINUTE) {
    // A slow swell over the hours and a ripple within each, so the charts have a shape to read.
    const phase = (t - fromMs) / HOUR;
    const swell = 0.35 + 0.12 * Math.sin(phase * 0.9) + 0.05 * Math.sin(phase * 7);
    const squeezed = t >= squeezeFrom && t < squeezeTo;
    const rows: [keyof typeof ENDPOINTS, Parameters<typeof syntheticAggregate>[2]][] = [
      ['listAssets', { share: swell }],
      ['searchAssets', { share: swell * 0.8 }],
      ['categories', squeezed ? { share: 0.45, throttled: 2, foreign: 0.5 * ENDPOINTS.categories.limit * 60 } : { share: swell * 0.6 }],
      ['purchaseInfo', { share: 0.08 + 0.04 * Math.sin(phase * 3) }],
      ['registerPurchase', { share: 0.03 }],
    ];
    for (const [endpoint, traffic] of rows) usage.recordAggregate({ profileId, vendor, endpoint }, t, syntheticAggregate(ENDPOINTS[endpoint], 60, traffic));
  }
  usage.downsample(now);
  local.close();
}
