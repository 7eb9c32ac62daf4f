/**
 * The Usage report (issue 12 §2) for account managers: one vendor profile over whole days — per
 * endpoint and day the requests, use of the limit, 429s and waits; use by hour of day x endpoint; the
 * busiest minutes. Export as CSV (the shared CSV module) or PNG (the heat map, or the whole report).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { BusyMinute, ReportDay, UsageReport } from '../../../../shared/bridge/report-schemas';
import { usageReportCsv } from '../../../../shared/usage-report-csv';
import { useApi } from '../../api/context';
import { useConnection, useProfiles } from '../../api/queries';
import { DataTable } from '../../components/DataTable';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { downloadBlob, downloadText } from '../../lib/csv';
import { fmtDate, fmtDateTime, fmtInt, fmtMs, fmtPercent, fmtUseWithOurs } from '../../lib/format';
import { routeHref } from '../../lib/hash-route';
import { holdsMinute, spanText } from '../requests/log-span';
import { useLogSpan } from '../requests/use-log-span';
import { HeatMap, MEAN_USE_MEANS, OLDER_MEASURE_NOTE, endpointLabel } from './HeatMap';
import { elementToPng } from './png-export';
import { openingPeriod } from './opening-period';
import type { Period, PeriodId } from './usage-model';
import { localTimeZone, PERIODS, periodRange, presetPeriod } from './usage-model';
import './usage.css';

const COLUMNS: ColumnDef<ReportDay, unknown>[] = [
  { id: 'day', header: 'Day', accessorFn: (r) => r.day, cell: ({ row }) => fmtDay(row.original.day), size: 110, minSize: 100, meta: { rowHeader: true } },
  { id: 'endpoint', header: 'Endpoint', accessorFn: (r) => endpointLabel(r.endpoint), size: 180, minSize: 160 },
  {
    id: 'requests',
    header: 'Requests',
    accessorFn: (r) => r.requests,
    cell: ({ row }) => fmtInt(row.original.requests),
    size: 90,
    minSize: 74,
    meta: { numeric: true },
  },
  {
    id: 'meanUse',
    header: 'Mean use',
    accessorFn: (r) => r.meanUse ?? -1,
    cell: ({ row }) => <MeanUse day={row.original} />,
    size: 84,
    minSize: 64,
    meta: { numeric: true, headerTitle: MEAN_USE_MEANS },
  },
  {
    id: 'peakUse',
    header: 'Peak use',
    accessorFn: (r) => r.peakUse ?? -1,
    cell: ({ row }) => fmtPercent(row.original.peakUse),
    size: 84,
    minSize: 64,
    meta: { numeric: true },
  },
  {
    id: 'throttled',
    header: '429s',
    accessorFn: (r) => r.throttled,
    cell: ({ row }) => fmtInt(row.original.throttled),
    size: 64,
    minSize: 52,
    meta: { numeric: true, headerTitle: 'Our requests answered 429' },
  },
  {
    id: 'byOthers',
    header: '429s from others',
    accessorFn: (r) => r.throttledByOthers,
    cell: ({ row }) => fmtInt(row.original.throttledByOthers),
    size: 120,
    minSize: 90,
    meta: { numeric: true, dropOrder: 3, headerTitle: 'Of our 429s, those other consumers\u2019 use of the budget explains (inferred from Remaining)' },
  },
  {
    id: 'others',
    header: 'Others\u2019 requests',
    accessorFn: (r) => r.othersRequests,
    cell: ({ row }) => fmtInt(row.original.othersRequests),
    size: 120,
    minSize: 90,
    meta: { numeric: true, dropOrder: 2, headerTitle: 'Requests of other consumers of this vendor, inferred from Remaining' },
  },
  {
    id: 'waitMean',
    header: 'Wait (mean)',
    accessorFn: (r) => r.waitMeanMs ?? -1,
    cell: ({ row }) => fmtMs(row.original.waitMeanMs),
    size: 96,
    minSize: 76,
    meta: { numeric: true, headerTitle: 'Mean time a request waited for budget before it was sent' },
  },
  {
    id: 'waitP95',
    header: 'Wait (p95)',
    accessorFn: (r) => r.waitP95Ms ?? -1,
    cell: ({ row }) => fmtMs(row.original.waitP95Ms),
    size: 90,
    minSize: 76,
    meta: { numeric: true, dropOrder: 1, headerTitle: '95% of requests were in minutes whose mean wait was at most this' },
  },
  {
    id: 'heldBack',
    header: 'Held back',
    accessorFn: (r) => r.heldBackShare ?? -1,
    cell: ({ row }) => fmtPercent(row.original.heldBackShare),
    size: 86,
    minSize: 70,
    meta: {
      numeric: true,
      headerTitle: 'Share of the time (minutes with traffic) requests spent waiting for budget; an upper estimate, overlapping waits each count',
    },
  },
];

/** The day's mean use; a figure of the older measure is marked, and the note above the table says what it is. */
function MeanUse({ day }: { day: ReportDay }) {
  if (!day.meanUseOlder) return <>{fmtUseWithOurs(day.meanUse, day.meanUseOurs)}</>;
  return (
    <span className="older-measure" title={OLDER_MEASURE_NOTE}>
      {fmtPercent(day.meanUse)}*
    </span>
  );
}

