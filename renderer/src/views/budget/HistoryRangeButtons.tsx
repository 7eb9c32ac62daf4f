/**
 * The history half of the Budget view's range choice: 6 h, 24 h, 7 d, 30 d, and Custom (from and to,
 * also set by dragging across a history chart). null is a live range.
 */
import { useState } from 'react';
import { fmtDateTime } from '../../lib/format';
import type { HistoryWindow } from '../../../../shared/usage-history-model';
import { HISTORY_RANGES, MIN_ZOOM_MS, windowRange } from '../../../../shared/usage-history-model';

/** "2026-11-21T14:05" in local time, as a datetime-local input holds it. */
function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

export function HistoryRangeButtons({ value, onChange }: { value: HistoryWindow | null; onChange(next: HistoryWindow): void }) {
  const [picking, setPicking] = useState(false);
  const current = value ? windowRange(value, Date.now()) : null;
  const [draft, setDraft] = useState<{ from: string; to: string }>({ from: '', to: '' });
  const openPicker = () => {
    const r = current ?? windowRange({ preset: '24h', custom: null }, Date.now());
    setDraft({ from: toLocalInput(r.fromMs), to: toLocalInput(r.toMs) });
    setPicking(!picking);
  };
  const fromMs = Date.parse(draft.from);
  const toMs = Date.parse(draft.to);
  const valid = Number.isFinite(fromMs) && Number.isFinite(toMs) && toMs - fromMs >= MIN_ZOOM_MS;
  return (
    <>
      {HISTORY_RANGES.map((r) => (
        <button
          key={r.id}
          type="button"
          aria-pressed={value?.preset === r.id && value.custom === null}
          onClick={() => onChange({ preset: r.id, custom: null })}
        >
          {r.label}
        </button>
      ))}
      <button
        type="button"
        aria-pressed={value?.custom != null}
        aria-expanded={picking}
        title={
          value?.custom
            ? `${fmtDateTime(value.custom.fromMs)} – ${fmtDateTime(value.custom.toMs)} (double-click a chart to go back)`
            : 'Choose a range, or drag across a history chart'
        }
        onClick={openPicker}
      >
        Custom
      </button>
      {picking ? (
        <form
          className="history-custom inline-field"
          aria-label="Custom range"
          onSubmit={(e) => {
            e.preventDefault();
            if (!valid) return;
            onChange({ preset: value?.preset ?? '24h', custom: { fromMs, toMs } });
            setPicking(false);
          }}
        >
          <input className="input" type="datetime-local" aria-label="From" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          <input className="input" type="datetime-local" aria-label="To" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          <button type="submit" className="btn" disabled={!valid} title={valid ? undefined : 'From must be at least a minute before To'}>
            Show
          </button>
        </form>
      ) : null}
    </>
  );
}
