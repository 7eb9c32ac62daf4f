/**
 * The alert service on a real SQLite file: alerts stored with start, end and acknowledgement across a
 * reopen, the defaults per profile, rules edited, and notifications at most one per rule per 10
 * minutes, none in quiet mode (issue 12 §3); one rule engine per watched (connected) profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AlertService } from '../../electron/alerts/alert-service';
import type { DesktopNotice } from '../../electron/alerts/alert-service';
import { NOTIFY_INTERVAL_MS } from '../../electron/alerts/notify-gate';
import { QUIET_MS } from '../../electron/alerts/rule-engine';
import { ManualClock } from '../../electron/client/testing/manual-clock';
import { LocalStore, openDatabase } from '../../electron/store';
import type { AlertEvent } from '../../shared/bridge/alert-schemas';
import type { BudgetSample } from '../../shared/rate-limit';

let dir: string;
let clock: ManualClock;
let quiet: boolean;
let events: AlertEvent[];
let notices: DesktopNotice[];
const opened: { local: LocalStore; service: AlertService }[] = [];

function open(
  onError: (e: unknown) => void = (e) => {
    throw e;
  },
) {
  const local = new LocalStore(dir);
  const service = new AlertService(local, { clock, quiet: () => quiet, emit: (e) => events.push(e), notify: (n) => notices.push(n), onError });
  opened.push({ local, service });
  return service;
}

function close(): void {
  for (const { local, service } of opened.splice(0)) {
    service.dispose();
    local.close();
  }
}

function throttled(endpoint: BudgetSample['endpoint'] = 'listAssets'): BudgetSample {
  return {
    vendor: 'demo',
    endpoint,
    at: clock.now(),
    status: 429,
    limit: 10,
    remaining: 0,
    reset: null,
    latencyMs: 5,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'alerts-'));
  clock = new ManualClock();
  quiet = false;
  events = [];
  notices = [];
});
afterEach(() => {
  close();
  rmSync(dir, { recursive: true, force: true });
});

describe('alert service', () => {
  it('defaults: on for the demo, offered off for a new profile; stored once', () => {
    const service = open();
    const demo = service.rulesOf('demo', true);
    expect(demo.map((r) => r.kind)).toEqual(['use-above', 'throttled', 'foreign', 'down', 'download-failed']);
    expect(demo.every((r) => r.enabled)).toBe(true);
    expect(service.rulesOf('acme', false).every((r) => !r.enabled)).toBe(true);
    expect(service.rulesOf('demo', true)).toEqual(demo);
  });

  it('stores start, end and acknowledgement; they survive a reopen of the file', async () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    const start = clock.now();
    service.sample(throttled(), 0);
    expect(events.map((e) => e.change)).toEqual(['fired']);
    const firing = service.list({});
    expect(firing).toMatchObject([{ kind: 'throttled', endpoint: 'listAssets', startedAt: start, endedAt: null, acknowledgedAt: null }]);
    await clock.advance(2 * 60_000 + 1000); // the default 429 rule clears after 2 quiet minutes
    expect(events.map((e) => e.change)).toEqual(['fired', 'cleared']);
    const ack = service.acknowledge(firing[0]!.id);
    expect(ack.acknowledgedAt).toBe(clock.now());
    close();

    const endedAt = events[1]!.alert.endedAt;
    expect(endedAt).toBe(start + 2 * 60_000);
    const again = open();
    expect(again.list({ profileId: 'demo' })).toEqual([{ ...firing[0], endedAt, acknowledgedAt: ack.acknowledgedAt }]);
  });

  it("a use-above alert ends by the service's own tick once traffic stops (its window of use empties), stored, with one notification", async () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    const use = service.rulesOf('demo', true).find((r) => r.kind === 'use-above')!;
    service.saveRule({ ...use, endpoint: 'listAssets', thresholdPct: 30, minutes: 0 });
    // Three seconds with 8 of 10 served, then none: the window of use (5 s) reaches 32% at the second second.
    for (let s = 0; s < 3; s++) {
      for (let r = 0; r < 8; r++) service.sample({ ...throttled(), at: clock.now() + r, status: 200, remaining: 2 }, 0);
      await clock.advance(1000);
    }
    expect(events.map((e) => e.change)).toEqual(['fired']);
    const lastTraffic = Math.floor(clock.now() / 1000) * 1000;
    // The window empties as the table's does: under 25% (the band) two seconds after the last full window.
    await clock.advance(2000);
    expect(events.map((e) => e.change)).toEqual(['fired']);
    await clock.advance(QUIET_MS);
    expect(events.map((e) => e.change)).toEqual(['fired', 'cleared']);
    const [alert] = service.list({});
    expect(alert).toMatchObject({ kind: 'use-above', endpoint: 'listAssets', endedAt: expect.any(Number) });
    expect(alert!.endedAt! - lastTraffic).toBeGreaterThanOrEqual(3000);
    expect(alert!.endedAt! - lastTraffic).toBeLessThan(6000);
    expect(notices).toHaveLength(1);
  });

  it('what a previous run left firing is ended when the store opens again', async () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    service.sample(throttled(), 0);
    close();
    await clock.advance(5000);
    const again = open();
    const [alert] = again.list({});
    expect(alert?.endedAt).toBe(clock.now());
  });

  it('one notification per rule per 10 minutes, whatever endpoint fires', async () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    service.sample(throttled('listAssets'), 0);
    service.sample(throttled('categories'), 0); // same rule, other endpoint: an alert, no second notification
    expect(events.map((e) => [e.change, e.notify])).toEqual([
      ['fired', true],
      ['fired', false],
    ]);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.body).toContain('429');
    await clock.advance(3 * 60_000); // both clear
    service.sample(throttled('listAssets'), 0); // fires again 3 min after the notification: no notification
    expect(events.at(-1)).toMatchObject({ change: 'fired', notify: false });
    await clock.advance(NOTIFY_INTERVAL_MS); // cleared meanwhile; 13 min after the first notification
    service.sample(throttled('listAssets'), 0);
    expect(events.at(-1)).toMatchObject({ change: 'fired', notify: true });
    expect(notices).toHaveLength(2);
  });

  it('quiet mode: alerts are recorded and shown, no notification', () => {
    quiet = true;
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    service.sample(throttled(), 0);
    expect(events).toMatchObject([{ change: 'fired', notify: false }]);
    expect(notices).toEqual([]);
    expect(service.list({})).toHaveLength(1);
  });

  it("edited rules: a disabled rule stops firing; a threshold rule needs its threshold; another profile's rule is refused", () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    const rules = service.rulesOf('demo', true);
    const throttle = rules.find((r) => r.kind === 'throttled')!;
    service.saveRule({ ...throttle, enabled: false });
    service.sample(throttled(), 0);
    expect(events).toEqual([]);
    const use = rules.find((r) => r.kind === 'use-above')!;
    expect(() => service.saveRule({ ...use, thresholdPct: null })).toThrow(/threshold/);
    expect(() => service.saveRule({ ...use, profileId: 'other' })).toThrow(/No alert rule/);
    expect(service.saveRule({ ...use, thresholdPct: 10, minutes: 0 })).toMatchObject({ thresholdPct: 10, minutes: 0 });
  });

  it('samples of another vendor than the watched one are ignored', () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    service.sample({ ...throttled(), vendor: 'acme' }, 0);
    expect(events).toEqual([]);
  });
});

describe('several connected profiles', () => {
  const demo = { profileId: 'demo', vendor: 'demo', demo: true };
  const acme = { profileId: 'demo-acme', vendor: 'acme', demo: true };
  const fired = () => events.filter((e) => e.change === 'fired').map((e) => [e.alert.profileId, e.alert.vendor, e.alert.kind]);

  it('each watched profile has its own rules and alerts; unwatching one ends only its alerts', () => {
    const service = open();
    service.watch([demo, acme]);
    service.sample({ ...throttled(), vendor: 'acme' }, 0, 'demo-acme');
    service.sample(throttled(), 0, 'demo');
    service.download('demo-acme', 'failed', 'disk full');
    expect(fired()).toEqual([
      ['demo-acme', 'acme', 'throttled'],
      ['demo', 'demo', 'throttled'],
      ['demo-acme', 'acme', 'download-failed'],
    ]);
    // A sample of one profile never reaches another profile's rules, even of the same vendor.
    service.watch([demo, acme, { profileId: 'acme-2', vendor: 'acme', demo: false }]);
    service.saveRule({ ...service.rulesOf('acme-2', false).find((r) => r.kind === 'throttled')!, enabled: true });
    service.sample({ ...throttled('categories'), vendor: 'acme' }, 0, 'demo-acme');
    expect(fired().filter(([id]) => id === 'acme-2')).toEqual([]);

    events = [];
    service.watch([demo]); // demo-acme and acme-2 disconnected
    expect(events.map((e) => [e.change, e.alert.profileId])).toEqual([
      ['cleared', 'demo-acme'],
      ['cleared', 'demo-acme'],
      ['cleared', 'demo-acme'],
    ]);
    expect(
      service
        .list({})
        .filter((a) => a.endedAt === null)
        .map((a) => a.profileId),
    ).toEqual(['demo']);
  });
});

describe('notifications after a rule is edited', () => {
  it('an edited rule notifies again at once; one saved unchanged keeps its interval', () => {
    const service = open();
    service.watch([{ profileId: 'demo', vendor: 'demo', demo: true }]);
    const rule = service.rulesOf('demo', true).find((r) => r.kind === 'throttled')!;
    service.sample(throttled(), 0);
    service.saveRule(rule); // unchanged: the alert keeps firing, no new notification
    service.sample(throttled('categories'), 0);
    expect(events.map((e) => [e.change, e.notify])).toEqual([
      ['fired', true],
      ['fired', false],
    ]);
    service.saveRule({ ...rule, minutes: 3 }); // changed: its alerts clear, and it starts afresh
    service.sample(throttled(), 0);
    expect(events.map((e) => [e.change, e.notify])).toEqual([
      ['fired', true],
      ['fired', false],
      ['cleared', false],
      ['cleared', false],
      ['fired', true],
    ]);
    expect(notices).toHaveLength(2);
  });
});

describe('a store write that fails (a full disk, a lock held too long)', () => {
  const demo = { profileId: 'demo', vendor: 'demo', demo: true };
  let errors: string[];
  let other: { exec(sql: string): unknown; close(): void };
  beforeEach(() => {
    errors = [];
  });
  afterEach(() => other?.close());

  function openFailing() {
    const service = open((e) => errors.push((e as Error).message));
    // A second connection to the same file, as another writer would have: its triggers fail our writes for real.
    other = openDatabase(dir).db!;
    return service;
  }
  const failWrites = (on: 'INSERT' | 'UPDATE', when = '1') =>
    other.exec(`CREATE TRIGGER failing BEFORE ${on} ON alert WHEN ${when} BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
  const writesWork = () => other.exec('DROP TRIGGER failing');
  const changes = () => events.map((e) => [e.change, e.alert.kind]);

  it('a firing that could not be stored is kept, then stored once with its own start, announced, notified; the failure logged once', async () => {
    const service = openFailing();
    service.watch([demo]);
    failWrites('INSERT');
    const firedAt = clock.now();
    service.sample(throttled(), 0);
    await clock.advance(10_000);
    service.sample(throttled(), 0); // still failing: not logged again
    expect(service.list({})).toEqual([]);
    expect(service.pendingWrites).toBe(1);
    expect(errors).toEqual([expect.stringMatching(/^Could not store the alert ".*answered 429.*" \(database or disk is full\); it is kept/)]);

    writesWork();
    await clock.advance(1000);
    service.sample(throttled(), 0);
    expect(service.list({})).toMatchObject([{ kind: 'throttled', startedAt: firedAt, endedAt: null }]);
    expect(changes()).toEqual([['fired', 'throttled']]);
    expect(notices).toHaveLength(1);
    expect(errors).toHaveLength(1);
  });

  it('an end that could not be stored keeps the alert open, and is stored with the time it ended once writes work', async () => {
    const service = openFailing();
    service.watch([demo]);
    const firedAt = clock.now();
    service.sample(throttled(), 0);
    failWrites('UPDATE');
    await clock.advance(2 * 60_000 + 1000); // the default 429 rule clears after 2 quiet minutes: its end fails
    expect(service.list({})).toMatchObject([{ endedAt: null }]);
    expect(changes()).toEqual([['fired', 'throttled']]);
    expect(errors).toEqual([expect.stringMatching(/^Could not store the end of an alert \(database or disk is full\)/)]);

    writesWork();
    await clock.advance(1000);
    expect(service.list({})).toMatchObject([{ endedAt: firedAt + 2 * 60_000 }]);
    expect(changes()).toEqual([
      ['fired', 'throttled'],
      ['cleared', 'throttled'],
    ]);
  });

  it('an end that could not be stored when its profile stopped being watched is stored once writes work, with the time it ended', async () => {
    const service = openFailing();
    service.watch([demo]);
    service.sample(throttled(), 0);
    failWrites('UPDATE');
    const leftAt = clock.now();
    service.watch([]); // disconnected: its alerts end, but the store refuses the end
    expect(service.list({})).toMatchObject([{ endedAt: null }]);
    writesWork();
    await clock.advance(1000);
    expect(service.list({})).toMatchObject([{ endedAt: leftAt }]);
    expect(changes()).toEqual([
      ['fired', 'throttled'],
      ['cleared', 'throttled'],
    ]);
    // Watched again and throttled again: a new alert, ended on its own later (the old one is not touched twice).
    service.watch([demo]);
    service.sample(throttled(), 0);
    expect(service.list({}).filter((a) => a.endedAt === null)).toHaveLength(1);
  });

  it('one alert that cannot be stored does not hold back the others of its batch', () => {
    const service = openFailing();
    service.watch([demo]);
    failWrites('INSERT', "NEW.kind = 'throttled'");
    service.sample(throttled(), 1); // a 429 seen while another consumer uses the budget: two firings at once
    expect(service.list({}).map((a) => a.kind)).toEqual(['foreign']);
    expect(changes()).toEqual([['fired', 'foreign']]);
    expect(errors).toHaveLength(1);
  });
});