/** "Sat, Nov 21": the weekday matters in a weekly report; the year is in the subtitle. */
function fmtDay(day: string): string {
  return new Date(`${day}T12:00:00`).toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
}

function fileStem(report: UsageReport, period: Period): string {
  const who = (report.profileName ?? report.vendor ?? 'usage').replace(/[^\w.-]+/g, '-');
  return `usage-${who}-${period.fromDay}${period.toDay === period.fromDay ? '' : `_${period.toDay}`}`;
}

export default function UsageView() {
  const api = useApi();
  const timeZone = useMemo(localTimeZone, []);
  const profiles = useProfiles();
  const connection = useConnection();
  const [chosenProfile, setChosenProfile] = useState<string | null>(null);
  const profileId = chosenProfile ?? connection.data?.profileId ?? profiles.data?.activeId ?? null;
  // Not chosen yet: yesterday, or today when yesterday has nothing stored (read with yesterday's own query).
  const [chosenPeriod, setPeriodId] = useState<PeriodId | null>(null);
  const yesterdayRange = periodRange(presetPeriod('yesterday', Date.now(), timeZone), timeZone);
  const yesterday = useQuery({
    queryKey: ['usageReport', profileId, yesterdayRange.fromMs, yesterdayRange.toMs, timeZone],
    queryFn: () => api.usageReport({ ...(profileId ? { profileId } : {}), ...yesterdayRange, timeZone }),
    enabled: chosenPeriod === null,
  });
  const periodId: PeriodId = chosenPeriod ?? openingPeriod(chosenPeriod === null ? yesterday.data : undefined) ?? 'yesterday';
  const [custom, setCustom] = useState<Period>(() => presetPeriod('last7', Date.now(), timeZone));
  const period = periodId === 'custom' ? custom : presetPeriod(periodId, Date.now(), timeZone);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(period.fromDay) && /^\d{4}-\d{2}-\d{2}$/.test(period.toDay) && period.fromDay <= period.toDay;
  const range = valid ? periodRange(period, timeZone) : null;
  const reportRef = useRef<HTMLDivElement>(null);
  const heatRef = useRef<HTMLElement>(null);
  const [exportProblem, setExportProblem] = useState<string | null>(null);

  const query = useQuery({
    queryKey: ['usageReport', profileId, range?.fromMs, range?.toMs, timeZone],
    queryFn: () => api.usageReport({ ...(profileId ? { profileId } : {}), fromMs: range!.fromMs, toMs: range!.toMs, timeZone }),
    enabled: range !== null,
    placeholderData: keepPreviousData,
  });
  const report = query.data;
  // Another period's or profile's report still on screen while this one loads: dimmed and inert (its heat
  // map's PNG too), never exported under the name of the one asked for, and not named as the one asked for;
  // where it was empty, the loading state instead (an empty one says nothing of the period asked for).
  const previous = query.isPlaceholderData;
  const exportable = report !== undefined && !previous && report.days.length > 0;

  const savePng = async (element: HTMLElement | null, name: string) => {
    if (!element) return;
    setExportProblem(null);
    try {
      downloadBlob(`${name}.png`, await elementToPng(element));
    } catch (e) {
      setExportProblem(`The PNG could not be made: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return (
    <div className="view usage-view" ref={reportRef}>
      <div className="view-head usage-head">
        <h1 className="view-title">Usage report</h1>
        <div className="usage-controls" data-png-skip>
          <label className="field-inline">
            <span>Profile</span>
            <select className="input" value={profileId ?? ''} onChange={(e) => setChosenProfile(e.target.value || null)} aria-label="Profile">
              {(profiles.data?.items ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} ({p.vendor})
                </option>
              ))}
            </select>
          </label>
          <div className="segmented" role="group" aria-label="Period" data-shortcut="range">
            {PERIODS.map((p) => (
              <button key={p.id} type="button" aria-pressed={periodId === p.id} onClick={() => setPeriodId(p.id)}>
                {p.label}
              </button>
            ))}
            <button type="button" aria-pressed={periodId === 'custom'} onClick={() => setPeriodId('custom')}>
              Custom
            </button>
          </div>
          {periodId === 'custom' ? (
            <span className="usage-custom">
              <input
                type="date"
                aria-label="From day"
                value={custom.fromDay}
                max={custom.toDay}
                onChange={(e) => setCustom((c) => ({ ...c, fromDay: e.target.value }))}
              />
              <span aria-hidden="true">–</span>
              <input
                type="date"
                aria-label="To day"
                value={custom.toDay}
                min={custom.fromDay}
                onChange={(e) => setCustom((c) => ({ ...c, toDay: e.target.value }))}
              />
            </span>
          ) : null}
          <span className="usage-export">
            <button
              type="button"
              className="btn btn-small"
              disabled={!exportable}
              onClick={() => report && downloadText(`${fileStem(report, period)}.csv`, usageReportCsv(report))}
            >
              Export CSV
            </button>
            <button
              type="button"
              className="btn btn-small"
              disabled={!exportable}
              onClick={() => report && void savePng(reportRef.current, fileStem(report, period))}
            >
              Export PNG
            </button>
          </span>
        </div>
      </div>
      <p className="muted usage-subtitle" aria-live="polite">
        {report && !previous ? `${report.profileName ?? report.profileId ?? ''} · vendor ${report.vendor ?? '—'} · ` : ''}
        {valid
          ? `${fmtDate(`${period.fromDay}T12:00:00`)}${period.toDay !== period.fromDay ? ` – ${fmtDate(`${period.toDay}T12:00:00`)}` : ''} (${timeZone})${previous ? ' · loading, the report below is the one before' : ''}`
          : 'Choose a first and a last day (the last on or after the first).'}
      </p>
      {exportProblem ? (
        <div className="callout callout-error" role="alert">
          {exportProblem}
        </div>
      ) : null}
      {!valid ? null : query.isPending || (previous && (report!.problem || report!.days.length === 0)) ? (
        <Loading label="Reading the usage history…" />
      ) : query.isError ? (
        <ErrorCallout error={query.error} action="Reading the usage report" onRetry={() => void query.refetch()} />
      ) : report!.problem ? (
        <div className="state state-empty">{report!.problem}</div>
      ) : report!.days.length === 0 ? (
        <Empty title="No usage stored for this period.">The history starts when the app first talks to the vendor; choose another period or profile.</Empty>
      ) : (
        <div className={previous ? 'report-stale' : undefined} inert={previous}>
          <ReportBody report={report!} heatRef={heatRef} onHeatPng={() => void savePng(heatRef.current, `${fileStem(report!, period)}-heatmap`)} />
        </div>
      )}
    </div>
  );
}

/** Hourly figures are whole UTC hours: in a half-hour zone they cannot be split at local midnight (the report counts each in the day it starts). */
function hourlyEdgeNote(minute: number | null): string | null {
  if (minute === null) return null;
  const mm = `:${String(minute).padStart(2, '0')}`;
  return ` They are whole hours of UTC, so in this time zone those days and hours of day run from ${mm} to ${mm}.`;
}

function ReportBody({ report, heatRef, onHeatPng }: { report: UsageReport; heatRef: RefObject<HTMLElement | null>; onHeatPng: () => void }) {
  return (
    <>
      {report.hourlyBeforeMs !== null ? (
        <p className="muted">
          Before {fmtDateTime(report.hourlyBeforeMs)} only hourly figures are kept: the busiest minutes cover the time after it.
          {hourlyEdgeNote(report.hourlyEdgeMinute)}
        </p>
      ) : null}
      {hasOlderMeasure(report) ? (
        <p className="muted usage-older-note" role="note">
          * {OLDER_MEASURE_NOTE}
        </p>
      ) : null}
      <section className="panel usage-section" aria-labelledby="usage-days">
        <h2 id="usage-days">Per endpoint and day</h2>
        <DataTable
          prefsKey="usage-days"
          label="Usage per endpoint and day"
          data={report.days}
          columns={COLUMNS}
          getRowId={(r) => `${r.day}/${r.endpoint}`}
          rowProps={(r) => ({ 'data-endpoint': r.endpoint, 'data-day': r.day })}
        />
      </section>
      <section className="panel usage-section" aria-labelledby="usage-heat" ref={heatRef}>
        <div className="usage-section-head">
          <h2 id="usage-heat">Use of the limit by hour of day</h2>
          <button type="button" className="btn btn-small btn-ghost" data-png-skip onClick={onHeatPng}>
            Save PNG
          </button>
        </div>
        <HeatMap endpoints={report.endpoints} cells={report.heatMap} />
      </section>
      <section className="panel usage-section" aria-labelledby="usage-busiest">
        <h2 id="usage-busiest">Busiest minutes</h2>
        <BusiestMinutes minutes={report.busiestMinutes} />
      </section>
    </>
  );
}

function hasOlderMeasure(report: UsageReport): boolean {
  return report.days.some((d) => d.meanUseOlder) || report.heatMap.some((c) => c.meanUseOlder);
}

function BusiestMinutes({ minutes }: { minutes: readonly BusyMinute[] }) {
  // The log is bounded by count (under heavy traffic it spans seconds): link only minutes it still holds.
  const span = useLogSpan(minutes.length > 0);
  if (minutes.length === 0) return <p className="muted">No per-minute figures for this period.</p>;
  return (
    <>
      <table className="table usage-busiest" aria-label="Busiest minutes">
        <thead>
          <tr>
            <th scope="col">Minute</th>
            <th scope="col" className="num">
              Requests
            </th>
            <th scope="col" className="num">
              429s
            </th>
            <th scope="col" className="num">
              Peak use
            </th>
            <th scope="col">Busiest endpoint</th>
            <th scope="col">Open</th>
          </tr>
        </thead>
        <tbody>
          {minutes.map((m) => (
            <tr key={m.startMs} data-start={m.startMs}>
              <th scope="row">{fmtDateTime(m.startMs)}</th>
              <td className="num">{fmtInt(m.requests)}</td>
              <td className="num">{fmtInt(m.throttled)}</td>
              <td className="num">{fmtPercent(m.peakUse)}</td>
              <td>{endpointLabel(m.topEndpoint)}</td>
              <td className="usage-links">
                <a href={routeHref('budget', `at=${m.startMs}`)}>Budget</a>
                {span !== null && holdsMinute(span, m.startMs) ? <a href={routeHref('requests', `at=${m.startMs}`)}>Requests</a> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted usage-note">
        Requests links appear for minutes the request log still holds{span !== null ? `: it ${spanText(span, Date.now())}` : ''}.
      </p>
    </>
  );
}
