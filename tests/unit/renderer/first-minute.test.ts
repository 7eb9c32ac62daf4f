/**
 * The first minute's pure parts: number shortcuts in the header's order (and the README's list), the
 * connection badge's words, the bell's count, when the first-run card shows, and the Usage report's
 * opening period.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BADGE_LABEL, badgeState } from '../../../renderer/src/components/connection-badge-state';
import { NAV_ITEMS } from '../../../renderer/src/lib/nav';
import { SHORTCUT_LIST, shortcutFor } from '../../../renderer/src/lib/shortcuts';
import { bellOf } from '../../../renderer/src/views/alerts/bell';
import { FIRST_RUN_TRAFFIC, showFirstRun } from '../../../renderer/src/views/budget/first-run';
import { hoverStore } from '../../../renderer/src/views/budget/hover-store';
import { openingPeriod } from '../../../renderer/src/views/usage/opening-period';

const README = readFileSync(path.resolve(import.meta.dirname, '../../../README.md'), 'utf8');

describe('number shortcuts follow the navigation', () => {
  it('opens the n-th view of the header with n', () => {
    // The header as a user reads it, left to right.
    expect(NAV_ITEMS.map((n) => n.label)).toEqual(['Overview', 'Budget', 'Catalog', 'Purchases', 'Requests', 'Alerts', 'Usage', 'Settings']);
    NAV_ITEMS.forEach((n, i) => expect(shortcutFor(String(i + 1), null)).toEqual({ kind: 'view', view: n.view }));
    expect(shortcutFor(String(NAV_ITEMS.length + 1), null)).toBeNull();
  });

  it('lists them in the ? overlay in that order, each with its digit and g letter', () => {
    const views = SHORTCUT_LIST.filter((s) => /^Open [A-Z]/.test(s.what));
    expect(views.map((s) => s.what)).toEqual(NAV_ITEMS.map((n) => `Open ${n.label}`));
    views.forEach((s, i) => expect(s.keys[0]).toBe(String(i + 1)));
    for (const s of views) {
      const go = s.keys.find((k) => k.startsWith('g '))!;
      expect(shortcutFor(go.slice(2), 'g')).toEqual(shortcutFor(s.keys[0]!, null));
    }
  });

  it('the README says the same digits, and lists the views in the same order', () => {
    const line = /Keyboard: [\s\S]*?\n\n/.exec(README)?.[0] ?? '';
    expect(line).toContain(`\`1\`-\`${NAV_ITEMS.length}\``);
    const named = NAV_ITEMS.map((n, i) => line.replace(/\s+/g, ' ').indexOf(`\`${i + 1}\` ${n.label}`));
    expect(named.every((at) => at >= 0)).toBe(true);
    const table = [...README.matchAll(/^\| \*\*(\w+)\*\*/gm)].map((m) => m[1]).filter((v) => NAV_ITEMS.some((n) => n.label === v));
    expect(table.slice(0, NAV_ITEMS.length)).toEqual(NAV_ITEMS.map((n) => n.label));
  });
});

describe('the connection badge', () => {
  const open = { link: 'open' as const, othersUseTheBudget: false };
  it('says "Connected, sharing the budget" when 429s with another consumer are the only trouble', () => {
    expect(badgeState({ ...open, connection: { state: 'degraded', causes: ['rate-limited'] }, othersUseTheBudget: true })).toBe('sharing');
    expect(BADGE_LABEL.sharing).toBe('Connected, sharing the budget');
  });
  it('keeps real faults as they are', () => {
    expect(badgeState({ ...open, connection: { state: 'degraded', causes: ['rate-limited'] } })).toBe('degraded'); // nobody else seen
    expect(badgeState({ ...open, connection: { state: 'degraded', causes: ['rate-limited', 'server-error'] }, othersUseTheBudget: true })).toBe('degraded');
    expect(badgeState({ ...open, connection: { state: 'degraded', causes: ['unauthorized'] }, othersUseTheBudget: true })).toBe('degraded');
    expect(badgeState({ ...open, connection: { state: 'degraded', causes: ['no-answer'] }, othersUseTheBudget: true })).toBe('degraded');
    expect(badgeState({ ...open, connection: { state: 'degraded' }, othersUseTheBudget: true })).toBe('degraded'); // cause unknown
    expect(badgeState({ ...open, connection: { state: 'offline', causes: [] }, othersUseTheBudget: true })).toBe('offline');
    expect(badgeState({ link: 'offline', connection: { state: 'connected', causes: [] }, othersUseTheBudget: false })).toBe('offline');
    expect(badgeState({ link: 'connecting', connection: undefined, othersUseTheBudget: false })).toBe('connecting');
    expect(badgeState({ ...open, connection: { state: 'connected', causes: [] } })).toBe('connected');
  });
});

