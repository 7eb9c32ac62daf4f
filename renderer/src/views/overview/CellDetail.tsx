/** The hover / focus card of one Overview cell: the last minute as a sparkline, and the figures behind the colour. */
import { fmtInt, fmtPercent, fmtRate } from '../../lib/format';
import { WARN_SHARE } from '../budget/budget-model';
import type { OverviewCell, SparkPoint } from './overview-model';
import { WINDOW_S } from './overview-model';

const W = 228;
const H = 44;
const y = (share: number) => H - 2 - share * (H - 6);

/** Share of the limit per second (area), the warning share (dashed), and 429 seconds (red ticks). */
function Sparkline({ points }: { points: readonly SparkPoint[] }) {
  const step = W / Math.max(1, points.length - 1);
  const xs: number[] = [];
  let line = '';
  points.forEach((p, i) => {
    if (p.share === null) return;
    line += `${xs.length === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${y(p.share).toFixed(1)}`;
    xs.push(i * step);
  });
  const area = xs.length === 0 ? '' : `${line}L${xs[xs.length - 1]!.toFixed(1)},${H - 2}L${xs[0]!.toFixed(1)},${H - 2}Z`;
  return (
    // Stretched to the card's width; strokes keep their width.
    <svg className="ov-spark" width="100%" height={H} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true">
      <line className="ov-spark-limit" x1={0} x2={W} y1={y(1)} y2={y(1)} />
      <line className="ov-spark-warn" x1={0} x2={W} y1={y(WARN_SHARE)} y2={y(WARN_SHARE)} />
      {area ? <path className="ov-spark-area" d={area} /> : null}
      {line ? <path className="ov-spark-line" d={line} /> : null}
      {points.map((p, i) => (p.n429 > 0 ? <rect key={i} className="ov-spark-429" x={i * step - 1} y={H - 6} width={2.5} height={6} /> : null))}
    </svg>
  );
}

export function CellDetail({ id, vendor, cell, alignEnd }: { id: string; vendor: string; cell: OverviewCell; alignEnd: boolean }) {
  const rps = cell.seconds > 0 ? cell.requests / cell.seconds : 0;
  return (
    <div id={id} role="tooltip" className={alignEnd ? 'ov-tip ov-tip-end' : 'ov-tip'}>
      <div className="ov-tip-head">
        <strong>{vendor}</strong> <span className="method">{cell.spec.method}</span> <span className="mono">{cell.spec.path}</span>
      </div>
      <Sparkline points={cell.spark} />
      <div className="ov-tip-axis muted">
        <span>{WINDOW_S} s ago</span>
        <span>now</span>
      </div>
      <dl className="ov-tip-figures">
        <dt>This app</dt>
        <dd>
          {cell.band === 'idle' ? (
            'no requests in the last minute'
          ) : (
            <>
              <div>
                <strong>{fmtPercent(cell.use)}</strong> of {cell.limit}/s · peak {fmtPercent(cell.peak)}
              </div>
              <div className="muted">
                {fmtInt(cell.requests)} requests ({rps.toFixed(1)}/s)
                {cell.seconds < WINDOW_S ? `, the last ${cell.seconds} s only (the app's data starts there)` : ''}
              </div>
            </>
          )}
        </dd>
        {cell.fleet ? (
          <>
            <dt>Fleet (Redis)</dt>
            <dd>
              {cell.fleet.use === null ? (
                <span className="muted">no counts yet</span>
              ) : (
                <>
                  <strong>{fmtPercent(cell.fleet.use)}</strong> · peak {fmtPercent(cell.fleet.peak)}
                </>
              )}
              {cell.fleet.state === 'fallback' ? (
                <div className="text-warn">Store not answering{cell.fleet.message ? `: ${cell.fleet.message}` : ''}</div>
              ) : null}
            </dd>
          </>
        ) : null}
        {cell.band === 'idle' ? null : (
          <>
            <dt>Pressure</dt>
            <dd>
              <strong>{fmtPercent(cell.pressure)}</strong> of the budget (the colour)
              <div className="muted">
                ours + others {fmtPercent(Math.min(1, cell.use + cell.othersUse))} · held back {fmtPercent(cell.heldShare)} of the time
              </div>
            </dd>
          </>
        )}
        <dt>429s</dt>
        <dd className={cell.n429 > 0 ? 'text-danger strong' : undefined}>{fmtInt(cell.n429)}</dd>
        {cell.foreignUse > 0 ? (
          <>
            <dt>Others</dt>
            <dd className="text-warn">
              about {fmtRate(cell.foreignUse / Math.max(1, cell.seconds))} req/s by other consumers
              <div className="muted">estimated from the answers' headers, over the last {fmtInt(cell.seconds)} s</div>
            </dd>
          </>
        ) : null}
        {cell.alerts.length > 0 ? (
          <>
            <dt>Alerts</dt>
            <dd className="text-danger">
              {cell.alerts.map((a) => (
                <div key={a.id}>{a.message}</div>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      <div className="ov-tip-foot muted">Click or Enter: this vendor's Budget at this endpoint</div>
    </div>
  );
}
