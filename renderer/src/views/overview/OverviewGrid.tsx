/**
 * The host map: a table whose rows are the connected profiles and whose columns are the 10 endpoints
 * (grouped as the service groups them). Every cell is a button (Tab, or the arrow keys inside the grid);
 * its card shows while it is hovered or focused.
 */
import { useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { AlertView } from '../../../../shared/bridge/alert-schemas';
import type { EndpointId, EndpointSpec } from '../../../../shared/endpoints';
import { ENDPOINT_LIST } from '../../../../shared/endpoints';
import { useAppContext, useLink } from '../../api/context';
import { Pill } from '../../components/Pill';
import { CellDetail } from './CellDetail';
import type { OverviewCell } from './overview-model';
import { cellName, fleetLabel, heldLabel, limitedLabel, overviewCell, overviewRowState, ownLabel, profileLabel, shareLabel } from './overview-model';
import type { ConnectedProfile } from './session-queries';
import { useFleetUse } from '../../api/fleet-use';
import { useDisconnectProfile } from './session-queries';
import { ErrorCallout } from '../../components/states';
import { SHARED_BUDGET_WINDOW_MS } from '../../components/connection-badge-state';

const GROUPS = [
  { group: 'catalog', label: 'Catalog' },
  { group: 'purchase', label: 'Purchase' },
] as const;

/** The column head's short name: the path's last part ("list", "download-url"). */
const shortName = (spec: EndpointSpec) => spec.label.split('/').pop() ?? spec.path;

/** Columns this close to the right edge open their card leftwards. */
const END_COLUMNS = 3;

export interface OverviewGridProps {
  profiles: readonly ConnectedProfile[];
  firing: readonly AlertView[];
  now: number;
  /** The profile being made active (a cell was opened); its cells wait. */
  opening: string | null;
  onOpen: (profile: ConnectedProfile, endpoint: EndpointId) => void;
}

/** Arrow keys move between cells (rows x columns), as in a spreadsheet. */
function moveFocus(e: KeyboardEvent<HTMLTableElement>) {
  const step = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] }[e.key];
  const from = (e.target as HTMLElement).closest<HTMLElement>('[data-cell]');
  if (!step || !from) return;
  const [r, c] = from.dataset.cell!.split(',').map(Number) as [number, number];
  const next = e.currentTarget.querySelector<HTMLElement>(`[data-cell="${r + step[0]!},${c + step[1]!}"]`);
  if (!next) return;
  e.preventDefault();
  next.focus();
}

