/** The usageReport call in the app: usage seeded through the store on the data folder, read back by the bridge call. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallName } from '../../shared/bridge/contract';
import type { UsageReport } from '../../shared/bridge/report-schemas';
import { timerClock } from '../../shared/clock';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';
import { LocalStore } from '../../electron/store';
import { emptyAggregate } from '../../electron/store/usage-aggregate';

const DAY = 86_400_000;
// Two days ago, 10:15 UTC (minutes are still kept).
const DAY_START = Math.floor((Date.now() - 2 * DAY) / DAY) * DAY;
const MINUTE_AT = DAY_START + 10 * 3_600_000 + 15 * 60_000;
let dir: string;
let app: AppServices;

async function dispatch(name: CallName, request: unknown) {
  return app.dispatch(name, request);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'report-app-'));
  const local = new LocalStore(dir);
  const usage = local.openUsage({ clock: timerClock })!;
  const agg = { ...emptyAggregate(), requests: 120, throttled: 4, foreignRequests: 9, activeSeconds: 60, useSeconds: 48, usePeak: 1, waitedMs: 2400 };
  usage.recordAggregate({ profileId: 'demo', vendor: 'demo', endpoint: 'searchAssets' }, MINUTE_AT, agg);
  usage.downsample(Date.now());
  local.close();
  app = await createAppServices({ shell: 'web', dataDir: dir, vault: memoryVault(), version: '9.9.9', log: () => undefined });
});
afterAll(async () => {
  await app.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('usageReport', () => {
  it('reads the stored day of the demo profile', async () => {
    const result = await dispatch('usageReport', { profileId: 'demo', fromMs: DAY_START, toMs: DAY_START + DAY, timeZone: 'UTC' });
    expect(result.ok).toBe(true);
    const report = (result as { value: UsageReport }).value;
    expect(report).toMatchObject({ profileId: 'demo', profileName: 'Built-in demo service', vendor: 'demo', problem: null, endpoints: ['searchAssets'] });
    expect(report.days).toEqual([
      {
        day: new Date(DAY_START).toISOString().slice(0, 10),
        endpoint: 'searchAssets',
        requests: 120,
        meanUse: 0.8075, // the whole budget: ours 0.8 and others' 9 requests
        meanUseOurs: 0.8,
        meanUseOlder: false,
        peakUse: 1,
        throttled: 4,
        throttledByOthers: 4,
        othersRequests: 9,
        failures: 0,
        waitMeanMs: 20,
        waitP95Ms: 20,
        heldBackShare: 0.04,
      },
    ]);
    expect(report.heatMap).toEqual([
      { endpoint: 'searchAssets', hour: 10, requests: 120, meanUse: 0.8075, meanUseOurs: 0.8, meanUseOlder: false, peakUse: 1, throttled: 4 },
    ]);
    expect(report.busiestMinutes).toEqual([{ startMs: MINUTE_AT, requests: 120, throttled: 4, peakUse: 1, topEndpoint: 'searchAssets' }]);
  });

  it('refuses an unknown profile, an unknown time zone and an empty period, in words', async () => {
    const unknown = await dispatch('usageReport', { profileId: 'nobody', fromMs: DAY_START, toMs: DAY_START + DAY });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    const zone = await dispatch('usageReport', { profileId: 'demo', fromMs: DAY_START, toMs: DAY_START + DAY, timeZone: 'Mars/Olympus' });
    expect(zone).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: 'Unknown time zone "Mars/Olympus".' } });
    const backwards = await dispatch('usageReport', { profileId: 'demo', fromMs: DAY_START + DAY, toMs: DAY_START });
    expect(backwards.ok).toBe(false);
  });
});
