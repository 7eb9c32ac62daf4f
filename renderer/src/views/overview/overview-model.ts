/**
 * Pure figures for the Overview's cells: one vendor x one endpoint over the last minute, read from the
 * same per-second figures (complete seconds only) and counted the same way as the Budget view, so a
 * cell never shows more than the limit without a 429. The figure and the colour are one measure: the
 * whole budget's use (this app's + other consumers'), banded at the Budget view's warning share;
 * this app's part is shown beside it.
 */
import type { AlertView } from '../../../../shared/bridge/alert-schemas';
import type { CallResponse } from '../../../../shared/bridge/contract';
import type { EndpointId, EndpointSpec } from '../../../../shared/endpoints';
import type { BudgetSeconds } from '../../live/budget-seconds';
import { SECOND_MS } from '../../live/budget-seconds';
import { completeBefore, servedRequests, WARN_SHARE } from '../budget/budget-model';
import type { UseBand } from '../budget/use-bands';
import { bandOfUse, percentLabel, percentOf, totalOf, USE_BANDS } from '../budget/use-bands';
import { BADGE_LABEL, badgeState } from '../../components/connection-badge-state';
import type { BadgeInput, BadgeState } from '../../components/connection-badge-state';

export type FleetUse = CallResponse<'fleetUse'>;

/** The Overview looks back this many complete seconds. */
export const WINDOW_S = 60;

export type Band = 'idle' | UseBand;

/** The colour scale, lowest first (the legend lists it in this order): the Budget table's bar's too. */
export const BANDS = USE_BANDS;

/** One second of the sparkline: the share of the limit served to this app and taken by others (null: before the app had data), and its 429s. */
export interface SparkPoint {
  share: number | null;
  others: number | null;
  n429: number;
}

export interface FleetFigures {
  /** Mean share of the limit the store granted to the whole fleet over the window (at most 1); null: no counts. */
  use: number | null;
  /** The busiest second's share; null: no counts. */
  peak: number | null;
  seconds: number;
  /** 'fallback': the store does not answer (pacing is from headers only meanwhile). */
  state: FleetUse['store']['state'];
  message: string | null;
}

export interface OverviewCell {
  spec: EndpointSpec;
  limit: number;
  /** Requests sent in the window (answered or not). */
  requests: number;
  /** Mean share of the limit this app was served over the seconds the app has data for (0..1). */
  use: number;
  /** The busiest second's share (0..1). */
  peak: number;
  n429: number;
  /** Slots another consumer took (inferred from Remaining), over the window. */
  foreignUse: number;
  /** Mean share of the limit other consumers took (estimated) over the same seconds (0..1). */
  othersUse: number;
  /** Share of the seconds during which a request of this app was held back by the budget (0..1). */
  heldShare: number;
  /** The whole budget's use (0..1): ours + others' against the limit. The figure shown, and what the colour says. */
  total: number;
  /** Complete seconds the figures cover (fewer than WINDOW_S just after the app started). */
  seconds: number;
  spark: SparkPoint[];
  band: Band;
  /** Alerts of this profile and endpoint firing now. */
  alerts: readonly AlertView[];
  fleet: FleetFigures | null;
}

export { percentOf, totalOf };

/** The cell's figure, the whole budget's use: "94%", "<1%", "idle" without requests. */
export function shareLabel(cell: Pick<OverviewCell, 'band' | 'total'>): string {
  return cell.band === 'idle' ? 'idle' : percentLabel(cell.total);
}

/** This app's part beside the figure ("ours 6%"), where others took a visible share; else null. */
export function ownLabel(cell: Pick<OverviewCell, 'band' | 'use' | 'othersUse'>): string | null {
  return cell.band === 'idle' || percentOf(cell.othersUse) < 1 ? null : `ours ${percentLabel(cell.use)}`;
}

/** Held back this share of the minute or more, a cell is at least in the warning band (and says so): the budget stopped this app, whatever the estimate of the others. */
export const HELD_WARN_SHARE = WARN_SHARE;

/** Whether the time held back, not the use, puts the cell in the warning band (the cell then says "held"). */
export function heldLiftsBand(figures: { total: number; n429: number; heldShare: number }): boolean {
  return figures.n429 === 0 && figures.heldShare >= HELD_WARN_SHARE && percentOf(figures.total) < WARN_SHARE * 100;
}

/** "held 98%" where the time held back lifts the colour above what the figure says; else null. */
export function heldLabel(cell: Pick<OverviewCell, 'band' | 'total' | 'n429' | 'heldShare'>): string | null {
  return cell.band !== 'idle' && heldLiftsBand(cell) ? `held ${percentOf(cell.heldShare)}%` : null;
}

/**
 * The colour band of the whole budget's use (0..1 of the limit); idle without requests. A 429 in the
 * window is at the limit whatever the mean says: the service refused a request, so the budget was spent
 * then. Held back most of the window, at least the warning band (the cell says "held back").
 */
export function bandOf(requests: number, total: number, n429 = 0, heldShare = 0): Band {
  if (requests === 0) return 'idle';
  if (heldLiftsBand({ total, n429, heldShare })) return 'warn';
  return bandOfUse(total, n429);
}

/**
 * The fleet's figures for one endpoint where a budget store (Redis, this machine's) is set (use null while it has no counts); null
 * without a store. `seconds`: the span this app's own figures cover, so both are over the same last seconds.
 */
