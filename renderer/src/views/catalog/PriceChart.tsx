/** Price over time from an asset's history (lazy: recharts stays out of the first chunk). */
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistoryEntry } from '../../../../shared/catalog';
import { fmtDateTime, fmtPrice } from '../../lib/format';

export default function PriceChart({ entries, currency }: { entries: HistoryEntry[]; currency: string | null }) {
  const data = entries.map((e) => ({ t: Date.parse(e.at), price: e.price as number, event: e.event })).sort((a, b) => a.t - b.t);
  return (
    <div className="price-chart" role="img" aria-label={`Price history, ${data.length} points`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -8 }}>
          <CartesianGrid stroke="var(--chart-grid)" vertical={false} />
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={['dataMin', 'dataMax']}
            tickFormatter={(t: number) => new Date(t).toLocaleDateString(undefined, { month: 'short', year: '2-digit' })}
            tick={{ fontSize: 10, fill: 'var(--text-muted)' }}
            stroke="var(--border)"
            minTickGap={30}
          />
          <YAxis tick={{ fontSize: 10, fill: 'var(--text-muted)' }} stroke="var(--border)" width={52} domain={['auto', 'auto']} />
          <Tooltip
            isAnimationActive={false}
            labelFormatter={(t) => fmtDateTime(Number(t))}
            formatter={(v) => [fmtPrice(Number(v), currency), 'Price']}
            contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', fontSize: 12 }}
          />
          <Line dataKey="price" type="stepAfter" stroke="var(--accent)" strokeWidth={2} dot={{ r: 2.5 }} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
