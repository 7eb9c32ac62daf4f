import type { EndpointId } from '../../../../shared/endpoints';
import { DASH, fmtInt, fmtMs, fmtPercent, fmtRate } from '../../lib/format';
import { Pill } from '../../components/Pill';
import type { EndpointRow } from './budget-model';
import { ENDPOINT_COLORS, WARN_SHARE } from './budget-model';

function UtilisationBar({ share }: { share: number }) {
  const tone = share >= 1 ? 'danger' : share >= WARN_SHARE ? 'warn' : 'ok';
  return (
    <div className="util">
      <div className="util-track" aria-hidden="true">
        <div className={`util-fill util-${tone}`} style={{ transform: `scaleX(${Math.min(1, share)})` }} />
        <div className="util-warn-mark" style={{ left: `${WARN_SHARE * 100}%` }} />
      </div>
      <span className="util-label">{fmtPercent(share)}</span>
    </div>
  );
}

function StateCell({ row }: { row: EndpointRow }) {
  if (row.pausedForMs !== null) return <Pill tone="danger" title="The client paused this bucket after a 429">Paused {fmtMs(row.pausedForMs)}</Pill>;
  if (row.queued > 0) return <Pill tone="warn" title="Requests waiting for budget">Queued {row.queued}</Pill>;
  if (row.utilisation >= WARN_SHARE) return <Pill tone="warn">Busy</Pill>;
  if (row.rps > 0 || row.inFlight > 0) return <Pill tone="ok">Active</Pill>;
  return <Pill tone="neutral">Idle</Pill>;
}

export function BudgetTable({
  rows,
  rangeLabel,
  onOpen,
}: {
  rows: EndpointRow[];
  rangeLabel: string;
  onOpen: (endpoint: EndpointId) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table budget-table" aria-label="Endpoint budgets">
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col" className="num">
              Limit
            </th>
            <th scope="col" className="num">
              Remaining
            </th>
            <th scope="col" className="col-util">
              Utilisation
            </th>
            <th scope="col" className="num">
              Req/s
            </th>
            <th scope="col" className="num" title={`429 answers in the last ${rangeLabel}`}>
              429s
            </th>
            <th scope="col" className="num" title={`Time requests waited for budget in the last ${rangeLabel}`}>
              Waited
            </th>
            <th scope="col" className="num" title="Until the service's budget is full again">
              Refill in
            </th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.spec.id}
              data-endpoint={row.spec.id}
              tabIndex={0}
              className="row-clickable"
              aria-label={`${row.spec.label}: show chart`}
              onClick={() => onOpen(row.spec.id)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  onOpen(row.spec.id);
                }
              }}
            >
              <th scope="row">
                <span className="endpoint-cell">
                  <span className="swatch" style={{ background: ENDPOINT_COLORS[row.spec.id] }} aria-hidden="true" />
                  <span className="method">{row.spec.method}</span>
                  <span className="mono">{row.spec.path}</span>
                </span>
              </th>
              <td className="num">{fmtInt(row.limit)}</td>
              <td
                className={row.remainingEstimated ? 'num muted' : 'num'}
                data-col="remaining"
                title={row.remainingEstimated ? 'No request for a while: the budget has refilled since the last response' : undefined}
              >
                {row.remainingEstimated ? '≈ ' : ''}
                {fmtInt(row.remaining)}
              </td>
              <td className="col-util">
                <UtilisationBar share={row.utilisation} />
              </td>
              <td className="num" data-col="rps">
                {fmtRate(row.rps)} <span className="muted">/ {row.limit}</span>
              </td>
              <td className={row.rateLimited > 0 ? 'num text-warn strong' : 'num'} data-col="429s">
                {fmtInt(row.rateLimited)}
              </td>
              <td
                className="num"
                data-col="waited"
                title={row.requests > 0 ? `${fmtMs(row.waitedMs / row.requests)} per request on average` : undefined}
              >
                {row.waitedMs >= 0.5 ? fmtMs(row.waitedMs) : '0'}
              </td>
              <td className="num" data-col="refill">
                {row.resetInMs !== null ? fmtMs(row.resetInMs) : DASH}
              </td>
              <td data-col="state">
                <StateCell row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