export function OverviewGrid({ profiles, firing, now, opening, onOpen }: OverviewGridProps) {
  const [hover, setHover] = useState<string | null>(null);
  return (
    <div className="ov-wrap panel">
      <table className="ov-grid" aria-label="Use of each endpoint's limit by vendor" onKeyDown={moveFocus}>
        <colgroup>
          <col className="ov-col-vendor" />
          {ENDPOINT_LIST.map((e) => (
            <col key={e.id} />
          ))}
        </colgroup>
        <thead>
          <tr className="ov-groups">
            <td />
            {GROUPS.map((g) => (
              <th key={g.group} scope="colgroup" colSpan={ENDPOINT_LIST.filter((e) => e.group === g.group).length}>
                {g.label}
              </th>
            ))}
          </tr>
          <tr>
            <th scope="col" className="ov-vendor-head">
              Vendor
            </th>
            {ENDPOINT_LIST.map((e) => (
              <th key={e.id} scope="col" title={`${e.method} ${e.path} · limit ${e.limit}/s`} data-endpoint={e.id}>
                <span className="method">{e.method}</span>
                <span className="ov-endpoint-name">{shortName(e)}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {profiles.map((p, row) => (
            <ProfileRow
              key={p.profileId}
              row={row}
              profile={p}
              alerts={firing.filter((a) => a.profileId === p.profileId)}
              now={now}
              opening={opening === p.profileId}
              hover={hover}
              setHover={setHover}
              onOpen={onOpen}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface RowProps {
  row: number;
  profile: ConnectedProfile;
  alerts: readonly AlertView[];
  now: number;
  opening: boolean;
  hover: string | null;
  setHover: (key: string | null) => void;
  onOpen: (profile: ConnectedProfile, endpoint: EndpointId) => void;
}

function ProfileRow({ row, profile, alerts, now, opening, hover, setHover, onOpen }: RowProps) {
  const { budget } = useAppContext();
  const link = useLink();
  const fleet = useFleetUse(profile.profileId);
  const disconnect = useDisconnectProfile();
  // The header's words for the same facts: 429s from another consumer's use are "sharing the budget".
  const othersUseTheBudget = profile.connection.state === 'degraded' && budget.foreignUseSince(profile.vendor, now - SHARED_BUDGET_WINDOW_MS).length > 0;
  const { state, label, away } = overviewRowState({ link: link.state, connection: profile.connection, othersUseTheBudget });
  // While the link is down the profile's last words are stale: the link's own reason is the one that holds.
  const reason = link.state === 'open' ? profile.connection.message : link.problem;
  // Alerts that name no endpoint (the service down, a failed download) belong to the whole row.
  const rowAlerts = alerts.filter((a) => a.endpoint === null);
  const cells = ENDPOINT_LIST.map((spec) => overviewCell({ store: budget, vendor: profile.vendor, spec, now, alerts, fleet: fleet.data }));
  return (
    <tr className={away ? 'ov-row ov-row-away' : 'ov-row'} data-profile={profile.profileId} aria-current={profile.active ? 'true' : undefined}>
      <th scope="row" className="ov-vendor">
        <div className="ov-vendor-name">
          <span className={`conn-dot ov-dot-${state}`} title={label} aria-hidden="true" />
          <strong className="ov-profile-name" dir="auto" title={profile.name}>
            {profile.name}
          </strong>
          {profile.demo ? <span className="demo-tag">DEMO</span> : null}
          {profile.active ? (
            <Pill tone="info" title="The detailed views (Budget, Catalog, Purchases, Requests) show this profile">
              active
            </Pill>
          ) : null}
        </div>
        <div className="ov-vendor-meta small muted">
          <span className="ov-vendor-id" dir="auto" title={`Vendor ${profile.vendor} at ${profile.baseUrl}`}>
            {profile.vendor}
          </span>
          <span className={`ov-state ov-state-${state}`}>{label}</span>
        </div>
        {away && reason ? <div className="ov-reason small">{reason}</div> : null}
        {rowAlerts.length > 0 ? (
          <a className="ov-row-alert small" href="#/alerts" title={rowAlerts.map((a) => a.message).join('\n')}>
            {rowAlerts.length} alert{rowAlerts.length > 1 ? 's' : ''} firing
          </a>
        ) : null}
        <button
          type="button"
          className="btn btn-ghost btn-small ov-disconnect"
          onClick={() => disconnect.mutate(profile.profileId)}
          disabled={disconnect.isPending}
          aria-label={`Disconnect ${profile.name}`}
        >
          Disconnect
        </button>
        {disconnect.isError ? <ErrorCallout error={disconnect.error} /> : null}
      </th>
      {cells.map((cell, col) => {
        const key = `${profile.profileId}/${cell.spec.id}`;
        return (
          <td key={cell.spec.id} className="ov-td">
            <Cell
              cell={cell}
              who={profileLabel(profile.name, profile.vendor)}
              position={`${row},${col}`}
              busy={opening}
              shown={hover === key}
              alignEnd={col >= ENDPOINT_LIST.length - END_COLUMNS}
              tipId={`ov-tip-${row}-${col}`}
              onShow={(on) => setHover(on ? key : null)}
              onOpen={() => onOpen(profile, cell.spec.id)}
            />
          </td>
        );
      })}
    </tr>
  );
}

interface CellProps {
  cell: OverviewCell;
  /** The row's profile, as profileLabel names it. */
  who: string;
  position: string;
  busy: boolean;
  shown: boolean;
  alignEnd: boolean;
  tipId: string;
  onShow: (on: boolean) => void;
  onOpen: () => void;
}

function Cell({ cell, who, position, busy, shown, alignEnd, tipId, onShow, onOpen }: CellProps) {
  const idle = cell.band === 'idle';
  const fleet = fleetLabel(cell);
  const limited = limitedLabel(cell);
  const own = ownLabel(cell);
  const held = heldLabel(cell);
  return (
    <>
      <button
        type="button"
        className={`ov-cell ov-band-${cell.band}`}
        data-cell={position}
        data-endpoint={cell.spec.id}
        data-band={cell.band}
        data-use={idle ? undefined : cell.total.toFixed(3)}
        data-own={idle ? undefined : cell.use.toFixed(3)}
        aria-label={cellName(who, cell)}
        aria-describedby={shown ? tipId : undefined}
        aria-busy={busy || undefined}
        onClick={onOpen}
        onMouseEnter={() => onShow(true)}
        onMouseLeave={() => onShow(false)}
        onFocus={() => onShow(true)}
        onBlur={() => onShow(false)}
      >
        <span className="ov-value">{shareLabel(cell)}</span>
        {own ? <span className="ov-sub ov-own">{own}</span> : null}
        {held ? <span className="ov-sub ov-held">{held}</span> : null}
        {fleet ? <span className="ov-sub ov-fleet">{fleet}</span> : null}
        <span className="ov-marks">
          {limited ? <span className="ov-429">{limited}</span> : null}
          {cell.alerts.length > 0 ? <span className="ov-alert">!</span> : null}
        </span>
      </button>
      {shown ? <CellDetail id={tipId} who={who} cell={cell} alignEnd={alignEnd} /> : null}
    </>
  );
}
