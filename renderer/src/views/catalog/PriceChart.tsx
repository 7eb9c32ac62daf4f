/**
 * Price over time from an asset's history (lazy: recharts stays out of the first chunk). Dates carry
 * the year unless it is this one; the y axis says the currency; a single entry is drawn as a point.
 */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtDateTime, fmtPrice } from '../../lib/format';

export interface PricePoint {
  /** Epoch ms. */
  time: number;
  value: number;
}

/** Half a day either side of a single point, so that it sits in the middle of a readable axis. */
const LONE_POINT_PAD_MS = 12 * 3600 * 1000;

/** "Mar 4" this year, "Mar 4, 2024" any other year: a date never reads as ambiguous. */
export function priceDateLabel(t: number, thisYear = new Date().getFullYear()): string {
  const d = new Date(t);
  return d.toLocaleDateString(
    undefined,
    d.getFullYear() === thisYear ? { month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric', year: 'numeric' },
  );
}

export default function PriceChart({ points, currency }: { points: readonly PricePoint[]; currency: string | null }) {
  const data = points.filter((p) => Number.isFinite(p.time) && Number.isFinite(p.value)).sort((a, b) => a.time - b.time);
  const lone = data.length === 1;
  const domain: [number, number] | ['dataMin', 'dataMax'] = lone
    ? [data[0]!.time - LONE_POINT_PAD_MS, data[0]!.time + LONE_POINT_PAD_MS]
    : ['dataMin', 'dataMax'];
  const unit = currency ?? 'price';
  return (
    <div className="price-chart" role="img" aria-label={`Price history in ${unit}, ${data.length} ${data.length === 1 ? 'point' : 'points'}`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 18, right: 12, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis
            dataKey="time"
            type="number"
            scale="time"
            domain={domain}
            ticks={lone ? [data[0]!.time] : undefined}
            tickFormatter={(t: number) => priceDateLabel(t)}
            tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
            stroke="var(--border)"
            minTickGap={36}
          />
          <YAxis
            tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
            stroke="var(--border)"
            width={56}
            domain={['auto', 'auto']}
            label={{ value: unit, position: 'top', offset: 8, dx: 10, fontSize: 10, fill: 'var(--text-muted)' }}
          />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(t) => fmtDateTime(Number(t))}
            formatter={(v) => [fmtPrice(Number(v), currency), 'Price']}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12 }}
          />
          <Line dataKey="value" type="stepAfter" stroke="var(--accent)" strokeWidth={2} dot={{ r: lone ? 4 : 2.5 }} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