export function fleetFigures(fleet: FleetUse | null | undefined, endpoint: EndpointId, seconds = WINDOW_S): FleetFigures | null {
  if (!fleet || fleet.store.kind === 'none') return null;
  const { state, message } = fleet.store;
  const row = fleet.endpoints.find((e) => e.endpoint === endpoint);
  const granted = row && seconds > 0 ? row.granted.slice(-seconds) : [];
  if (!row || granted.length === 0 || row.limit <= 0) return { use: null, peak: null, seconds: 0, state, message };
  const share = (n: number) => Math.min(1, n / row.limit);
  const total = granted.reduce((a, b) => a + b, 0);
  return { use: share(total / granted.length), peak: share(Math.max(...granted)), seconds: granted.length, state, message };
}

export interface CellInput {
  store: BudgetSeconds;
  vendor: string;
  spec: EndpointSpec;
  now: number;
  /** Firing alerts of the row's profile (any endpoint): the cell keeps its own. */
  alerts: readonly AlertView[];
  fleet: FleetUse | null | undefined;
}

export function overviewCell({ store, vendor, spec, now, alerts, fleet }: CellInput): OverviewCell {
  const end = completeBefore(now);
  const from = end - WINDOW_S * SECOND_MS;
  const limit = store.last(vendor, spec.id)?.limit ?? spec.limit;
  const firstSecond = store.firstSecond(vendor);
  const since = firstSecond === null ? end : Math.min(end, Math.max(from, firstSecond));
  const spark: SparkPoint[] = Array.from({ length: WINDOW_S }, (_, i) => {
    const had = from + i * SECOND_MS >= since;
    return { share: had ? 0 : null, others: had ? 0 : null, n429: 0 };
  });
  let requests = 0;
  let served = 0;
  let peak = 0;
  let n429 = 0;
  let foreignUse = 0;
  let others = 0;
  let heldMs = 0;
  store.forEach(vendor, spec.id, from, end, (b) => {
    const secondLimit = b.limit ?? limit;
    const share = secondLimit > 0 ? servedRequests(b, secondLimit) / secondLimit : 0;
    const othersShare = secondLimit > 0 ? Math.min(1, b.foreignUse / secondLimit) : 0;
    requests += b.requests;
    served += share;
    others += othersShare;
    heldMs += b.heldMs;
    peak = Math.max(peak, share);
    n429 += b.rateLimited;
    foreignUse += b.foreignUse;
    const point = spark[Math.floor((b.t - from) / SECOND_MS)];
    if (point) Object.assign(point, { share, others: othersShare, n429: b.rateLimited });
  });
  const seconds = (end - since) / SECOND_MS;
  const use = seconds > 0 ? Math.min(1, served / seconds) : 0;
  const othersUse = seconds > 0 ? Math.min(1, others / seconds) : 0;
  const heldShare = seconds > 0 ? Math.min(1, heldMs / (seconds * SECOND_MS)) : 0;
  const total = totalOf({ use, othersUse });
  return {
    spec,
    limit,
    requests,
    use,
    peak,
    n429,
    foreignUse,
    othersUse,
    heldShare,
    total,
    seconds,
    spark,
    band: bandOf(requests, total, n429, heldShare),
    alerts: alerts.filter((a) => a.endpoint === spec.id),
    fleet: fleetFigures(fleet, spec.id, seconds),
  };
}

/** The fleet's use a cell shows beside ours (on an idle cell only where other workers use the endpoint), or null. */
export function fleetLabel(cell: OverviewCell): string | null {
  if (!cell.fleet || (cell.band === 'idle' && (cell.fleet.use ?? 0) <= 0)) return null;
  return `fleet ${cell.fleet.use === null ? '—' : `${percentOf(cell.fleet.use)}%`}`;
}

/** The cell's 429 mark ("2×429"), or null. */
export function limitedLabel(cell: OverviewCell): string | null {
  return cell.n429 > 0 ? `${cell.n429 > 999 ? '999+' : cell.n429}×429` : null;
}

/** What the cell shows, in its order: its accessible name starts with it (WCAG 2.5.3, speech users say what they see). */
export function cellText(cell: OverviewCell): string {
  return [shareLabel(cell), ownLabel(cell), heldLabel(cell), fleetLabel(cell), limitedLabel(cell)].filter((t) => t !== null).join(' ');
}

/** The cell's accessible name: "94% ours 6% 2×429: acme, /assets/list: 94% of limit used, this app 6%, 2 x 429 in the last minute". */
/** A connected profile as people tell rows apart: its name, and its vendor where the name does not say it. */
export function profileLabel(name: string, vendor: string): string {
  return name === vendor ? name : `${name} (${vendor})`;
}

/** The cell's accessible name; `who` is profileLabel's (two profiles on one vendor get different names). */
export function cellName(who: string, cell: OverviewCell): string {
  const what = cell.band === 'idle' ? 'no requests' : `${shareLabel(cell)} of limit used, this app ${percentLabel(cell.use)}`;
  const limited = cell.n429 > 0 ? `, ${cell.n429} x 429` : '';
  const held = heldLabel(cell) ? `, held back ${percentOf(cell.heldShare)}% of the time` : '';
  const alerts = cell.alerts.length > 0 ? `; ${cell.alerts.length} alert${cell.alerts.length > 1 ? 's' : ''} firing` : '';
  return `${cellText(cell)}: ${who}, ${cell.spec.path}: ${what}${limited}${held} in the last minute${alerts}`;
}

/**
 * A connected profile's row: the header badge's words and colour for the same facts, so that a row
 * never says "Connected" beside the header's Offline while the link to the services is down.
 */
export function overviewRowState(input: BadgeInput): { state: BadgeState; label: string; away: boolean } {
  const state = badgeState(input);
  return { state, label: BADGE_LABEL[state], away: state === 'connecting' || state === 'offline' };
}
