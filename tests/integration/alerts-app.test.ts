/**
 * Alerts in the app (issue 12 §3): against the embedded simulator, a rule edited through the bridge
 * fires on the client's real traffic, reaches the desktop notifier once (the shell's Notification
 * adapter is given as env.notify), is pushed as the `alert` event, listed and acknowledged, and is
 * still there, ended and acknowledged, after the app restarts on the same data folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertEvent } from '../../shared/bridge/alert-schemas';
import type { CallName, CallResponse } from '../../shared/bridge/contract';
import { createAppServices, memoryVault } from '../../electron/app';
import type { AppServices } from '../../electron/app';

let dir: string;
let app: AppServices | null = null;
const notices: { title: string; body: string }[] = [];
const events: AlertEvent[] = [];

async function start(): Promise<AppServices> {
  const services = await createAppServices({
    shell: 'desktop',
    dataDir: dir,
    vault: memoryVault(),
    version: '9.9.9',
    notify: (n) => notices.push(n),
    log: () => undefined,
  });
  services.onEvent((name, payload) => {
    if (name === 'alert') events.push(payload as AlertEvent);
  });
  return services;
}

async function call<N extends CallName>(name: N, request: unknown): Promise<CallResponse<N>> {
  const result = await app!.dispatch(name, request);
  if (!result.ok) throw new Error(`${name} failed: ${JSON.stringify(result.error)}`);
  return result.value as CallResponse<N>;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'alerts-app-'));
});
afterAll(async () => {
  await app?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('alerts in the app', () => {
  let alertId = 0;

  it('the demo has the default rules on; a bad rule is refused in words', async () => {
    app = await start();
    const { profileId, rules } = await call('alertRules', {});
    expect(profileId).toBe('demo');
    expect(rules.filter((r) => r.enabled).map((r) => r.kind)).toEqual(['use-above', 'throttled', 'foreign', 'down', 'download-failed']);
    const bad = await app.dispatch('alertRuleSave', { ...rules[0], thresholdPct: 250 });
    expect(bad).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect((await call('alertRules', {})).rules[0]!.thresholdPct).toBe(90);
  });

  it('traffic above a low rule fires it once, notifies once, and the alert is acknowledged', async () => {
    const use = (await call('alertRules', {})).rules.find((r) => r.kind === 'use-above')!;
    await call('alertRuleSave', { ...use, endpoint: 'categories', thresholdPct: 20, minutes: 0 });
    const before = notices.length;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && !events.some((e) => e.change === 'fired' && e.alert.kind === 'use-above')) {
      await Promise.all(Array.from({ length: 12 }, () => call('categories', { profileId: 'demo' }).catch(() => undefined)));
      await new Promise((r) => setTimeout(r, 300));
    }
    // More traffic in later seconds: still one alert.
    for (let i = 0; i < 3; i++) await Promise.all(Array.from({ length: 12 }, () => call('categories', { profileId: 'demo' }).catch(() => undefined)));
    const fired = events.filter((e) => e.change === 'fired' && e.alert.kind === 'use-above');
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({
      notify: true,
      alert: { endpoint: 'categories', message: 'GET /assets/categories above 20% of its limit', endedAt: null },
    });
    const useNotices = notices.slice(before).filter((n) => n.body.includes('above 20%'));
    expect(useNotices).toEqual([{ title: 'Partner Console: demo', body: 'GET /assets/categories above 20% of its limit' }]);
    alertId = fired[0]!.alert.id;
    const list = await call('alertsList', {});
    expect(list.items[0]).toMatchObject({ id: alertId, endedAt: null, acknowledgedAt: null, profileId: 'demo' });
    const ack = await call('alertAcknowledge', { id: alertId });
    expect(ack.acknowledgedAt).toEqual(expect.any(Number));
    expect(events.at(-1)).toMatchObject({ change: 'acknowledged', alert: { id: alertId } });
  });

  it('after a restart the alert is listed ended and acknowledged', async () => {
    await app!.dispose();
    app = await start();
    const list = await call('alertsList', {});
    const alert = list.items.find((a) => a.id === alertId)!;
    expect(alert.endedAt).toEqual(expect.any(Number));
    expect(alert.acknowledgedAt).toEqual(expect.any(Number));
  });
});
