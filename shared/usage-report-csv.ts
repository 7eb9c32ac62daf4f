/** The Usage report's table (per endpoint and day) as CSV, through the one CSV module; the CLI and the view share it. */
import type { UsageReport } from './bridge/report-schemas';
import { csvRow } from './csv';

export const USAGE_REPORT_CSV_HEADER = [
  'day',
  'endpoint',
  'requests',
  'mean_use_pct',
  'peak_use_pct',
  'our_429s',
  'our_429s_explained_by_others',
  'others_requests_inferred',
  'other_failures',
  'wait_mean_ms',
  'wait_p95_ms',
  'held_back_pct',
  // Which mean use: per second (served / limit), or the older per-answer one of days stored before it.
  'mean_use_measure',
  // This app's part of mean_use_pct (which counts the other consumers too); empty for the older measure.
  'mean_use_ours_pct',
] as const;

const pct = (share: number | null): string => (share === null ? '' : (share * 100).toFixed(1));
const ms = (value: number | null): string => (value === null ? '' : value.toFixed(1));

export function usageReportCsv(report: Pick<UsageReport, 'days'>): string {
  return (
    csvRow([...USAGE_REPORT_CSV_HEADER]) +
    report.days
      .map((d) =>
        csvRow([
          d.day,
          d.endpoint,
          String(d.requests),
          pct(d.meanUse),
          pct(d.peakUse),
          String(d.throttled),
          String(d.throttledByOthers),
          String(d.othersRequests),
          String(d.failures),
          ms(d.waitMeanMs),
          ms(d.waitP95Ms),
          pct(d.heldBackShare),
          d.meanUse === null ? '' : d.meanUseOlder ? 'older_per_answer' : 'per_second',
          pct(d.meanUseOurs),
        ]),
      )
      .join('')
  );
}