describe('the bell', () => {
  const alert = (endedAt: number | null, acknowledgedAt: number | null) => ({ endedAt, acknowledgedAt });
  it('counts firing alerts nobody acknowledged', () => {
    const bell = bellOf([alert(null, null), alert(null, 5), alert(null, null), alert(9, null), alert(9, 7)]);
    expect(bell.count).toBe(2);
    expect(bell.label).toBe('2 alerts firing, not acknowledged; 1 acknowledged alert still firing');
  });
  it('is zero when every firing alert is acknowledged, and says so', () => {
    expect(bellOf([alert(null, 5)])).toEqual({ count: 0, label: 'No new alert; 1 acknowledged alert still firing' });
    expect(bellOf([])).toEqual({ count: 0, label: 'No alert firing' });
  });
});

describe('the first-run card', () => {
  const demo = { demo: true, state: 'connected' as const };
  const off = { demoTraffic: { share: 0, endpoints: [] } };
  it('shows on the built-in demo while its demo traffic is off', () => {
    expect(showFirstRun({ connection: demo, sim: off, dismissed: false })).toBe(true);
    expect(showFirstRun({ connection: { demo: true, state: 'connecting' }, sim: { demoTraffic: { share: 1, endpoints: [] } }, dismissed: false })).toBe(true);
  });
  it('hides with demo traffic on, on a real vendor, offline, before the simulator answers, or when hidden', () => {
    expect(showFirstRun({ connection: demo, sim: { demoTraffic: FIRST_RUN_TRAFFIC }, dismissed: false })).toBe(false);
    expect(showFirstRun({ connection: { demo: false, state: 'connected' }, sim: null, dismissed: false })).toBe(false);
    expect(showFirstRun({ connection: { demo: true, state: 'offline' }, sim: off, dismissed: false })).toBe(false);
    expect(showFirstRun({ connection: demo, sim: undefined, dismissed: false })).toBe(false);
    expect(showFirstRun({ connection: demo, sim: off, dismissed: true })).toBe(false);
  });
  it('starts the simulator panel\u2019s default traffic: every endpoint at its limit', () => {
    expect(FIRST_RUN_TRAFFIC.share).toBe(1);
    expect(FIRST_RUN_TRAFFIC.endpoints).toHaveLength(10);
  });
});

describe('the Usage report opens', () => {
  const day = (requests: number) => ({ day: '2026-11-25', endpoint: 'listAssets', requests });
  it('on today when yesterday is empty, else on yesterday', () => {
    expect(openingPeriod(undefined)).toBeNull();
    expect(openingPeriod({ days: [], problem: null })).toBe('today');
    expect(openingPeriod({ days: [day(0)], problem: null })).toBe('today');
    expect(openingPeriod({ days: [day(3)], problem: null })).toBe('yesterday');
    expect(openingPeriod({ days: [], problem: 'No usage store.' })).toBe('yesterday');
  });
});

describe('the crosshair', () => {
  it('is dropped when the panel that holds it goes away, and only then', () => {
    hoverStore.set(1_000, 'listAssets');
    hoverStore.release('categories');
    expect(hoverStore.get()).toEqual({ t: 1_000, panel: 'listAssets' });
    hoverStore.release('listAssets');
    expect(hoverStore.get()).toBeNull();
  });
});
