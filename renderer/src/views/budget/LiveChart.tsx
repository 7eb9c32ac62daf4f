/**
 * One endpoint's live chart, drawn as plain SVG: requests per second (area) against the limit (solid
 * line) and the 80% warning (dashed), the lowest Remaining per slot (step line), and 429s marked on
 * the time axis. Hovering any panel moves one shared crosshair and tooltip over all of them.
 *
 * Why not recharts here: measured on this project's 2-core machine, each recharts 3 chart costs
 * 60-130 ms per update (its store updates run synchronously, so React cannot slice them); ten live
 * panels redrawn every second then block the main thread for over half a second. These panels cost
 * a few milliseconds together. recharts still draws the asset price history.
 */
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { fmtClock, fmtInt, fmtMs, fmtRate } from '../../lib/format';
import type { ChartPoint, ChartSeries } from './budget-model';
import { WARN_SHARE } from './budget-model';
import { hoverStore, snapToSlot } from './hover-store';

const HEIGHT = 150;
const M = { top: 8, right: 10, bottom: 18, left: 34 };

function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

function pathOf(points: readonly ChartPoint[], x: (t: number) => number, y: (v: number) => number, pick: (p: ChartPoint) => number | null, step: boolean): string {
  let d = '';
  let open = false;
  for (const p of points) {
    const v = pick(p);
    if (v === null) {
      open = false;
      continue;
    }
    const px = x(p.t).toFixed(1);
    const py = y(v).toFixed(1);
    if (!open) d += `M${px},${py}`;
    else d += step ? `H${px}V${py}` : `L${px},${py}`;
    open = true;
  }
  return d;
}

/** The area under requests/s: the line, closed down to the axis for each unbroken run. */
function areaOf(points: readonly ChartPoint[], x: (t: number) => number, y: (v: number) => number): string {
  let d = '';
  let run: ChartPoint[] = [];
  const flush = () => {
    if (run.length > 0) {
      const first = run[0]!;
      const last = run[run.length - 1]!;
      d += `M${x(first.t).toFixed(1)},${y(0).toFixed(1)}`;
      for (const p of run) d += `L${x(p.t).toFixed(1)},${y(p.rps!).toFixed(1)}`;
      d += `L${x(last.t).toFixed(1)},${y(0).toFixed(1)}Z`;
    }
    run = [];
  };
  for (const p of points) {
    if (p.rps === null) flush();
    else run.push(p);
  }
  flush();
  return d;
}

export const LiveChart = memo(function LiveChart({
  series,
  color,
  from,
  to,
  label,
}: {
  series: ChartSeries;
  color: string;
  from: number;
  to: number;
  label: string;
}) {
  const [ref, width] = useWidth();
  const hover = useSyncExternalStore(hoverStore.subscribe, hoverStore.get);
  const innerW = Math.max(10, width - M.left - M.right);
  const innerH = HEIGHT - M.top - M.bottom;
  const top = Math.ceil(Math.max(series.limit * 1.25, series.maxRps * 1.05, 1));
  const span = Math.max(1, to - from);
  const x = (t: number) => M.left + ((t - from) / span) * innerW;
  const y = (v: number) => M.top + innerH - (Math.min(v, top) / top) * innerH;
  // The paths depend on the data and size only: hovering (which re-renders) does not rebuild them.
  const paths = useMemo(
    () => ({
      area: areaOf(series.points, x, y),
      rps: pathOf(series.points, x, y, (p) => p.rps, false),
      remaining: pathOf(series.points, x, y, (p) => p.remaining, true),
    }),
    [series, width, from, to], // x and y are functions of these
  );
  const ticksY = [0, Math.round(series.limit / 2), series.limit];
  // As many time labels as fit (about 70 px each).
  const nTicks = Math.max(2, Math.min(5, Math.floor(innerW / 70)));
  const ticksX = Array.from({ length: nTicks }, (_, i) => from + (span * i) / (nTicks - 1));
  const marks = series.points.filter((p) => p.n429 > 0);

  let hovered: ChartPoint | null = null;
  if (hover !== null && hover >= from && hover <= to) {
    let best = Infinity;
    for (const p of series.points) {
      const d = Math.abs(p.t - hover);
      if (d < best) {
        best = d;
        hovered = p;
      }
    }
  }

  const onMove = (e: React.MouseEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - box.left;
    if (px < M.left || px > M.left + innerW) return hoverStore.set(null);
    const first = series.points[0];
    const second = series.points[1];
    const slotMs = first && second ? second.t - first.t : 0;
    hoverStore.set(snapToSlot(from + ((px - M.left) / innerW) * span, from, to, slotMs));
  };

  return (
    <div ref={ref} className="live-chart">
      {width > 0 ? (
        <svg width={width} height={HEIGHT} role="img" aria-label={label} onMouseMove={onMove} onMouseLeave={() => hoverStore.set(null)}>
          <g className="lc-grid">
            {ticksY.map((v) => (
              <g key={v}>
                <line x1={M.left} x2={M.left + innerW} y1={y(v)} y2={y(v)} />
                <text x={M.left - 6} y={y(v)} dy="0.32em" textAnchor="end">
                  {v}
                </text>
              </g>
            ))}
            {ticksX.map((t, i) => (
              <text key={t} x={x(t)} y={HEIGHT - 4} textAnchor={i === 0 ? 'start' : i === nTicks - 1 ? 'end' : 'middle'}>
                {fmtClock(t)}
              </text>
            ))}
          </g>
          <path className="lc-area" d={paths.area} fill={color} stroke="none" />
          <path className="lc-rps" d={paths.rps} stroke={color} />
          <path className="lc-remaining" d={paths.remaining} />
          <line className="lc-limit" x1={M.left} x2={M.left + innerW} y1={y(series.limit)} y2={y(series.limit)} />
          <text className="lc-limit-label" x={M.left + innerW - 2} y={y(series.limit) - 3} textAnchor="end">
            limit {series.limit}
          </text>
          <line className="lc-warn" x1={M.left} x2={M.left + innerW} y1={y(series.limit * WARN_SHARE)} y2={y(series.limit * WARN_SHARE)} />
          <text className="lc-warn-label" x={M.left + 3} y={y(series.limit * WARN_SHARE) + 10}>
            80%
          </text>
          {marks.map((p) => (
            <path key={p.t} className="lc-429" d={`M${x(p.t)},${y(0) - 5}l4,4l-4,4l-4,-4z`}>
              <title>{`${p.n429} × 429 at ${fmtClock(p.t)}`}</title>
            </path>
          ))}
          {hovered ? <line className="lc-cursor" x1={x(hovered.t)} x2={x(hovered.t)} y1={M.top} y2={M.top + innerH} /> : null}
        </svg>
      ) : null}
      {hovered ? (
        <div className="chart-tooltip lc-tooltip" style={x(hovered.t) > width / 2 ? { right: width - x(hovered.t) + 8 } : { left: x(hovered.t) + 8 }}>
          <div className="chart-tooltip-time">{fmtClock(hovered.t)}</div>
          <div>
            Req/s <strong>{fmtRate(hovered.rps)}</strong> / {series.limit}
          </div>
          <div>
            Remaining (lowest) <strong>{fmtInt(hovered.remaining)}</strong>
          </div>
          {hovered.n429 > 0 ? (
            <div className="text-danger">
              429s <strong>{hovered.n429}</strong>
            </div>
          ) : null}
          {hovered.waitedMs > 0 ? <div>Waited {fmtMs(hovered.waitedMs)}</div> : null}
        </div>
      ) : null}
    </div>
  );
});
