/** The hover / focus card of one Overview cell: the last minute as a sparkline, and the figures behind the colour. */
import { useLayoutEffect, useRef, useState } from 'react';
import { fmtInt, fmtPercent, fmtRate } from '../../lib/format';
import { WARN_SHARE } from '../budget/budget-model';
import type { OverviewCell, SparkPoint } from './overview-model';
import { HELD_WARN_SHARE, heldLiftsBand, WINDOW_S } from './overview-model';
import { opensAbove } from './tip-placement';

const W = 228;
const H = 44;
const y = (share: number) => H - 2 - Math.min(1, share) * (H - 6);

/** A line through each second's value (a second without one is skipped), and its points. */
function lineThrough(points: readonly SparkPoint[], step: number, value: (p: SparkPoint) => number | null): { d: string; xs: number[]; ys: number[] } {
  const out = { d: '', xs: [] as number[], ys: [] as number[] };
  points.forEach((p, i) => {
    const v = value(p);
    if (v === null) return;
    out.d += `${out.xs.length === 0 ? 'M' : 'L'}${(i * step).toFixed(1)},${y(v).toFixed(1)}`;
    out.xs.push(i * step);
    out.ys.push(y(v));
  });
  return out;
}

/**
 * This app's share of the limit per second (area), the others' stacked on it (hatched, as on the Budget
 * charts: the top of the two is the whole budget's use), the warning share (dashed), and 429 seconds (red ticks).
 */
function Sparkline({ points }: { points: readonly SparkPoint[] }) {
  const step = W / Math.max(1, points.length - 1);
  const ours = lineThrough(points, step, (p) => p.share);
  const total = lineThrough(points, step, (p) => (p.share === null ? null : p.share + (p.others ?? 0)));
  const first = ours.xs[0];
  const last = ours.xs[ours.xs.length - 1];
  const area = first === undefined || last === undefined ? '' : `${ours.d}L${last.toFixed(1)},${H - 2}L${first.toFixed(1)},${H - 2}Z`;
  // Between our line and the total, back along our line: the others' band.
  const othersBand = points.some((p) => (p.others ?? 0) > 0)
    ? `${total.d}${ours.xs
        .map((x, i) => [x, ours.ys[i]!] as const)
        .reverse()
        .map(([x, v]) => `L${x.toFixed(1)},${v.toFixed(1)}`)
        .join('')}Z`
    : '';
  return (
    // Stretched to the card's width; strokes keep their width.
    <svg className="ov-spark" width="100%" height={H} viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true">
      <defs>
        <pattern id="ov-spark-hatch" className="lc-hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <line x1="0" y1="0" x2="0" y2="5" />
        </pattern>
      </defs>
      <line className="ov-spark-limit" x1={0} x2={W} y1={y(1)} y2={y(1)} />
      <line className="ov-spark-warn" x1={0} x2={W} y1={y(WARN_SHARE)} y2={y(WARN_SHARE)} />
      {area ? <path className="ov-spark-area" d={area} /> : null}
      {othersBand ? <path className="ov-spark-others" d={othersBand} fill="url(#ov-spark-hatch)" /> : null}
      {othersBand ? <path className="ov-spark-total" d={total.d} /> : null}
      {ours.d ? <path className="ov-spark-line" d={ours.d} /> : null}
      {points.map((p, i) => (p.n429 > 0 ? <rect key={i} className="ov-spark-429" x={i * step - 1} y={H - 6} width={2.5} height={6} /> : null))}
    </svg>
  );
}

/** The card, placed above its cell (the previous sibling) when the window has no room for it below. */
function usePlacedAbove() {
  const ref = useRef<HTMLDivElement>(null);
  const [above, setAbove] = useState(false);
  useLayoutEffect(() => {
    const card = ref.current;
    const cell = card?.previousElementSibling;
    if (!card || !cell) return;
    setAbove(opensAbove(cell.getBoundingClientRect(), card.offsetHeight, window.innerHeight));
  });
  return { ref, above };
}

/** `who`: the row's profile, as profileLabel names it. */
export function CellDetail({ id, who, cell, alignEnd }: { id: string; who: string; cell: OverviewCell; alignEnd: boolean }) {
  const rps = cell.seconds > 0 ? cell.requests / cell.seconds : 0;
  const { ref, above } = usePlacedAbove();
  return (
    <div ref={ref} id={id} role="tooltip" className={`ov-tip${alignEnd ? ' ov-tip-end' : ''}${above ? ' ov-tip-above' : ''}`}>
      <div className="ov-tip-head">
        <strong dir="auto">{who}</strong> <span className="method">{cell.spec.method}</span> <span className="mono">{cell.spec.path}</span>
      </div>
      <Sparkline points={cell.spark} />
      <div className="ov-tip-axis muted">
        <span>{WINDOW_S} s ago</span>
        <span>now</span>
      </div>
      <dl className="ov-tip-figures">
        {cell.band === 'idle' ? null : (
          <>
            <dt>Budget used</dt>
            <dd>
              <strong>{fmtPercent(cell.total)}</strong> of {cell.limit}/s (the figure and the colour)
              <div className="muted">this app and other consumers together{cell.n429 > 0 ? '; at the limit: the service answered 429' : ''}</div>
            </dd>
          </>
        )}
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
            <dt>Held back</dt>
            <dd className={cell.heldShare >= HELD_WARN_SHARE ? 'text-warn' : undefined}>
              {fmtPercent(cell.heldShare)} of the time
              {heldLiftsBand(cell) ? <div className="muted">waiting for budget most of the minute: coloured at least 80–99%</div> : null}
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
