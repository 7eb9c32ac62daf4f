/**
 * One endpoint's live chart, drawn as plain SVG: this app's requests per second (area), with the
 * fleet's other workers (as the budget store counted them) and other consumers (estimated from the
 * headers: hatched, "about") stacked on top, against the limit (solid line) and the 80% warning (dashed), the lowest Remaining per slot (step line), and 429s marked on
 * the time axis. Hovering any panel moves one shared crosshair over all of them; the tooltip opens on
 * the hovered panel only. The limit and 80% labels sit in a gutter right of the plot, where no data
 * is drawn.
 *
 * Why not recharts here: measured on this project's 2-core machine, each recharts 3 chart costs
 * 60-130 ms per update (its store updates run synchronously, so React cannot slice them); ten live
 * panels redrawn every second then block the main thread for over half a second. These panels cost
 * a few milliseconds together. recharts still draws the asset price history.
 */
import { memo, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { fmtInt, fmtMs, fmtPercent, fmtRate } from '../../lib/format';
import { chartMoment, chartTick } from '../../lib/chart-time';
import type { ChartPoint, ChartSeries } from './budget-model';
import { WARN_SHARE } from './budget-model';
import { hoverStore, snapToSlot } from './hover-store';
import { averageCaption } from './averaging-window';

/** The tooltip's rate caption: the view's one averaging window, as the series carries it. */
export function tooltipRateCaption(series: Pick<ChartSeries, 'windowS'>): string {
  return `(${averageCaption(series.windowS)})`;
}

/** The Remaining strip under the plot (when shown): its own axis, 0 to the limit. */
const STRIP_H = 42;
const M = { top: 16, right: 46, bottom: 18, left: 34 };
/** Room for one time label and a gap to the next (10 px tabular digits, measured 29 and 46 px wide): "15:04" and "15:04:05". */
const MINUTES_LABEL_PX = 33;
const SECONDS_LABEL_PX = 50;
/** The tooltip's width: it is placed beside the crosshair, and kept inside the panel. */
const TIP_W = 150;
/** Time-axis steps a label can fall on (ms): round clock times. */
const TIME_STEPS_MS = [5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600].map((s) => s * 1000);

/** Beside the crosshair (right of it, or left when there is no room), never outside the panel. */
function tooltipLeft(cursorX: number, width: number): number {
  const right = cursorX + 8;
  const left = cursorX - 8 - TIP_W;
  const wanted = right + TIP_W <= width - 4 ? right : left;
  return Math.max(4, Math.min(wanted, width - TIP_W - 4));
}

/**
 * Labels at round clock times (every 10 s, 20 s, 1 min, 5 min...): the finest step whose labels do not
 * overlap ("15:04" on whole minutes is narrower than "15:04:05"), so a narrow panel still gets three or more.
 */
export function timeAxis(from: number, to: number, widthPx: number): { ticks: number[]; stepMs: number } {
  const span = Math.max(1, to - from);
  const fits = (step: number) => (step / span) * widthPx >= (step % 60_000 === 0 ? MINUTES_LABEL_PX : SECONDS_LABEL_PX);
  const stepMs = TIME_STEPS_MS.find(fits) ?? TIME_STEPS_MS[TIME_STEPS_MS.length - 1]!;
  const ticks: number[] = [];
  for (let t = Math.ceil(from / stepMs) * stepMs; t <= to; t += stepMs) ticks.push(t);
  return { ticks, stepMs };
}

export function timeTicks(from: number, to: number, widthPx: number): number[] {
  return timeAxis(from, to, widthPx).ticks;
}

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

function pathOf(
  points: readonly ChartPoint[],
  x: (t: number) => number,
  y: (v: number) => number,
  pick: (p: ChartPoint) => number | null,
  step: boolean,
): string {
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

/** A band between two stacked values (lower, upper) for each unbroken run of points that have it. */
function bandOf(
  points: readonly ChartPoint[],
  x: (t: number) => number,
  y: (v: number) => number,
  lower: (p: ChartPoint) => number | null,
  upper: (p: ChartPoint) => number | null,
): string {
  let d = '';
  let run: { t: number; lo: number; hi: number }[] = [];
  const flush = () => {
    if (run.some((r) => r.hi > r.lo)) {
      d += run.map((r, i) => `${i === 0 ? 'M' : 'L'}${x(r.t).toFixed(1)},${y(r.hi).toFixed(1)}`).join('');
      for (let i = run.length - 1; i >= 0; i--) d += `L${x(run[i]!.t).toFixed(1)},${y(run[i]!.lo).toFixed(1)}`;
      d += 'Z';
    }
    run = [];
  };
  for (const p of points) {
    const lo = lower(p);
    const hi = upper(p);
    if (lo === null || hi === null) flush();
    else run.push({ t: p.t, lo, hi });
  }
  flush();
  return d;
}

/** Stacked tops: ours, then the fleet's other workers (counted), then other consumers (estimated). */
const fleetTop = (p: ChartPoint) => (p.rps === null || p.fleet === null ? null : p.rps + p.fleet);
const othersTop = (p: ChartPoint) => (p.rps === null || p.others === null ? null : p.rps + (p.fleet ?? 0) + p.others);
const othersBase = (p: ChartPoint) => (p.rps === null ? null : p.rps + (p.fleet ?? 0));

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
  showRemaining = false,
  height = 150,
  onPlotClick,
}: {
  series: ChartSeries;
  color: string;
  from: number;
  to: number;
  label: string;
  showRemaining?: boolean;
  /** The plot's height (px): larger in a panel's expanded view. */
  height?: number;
  onPlotClick?: () => void;
}) {
  const HEIGHT = height;
  const [ref, width] = useWidth();
  const hover = useSyncExternalStore(hoverStore.subscribe, hoverStore.get);
  useEffect(() => () => hoverStore.release(series.endpoint), [series.endpoint]);
  const innerW = Math.max(10, width - M.left - M.right);
  const innerH = HEIGHT - M.top - M.bottom;
  const top = Math.ceil(Math.max(series.limit * 1.25, series.maxRps * 1.05, 1));
  const span = Math.max(1, to - from);
  const x = (t: number) => M.left + ((t - from) / span) * innerW;
  const y = (v: number) => M.top + innerH - (Math.min(v, top) / top) * innerH;
  const stripInner = STRIP_H - 10;
  const yStrip = (v: number) => 4 + stripInner - (Math.min(Math.max(v, 0), series.limit) / Math.max(1, series.limit)) * stripInner;
  const shown = useMemo(() => series.points.filter((p) => p.t >= from && p.t <= to), [series, from, to]);
  // The paths depend on the data and size only: hovering (which re-renders) does not rebuild them.
  const paths = useMemo(
    () => ({
      area: areaOf(shown, x, y),
      rps: pathOf(shown, x, y, (p) => p.rps, false),
      fleet: bandOf(shown, x, y, (p) => p.rps, fleetTop),
      others: bandOf(shown, x, y, othersBase, othersTop),
      othersLine: pathOf(shown, x, y, (p) => (p.others !== null && p.others > 0 ? othersTop(p) : null), false),
      remaining: showRemaining ? pathOf(shown, x, yStrip, (p) => p.remaining, true) : '',
    }),
    [shown, width, from, to, top, showRemaining, HEIGHT], // x and y are functions of these
  );
  const ticksY = [0, Math.round(series.limit / 2), series.limit];
  const { ticks: ticksX, stepMs } = timeAxis(from, to, innerW);
  const marks = shown.filter((p) => p.n429 > 0);
  // Others' latest figure, in the headroom above the limit (where the stack rarely reaches): "about" where it is estimated.
  const latest = shown[shown.length - 1];
  const othersNow = latest ? (latest.others ?? 0) + (latest.fleet ?? 0) : 0;

  let hovered: ChartPoint | null = null;
  if (hover !== null && hover.t >= from && hover.t <= to) {
    let best = Infinity;
    for (const p of shown) {
      const d = Math.abs(p.t - hover.t);
      if (d < best) {
        best = d;
        hovered = p;
      }
    }
  }
  const ownTooltip = hovered !== null && hover?.panel === series.endpoint;

  const onMove = (e: React.MouseEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    const px = e.clientX - box.left;
    if (px < M.left || px > M.left + innerW) return hoverStore.set(null);
    hoverStore.set(snapToSlot(from + ((px - M.left) / innerW) * span, from, to, series.slotMs), series.endpoint);
  };

  const slotEnd = hovered ? hovered.t + series.slotMs : 0;
  return (
    <div ref={ref} className="live-chart">
      {width > 0 ? (
        <svg width={width} height={HEIGHT} role="img" aria-label={label} onMouseMove={onMove} onMouseLeave={() => hoverStore.set(null)} onClick={onPlotClick}>
          <g className="lc-grid">
            <text className="lc-unit" x={M.left - 6} y={M.top - 6} textAnchor="end">
              req/s
            </text>
            {ticksY.map((v) => (
              <g key={v}>
                <line x1={M.left} x2={M.left + innerW} y1={y(v)} y2={y(v)} />
                <text x={M.left - 6} y={y(v)} dy="0.32em" textAnchor="end">
                  {v}
                </text>
              </g>
            ))}
            {ticksX.map((t) => (
              <g key={t}>
                <line className="lc-tick" x1={x(t)} x2={x(t)} y1={M.top + innerH} y2={M.top + innerH + 3} />
                {/* Centred on its tick: the margins hold half a label, and ticks are a label's width apart, so none overlap. */}
                <text x={x(t)} y={HEIGHT - 3} textAnchor="middle">
                  {chartTick(t, span, stepMs)}
                </text>
              </g>
            ))}
          </g>
          <defs>
            <pattern id={`lc-hatch-${series.endpoint}`} className="lc-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <line x1="0" y1="0" x2="0" y2="6" />
            </pattern>
          </defs>
          <path className="lc-area" d={paths.area} fill={color} stroke="none" />
          <path className="lc-fleet" d={paths.fleet}>
            <title>Other workers of the fleet (counted by the budget store)</title>
          </path>
          <path className="lc-others" d={paths.others} fill={`url(#lc-hatch-${series.endpoint})`}>
            <title>Other consumers (about: estimated from the headers)</title>
          </path>
          <path className="lc-others-line" d={paths.othersLine} />
          <path className="lc-rps" d={paths.rps} stroke={color} />
          {othersNow >= 0.05 ? (
            <g>
              <title>Other consumers' use: the fleet's other workers as the budget store counted them, the rest estimated from the answers' headers</title>
              <text className="lc-others-label" x={M.left + 4} y={M.top + 2} dy="0.32em">
                {`others ${(latest?.others ?? 0) >= 0.05 ? 'about ' : ''}${fmtRate(othersNow)} req/s`}
              </text>
            </g>
          ) : null}
          <line className="lc-limit" x1={M.left} x2={M.left + innerW} y1={y(series.limit)} y2={y(series.limit)} />
          <text className="lc-limit-label" x={M.left + innerW + 4} y={y(series.limit)} dy="0.32em">
            limit {series.limit}
          </text>
          <line className="lc-warn" x1={M.left} x2={M.left + innerW} y1={y(series.limit * WARN_SHARE)} y2={y(series.limit * WARN_SHARE)} />
          <text className="lc-warn-label" x={M.left + innerW + 4} y={y(series.limit * WARN_SHARE)} dy="0.32em">
            80%
          </text>
          {marks.map((p) => (
            <path key={p.t} className="lc-429" d={`M${x(p.t)},${y(0) - 5}l4,4l-4,4l-4,-4z`}>
              <title>{`${p.n429} × 429 at ${chartMoment(p.t, span)}`}</title>
            </path>
          ))}
          {hovered ? <line className="lc-cursor" x1={x(hovered.t)} x2={x(hovered.t)} y1={M.top} y2={M.top + innerH} /> : null}
        </svg>
      ) : null}
      {width > 0 && showRemaining ? (
        <svg
          className="lc-strip"
          width={width}
          height={STRIP_H}
          role="img"
          aria-label={`Lowest remaining of ${label}`}
          onMouseMove={onMove}
          onMouseLeave={() => hoverStore.set(null)}
        >
          <g className="lc-grid">
            <line x1={M.left} x2={M.left + innerW} y1={yStrip(0)} y2={yStrip(0)} />
            <line x1={M.left} x2={M.left + innerW} y1={yStrip(series.limit)} y2={yStrip(series.limit)} />
            <text x={M.left - 6} y={yStrip(series.limit)} dy="0.32em" textAnchor="end">
              {series.limit}
            </text>
            <text x={M.left - 6} y={yStrip(0)} dy="0.32em" textAnchor="end">
              0
            </text>
          </g>
          <text className="lc-unit" x={M.left + innerW + 4} y={yStrip(series.limit / 2)} dy="0.32em">
            remaining
          </text>
          <path className="lc-remaining" d={paths.remaining} />
          {hovered ? <line className="lc-cursor" x1={x(hovered.t)} x2={x(hovered.t)} y1={yStrip(series.limit)} y2={yStrip(0)} /> : null}
        </svg>
      ) : null}
      {hovered && ownTooltip ? (
        <div className="chart-tooltip lc-tooltip" role="tooltip" style={{ width: TIP_W, whiteSpace: 'normal', left: tooltipLeft(x(hovered.t), width) }}>
          <div className="chart-tooltip-time">
            {chartMoment(hovered.t, span)}
            {series.slotMs > 1000 ? `–${chartMoment(slotEnd, span)}` : ''}
          </div>
          <div>
            Req/s <strong>{fmtRate(hovered.rps)}</strong> / {series.limit}
            <span className="muted"> {tooltipRateCaption(series)}</span>
          </div>
          {hovered.fleet !== null && hovered.fleet > 0 ? (
            <div>
              Fleet workers <strong>{fmtRate(hovered.fleet)}</strong>
            </div>
          ) : null}
          {hovered.others !== null && hovered.others > 0 ? (
            <div>
              Others about <strong>{fmtRate(hovered.others)}</strong> <span className="muted">(estimated)</span>
            </div>
          ) : null}
          <div>
            Remaining (lowest) <strong>{fmtInt(hovered.remaining)}</strong>
          </div>
          {hovered.n429 > 0 ? (
            <div className="text-danger">
              429s <strong>{hovered.n429}</strong>
            </div>
          ) : null}
          {hovered.wait.meanMs !== null && hovered.wait.meanMs >= 0.5 ? (
            <>
              <div>
                Wait (mean) <strong>{fmtMs(hovered.wait.meanMs)}</strong>
              </div>
              <div>
                Held back <strong>{fmtPercent(hovered.wait.heldShare)}</strong>
              </div>
            </>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});
