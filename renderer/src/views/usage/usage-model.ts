/** The Usage view's periods and colour steps, pure (days in the viewer's time zone). */
import { nextDay, startOfDay, zonedTime } from '../../../../shared/time-zone';

export type PeriodId = 'yesterday' | 'today' | 'last7' | 'last30' | 'custom';

export interface Period {
  fromDay: string;
  /** Included. */
  toDay: string;
}

export const PERIODS: { id: Exclude<PeriodId, 'custom'>; label: string }[] = [
  { id: 'yesterday', label: 'Yesterday' },
  { id: 'today', label: 'Today' },
  { id: 'last7', label: 'Last 7 days' },
  { id: 'last30', label: 'Last 30 days' },
];

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

function daysBefore(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - n)).toISOString().slice(0, 10);
}

export function presetPeriod(id: Exclude<PeriodId, 'custom'>, now: number, timeZone: string): Period {
  const today = zonedTime(now, timeZone).day;
  if (id === 'today') return { fromDay: today, toDay: today };
  if (id === 'yesterday') return { fromDay: daysBefore(today, 1), toDay: daysBefore(today, 1) };
  return { fromDay: daysBefore(today, id === 'last7' ? 7 : 30), toDay: daysBefore(today, 1) };
}

export function periodRange(period: Period, timeZone: string): { fromMs: number; toMs: number } {
  return { fromMs: startOfDay(period.fromDay, timeZone), toMs: startOfDay(nextDay(period.toDay), timeZone) };
}

/** Colour steps of the heat map by mean use of the limit; readable on light and dark. */
export const USE_STEPS: { upTo: number; label: string; fill: string; text: string }[] = [
  { upTo: 0.25, label: 'under 25%', fill: '#dbeafe', text: '#1e3a8a' },
  { upTo: 0.5, label: '25–50%', fill: '#93c5fd', text: '#1e3a8a' },
  { upTo: 0.75, label: '50–75%', fill: '#fcd34d', text: '#713f12' },
  { upTo: 0.9, label: '75–90%', fill: '#fb923c', text: '#431407' },
  { upTo: Infinity, label: '90% and more', fill: '#dc2626', text: '#ffffff' },
];

export function useStep(share: number): (typeof USE_STEPS)[number] {
  return USE_STEPS.find((s) => share < s.upTo) ?? USE_STEPS[USE_STEPS.length - 1]!;
}
