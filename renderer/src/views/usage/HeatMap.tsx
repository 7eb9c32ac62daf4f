/**
 * Use of the limit by hour of day x endpoint, as an SVG grid (colours set as attributes, so the PNG
 * export draws it as seen): where the budget is tight, and when. Each cell says its mean use (marked *
 * where it is the older measure); the tooltip adds peak, requests and 429s.
 */
import type { ReportHeatCell } from '../../../../shared/bridge/report-schemas';
import { ENDPOINTS, isEndpointId } from '../../../../shared/endpoints';
import { useMemo } from 'react';
import { fmtInt, fmtPercent, fmtUseWithOurs } from '../../lib/format';
import { USE_STEPS, useStep } from './usage-model';

/** Row labels: 11 px text ending LABEL_GAP before the first cell, in a column as wide as the longest. */
const LABEL_FONT_PX = 11;
const LABEL_GAP = 8;
const FONT_FAMILY = 'system-ui, sans-serif';
const CELL_W = 30;
const CELL_H = 24;
const HEAD_H = 20;

export const endpointLabel = (id: string): string => (isEndpointId(id) ? ENDPOINTS[id].label : id);

/** What "mean use" is (shared/usage-report.ts budgetUseOf), in words for a header's title. */
export const MEAN_USE_MEANS =
  'Mean use of the whole budget: in each second with requests, the share of the limit the service served to this app (answered, not 429) plus the other consumers\u2019 requests seen in the headers, averaged over those seconds, as the Budget view\u2019s utilisation and the Overview read it; this app\u2019s part ("ours") beside it';

/** Why a figure is marked *. */
export const OLDER_MEASURE_NOTE =
  'Mean use of times stored by an earlier version is the older measure, the mean of 1 \u2212 Remaining / Limit over the answers: it reads about half the use of a budget drained every second. Peak use is the same measure throughout.';

/**
 * The label column's width: the longest label as the page's font draws it (a fixed width cut "GET
 * /purchase/download-url" at its start), plus the gap and a margin; an estimate where no canvas can measure.
 */
export function labelColumnWidth(labels: readonly string[]): number {
  const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (context) context.font = `${LABEL_FONT_PX}px ${FONT_FAMILY}`;
  const widths = labels.map((label) => (context ? context.measureText(label).width : label.length * LABEL_FONT_PX * 0.66));
  return Math.ceil(Math.max(100, ...widths) + LABEL_GAP + 6);
}

export function HeatMap({ endpoints, cells }: { endpoints: readonly string[]; cells: readonly ReportHeatCell[] }) {
  const byKey = new Map(cells.map((c) => [`${c.endpoint}/${c.hour}`, c]));
  const labelW = useMemo(() => labelColumnWidth(endpoints.map(endpointLabel)), [endpoints]);
  const width = labelW + 24 * CELL_W;
  const height = HEAD_H + endpoints.length * CELL_H;
  return (
    <div className="heatmap">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        style={{ maxWidth: width * 1.25 }}
        role="img"
        aria-label="Mean use of the limit by hour of day and endpoint"
        fontFamily={FONT_FAMILY}
      >
        {Array.from({ length: 24 }, (_, hour) => (
          <text key={hour} x={labelW + hour * CELL_W + CELL_W / 2} y={HEAD_H - 6} fontSize={10} textAnchor="middle" fill="currentColor">
            {String(hour).padStart(2, '0')}
          </text>
        ))}
        {endpoints.map((endpoint, row) => (
          <g key={endpoint} data-endpoint={endpoint}>
            <text x={labelW - LABEL_GAP} y={HEAD_H + row * CELL_H + CELL_H / 2 + 4} fontSize={LABEL_FONT_PX} textAnchor="end" fill="currentColor">
              {endpointLabel(endpoint)}
            </text>
            {Array.from({ length: 24 }, (_, hour) => {
              const cell = byKey.get(`${endpoint}/${hour}`);
              const x = labelW + hour * CELL_W;
              const y = HEAD_H + row * CELL_H;
              if (!cell || cell.meanUse === null) {
                return (
                  <rect
                    key={hour}
                    x={x + 1}
                    y={y + 1}
                    width={CELL_W - 2}
                    height={CELL_H - 2}
                    rx={3}
                    fill="none"
                    stroke="#9ca3af"
                    strokeOpacity={0.35}
                    data-hour={hour}
                  />
                );
              }
              const step = useStep(cell.meanUse);
              const older = cell.meanUseOlder ? ' (older measure)' : '';
              return (
                <g key={hour} data-hour={hour} data-use={cell.meanUse.toFixed(3)} data-older={cell.meanUseOlder || undefined}>
                  <title>{`${endpointLabel(endpoint)}, ${String(hour).padStart(2, '0')}:00–${String(hour + 1).padStart(2, '0')}:00 — mean use ${fmtUseWithOurs(cell.meanUse, cell.meanUseOurs)}${older}, peak ${fmtPercent(cell.peakUse)}, ${fmtInt(cell.requests)} requests, ${fmtInt(cell.throttled)} × 429`}</title>
                  <rect x={x + 1} y={y + 1} width={CELL_W - 2} height={CELL_H - 2} rx={3} fill={step.fill} />
                  <text x={x + CELL_W / 2} y={y + CELL_H / 2 + 4} fontSize={9.5} textAnchor="middle" fill={step.text}>
                    {`${Math.round(cell.meanUse * 100)}${cell.meanUseOlder ? '*' : ''}`}
                  </text>
                  {cell.throttled > 0 ? <circle cx={x + CELL_W - 5} cy={y + 5} r={2.5} fill="#111827" stroke="#ffffff" strokeWidth={1} /> : null}
                </g>
              );
            })}
          </g>
        ))}
      </svg>
      <ul className="heatmap-legend" aria-label="Legend">
        <li>
          <span className="swatch swatch-empty" /> no traffic
        </li>
        {USE_STEPS.map((s) => (
          <li key={s.label}>
            <span className="swatch" style={{ background: s.fill }} /> {s.label}
          </li>
        ))}
        <li>
          <span className="swatch-dot" /> some 429s
        </li>
        <li className="heatmap-legend-note">
          Numbers: mean use of the whole budget (this app and other consumers) in % over the seconds with requests
          {cells.some((c) => c.meanUseOlder) ? ' (* the older measure)' : ''}; hours of day in your time zone.
        </li>
      </ul>
    </div>
  );
}
