/**
 * The Usage report from the stored history: per-minute rows where the store still keeps them, per-hour
 * rows before that (older than the minute retention), never both for the same time; then the pure
 * report (shared/usage-report.ts). Used by the `usageReport` call and the report CLI.
 */
import type { UsageReport } from '../../shared/bridge/report-schemas';
import { buildUsageReport } from '../../shared/usage-report';
import type { ReportRow } from '../../shared/usage-report';
import { zonedTime } from '../../shared/time-zone';
import type { UsageQuery, UsageRow } from '../store';

const MINUTE = 60_000;
const HOUR = 3_600_000;

export interface ReportSubject {
  profileId: string;
  profileName: string | null;
  vendor: string;
  fromMs: number;
  /** Exclusive. */
  toMs: number;
  timeZone: string;
}

export interface ReportSource {
  rows: (query: UsageQuery) => UsageRow[];
  now: number;
  /** How long per-minute rows are kept (ms). */
  minuteRetentionMs: number;
}

const withBucket =
  (bucketMs: number) =>
  (r: UsageRow): ReportRow => ({ ...r, bucketMs });

/**
 * The local minute at which the per-hour rows (whole UTC hours) start, where it is not 0: those rows
 * cannot be split at local midnight, so each counts once, in the day its hour starts (the report says so).
 */
function hourEdgeMinute(fromMs: number, timeZone: string): number | null {
  const { minute } = zonedTime(Math.ceil(fromMs / HOUR) * HOUR, timeZone);
  return minute === 0 ? null : minute;
}

export function usageReportFrom(source: ReportSource, subject: ReportSubject): UsageReport {
  const { profileId, vendor, fromMs, toMs } = subject;
  // Whole hours before this are read from per-hour rows: their minutes may be gone.
  const minutesFrom = Math.ceil((source.now - source.minuteRetentionMs) / HOUR) * HOUR;
  const rows: ReportRow[] = [];
  if (fromMs < minutesFrom) {
    rows.push(...source.rows({ level: 'hour', fromMs, toMs: Math.min(toMs, minutesFrom), profileId, vendor }).map(withBucket(HOUR)));
  }
  if (toMs > minutesFrom) {
    rows.push(...source.rows({ level: 'minute', fromMs: Math.max(fromMs, minutesFrom), toMs, profileId, vendor }).map(withBucket(MINUTE)));
  }
  return {
    profileId,
    profileName: subject.profileName,
    vendor,
    hourlyBeforeMs: fromMs < minutesFrom ? Math.min(toMs, minutesFrom) : null,
    hourlyEdgeMinute: fromMs < minutesFrom ? hourEdgeMinute(fromMs, subject.timeZone) : null,
    problem: null,
    ...buildUsageReport(rows, subject),
  };
}
