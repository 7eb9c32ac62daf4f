/** The landing view for account managers: every endpoint's budget, live. */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import type { EndpointId } from '../../../../shared/endpoints';
import { ENDPOINT_IDS, ENDPOINT_LIST, ENDPOINTS } from '../../../../shared/endpoints';
import { useAppContext, useLink } from '../../api/context';
import { useBudgetSnapshot, useConnection, useSimState } from '../../api/queries';
import { useActiveFleetUse } from '../../api/fleet-use';
import { Loading } from '../../components/states';
import { downloadText, toCsv } from '../../lib/csv';
import { fmtClock, fmtDateTime } from '../../lib/format';
import { navigate, useRoute } from '../../lib/hash-route';
import { useAlignedNow } from '../../live/settled-clock';
import { usePref } from '../../lib/view-prefs';
import { BudgetCharts } from './BudgetCharts';
import { BudgetTable } from './BudgetTable';
import type { RangeMin } from './budget-model';
import type { EndpointRow, Reach } from './budget-model';
import { completeBefore, csvRows, CSV_HEADER, ENDPOINT_COLORS, endpointRow, RANGES_MIN, SETTLE_MS } from './budget-model';
import type { HistoryWindow } from '../../../../shared/usage-history-model';
import { historyWindowSchema, windowRange } from '../../../../shared/usage-history-model';
import { HistoryRangeButtons } from './HistoryRangeButtons';
import { aroundMoment } from './moment-link';
import { FirstRunCard } from './FirstRunCard';
import { showFirstRun } from './first-run';
import { AVERAGE_WINDOW_NOTE } from './averaging-window';
import { pausedNote } from './paused-note';
import { othersPerEndpoint } from './others-banner';

/** Stored history (recharts): its own chunk, loaded when a history range is chosen. */
const HistoryPanel = lazy(() => import('./HistoryPanel'));

const TABLE_TICK_MS = 500;
const CHART_TICK_MS = 1000;

export function BudgetView() {
  const { budget } = useAppContext();
  const connection = useConnection();
  const link = useLink();
  const [live, setLive] = useState(true);
  const [rangeMin, setRangeMin] = usePref<RangeMin>(
    'budget',
    'range',
    z.custom<RangeMin>((v) => (RANGES_MIN as readonly unknown[]).includes(v)),
    5,
  );
  // A history range (6 h ... 30 d, or zoomed): the stored history instead of the live panels.
  const [storedHistory, setStoredHistory] = usePref<HistoryWindow | null>('budget', 'history', historyWindowSchema, null);
  // A link to a moment (#/budget/at=<ms>, from the Usage report) shows the hour around it until another range is chosen.
  const route = useRoute();
  const linkedAt = route.view === 'budget' ? route.at : null;
  const linked = useMemo(() => (linkedAt === null ? null : aroundMoment(linkedAt)), [linkedAt]);
  // A link to an endpoint (#/budget/endpoint=<id>, from the Overview) shows the live panels at that endpoint.
  const linkedEndpoint = route.view === 'budget' ? route.endpoint : null;
  const history = linked ?? (linkedEndpoint ? null : storedHistory);
  const setHistory = (next: HistoryWindow | null) => {
    if (linkedAt !== null || linkedEndpoint !== null) navigate('budget');
    setStoredHistory(next);
  };
  const [hiddenIds, setHiddenIds] = usePref<EndpointId[]>('budget', 'hidden', z.array(z.enum(ENDPOINT_IDS)), []);
  const hidden = useMemo(() => new Set(hiddenIds), [hiddenIds]);
  const [focused, setFocused] = useState<EndpointId | null>(null);
  const [chosenVendor, setChosenVendor] = useState<string | null>(null);
  const sim = useSimState();
  const [firstRunHidden, setFirstRunHidden] = usePref<boolean>('budget', 'firstRunHidden', z.boolean(), false);
  const firstRun = showFirstRun({ connection: connection.data, sim: sim.data, dismissed: firstRunHidden });

  // The table reads the buffers on its own tick (countdowns need it anyway), aligned so that one of its
  // ticks is the moment a second settles: the chart panels move to that second at that moment too.
  const tableNow = useAlignedNow(TABLE_TICK_MS, SETTLE_MS % TABLE_TICK_MS);
  // Charts tick on their own, once per second; paused, they stay at the second they froze at.
  const [frozenAt, setFrozenAt] = useState<number | null>(null);
  // Paused, the table keeps the rows it showed: every figure on the view is frozen, not only the charts.
  const [frozenRows, setFrozenRows] = useState<EndpointRow[] | null>(null);
  const [showRemaining, setShowRemaining] = usePref<boolean>('budget', 'showRemaining', z.boolean(), false);
  const chartNow = frozenAt ?? Math.floor(tableNow / CHART_TICK_MS) * CHART_TICK_MS;

  const snapshot = useBudgetSnapshot(true);
  const activeVendor = connection.data?.vendor ?? snapshot.data?.vendor ?? null;
  // Another active profile (the header's selector, an Overview cell): show its vendor, not one chosen here before.
  useEffect(() => setChosenVendor(null), [activeVendor]);
  const vendors = useMemo(() => {
    const seen = new Set(budget.vendors());
    if (activeVendor) seen.add(activeVendor);
    return [...seen].sort();
  }, [budget, activeVendor, tableNow]); // tableNow: new vendors show on the next tick
  const vendor = chosenVendor && vendors.includes(chosenVendor) ? chosenVendor : (activeVendor ?? vendors[0] ?? null);
  const rangeMs = rangeMin * 60_000;

  const buckets = snapshot.data && snapshot.data.vendor === vendor ? snapshot.data.buckets : [];
  const reach: Reach =
    link.state !== 'open' || connection.data?.state === 'offline' ? 'offline' : connection.data?.state === 'connecting' ? 'no-answer' : 'answering';
  const liveRows = vendor
    ? ENDPOINT_LIST.map((spec) =>
        endpointRow({ store: budget, vendor, spec, bucket: buckets.find((b) => b.endpoint === spec.id), now: tableNow, rangeMs, reach }),
      )
    : [];
  const rows = frozenRows ?? liveRows;
  // With 429s (connection degraded) the app-wide banner already names the other consumer as their cause.
  const foreign = connection.data?.state === 'degraded' ? [] : rows.filter((r) => r.foreignUse > 0);
  const dataSince = vendor ? budget.firstSecond(vendor) : null;
  // Where a Redis store counts the fleet, the panels draw its other workers' exact use.
  const fleetUse = useActiveFleetUse().data;
  const fleet = fleetUse && fleetUse.vendor === vendor && fleetUse.store.state === 'connected' ? fleetUse : null;
  const partial = dataSince !== null && dataSince > chartNow - rangeMs;
  const visible = ENDPOINT_LIST.filter((e) => !hidden.has(e.id));

  const toggleLive = () => {
    if (live) {
      // The moment the shown rows were read at: frozen charts end at the same second as the frozen table.
      setFrozenAt(tableNow);
      setFrozenRows(liveRows);
    } else {
      setFrozenAt(null);
      setFrozenRows(null);
    }
    setLive(!live);
  };

  const toggleEndpoint = (id: EndpointId) => {
    const next = new Set(hidden);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setHiddenIds([...next]);
  };

  const openChart = (id: EndpointId, behavior: ScrollBehavior = 'smooth') => {
    if (hidden.has(id)) toggleEndpoint(id);
    setFocused(id);
    requestAnimationFrame(() => document.getElementById(`chart-${id}`)?.scrollIntoView({ behavior, block: 'center' }));
  };

  // Opened at an endpoint: its row is marked and its chart scrolled into view, once the vendor's panels are there.
  const ready = vendor !== null;
  useEffect(() => {
    if (linkedEndpoint !== null && ready) openChart(linkedEndpoint, 'instant');
    // Once per link (not again when the hidden set changes).
  }, [linkedEndpoint, ready]);

  const exportCsv = () => {
    if (!vendor) return;
    // Whole seconds only, up to the last complete one: the same seconds the table and charts show.
    const end = completeBefore(frozenAt ?? Date.now());
    const rowsOut = csvRows(
      budget,
      vendor,
      visible.map((e) => e.id),
      end - rangeMs,
      end,
    );
    const stamp = new Date(chartNow).toISOString().replace(/[:.]/g, '-');
    downloadText(`budget-${vendor}-${rangeMin}min-${stamp}.csv`, toCsv(CSV_HEADER, rowsOut));
  };

  return (
    <div className="view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Budget</h1>
          <p className="view-sub">Requests per second against each endpoint's limit, as the service reports it in X-Rate-Limit-* headers.</p>
        </div>
        <div className="toolbar" role="toolbar" aria-label="Chart controls">
          {vendors.length > 1 ? (
            <label className="inline-field">
              <span>Vendor</span>
              <select className="input" value={vendor ?? ''} onChange={(e) => setChosenVendor(e.target.value)}>
                {vendors.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </label>
          ) : vendor ? (
            <span className="vendor-tag" title="Vendor">
              {vendor}
            </span>
          ) : null}
          <div className="segmented" role="group" aria-label="Time range" data-shortcut="range">
            {RANGES_MIN.map((m) => (
              <button key={m} type="button" aria-pressed={history === null && rangeMin === m} onClick={() => (setRangeMin(m), setHistory(null))}>
                {m} min
              </button>
            ))}
            <HistoryRangeButtons value={history} onChange={setHistory} />
          </div>
          {history === null ? (
            <>
              <button type="button" className={live ? 'btn btn-live' : 'btn'} aria-pressed={!live} data-shortcut="live" onClick={toggleLive}>
                <span className={live ? 'live-dot' : 'live-dot live-dot-off'} aria-hidden="true" />
                {live ? 'Live' : 'Paused'}
              </button>
              <button type="button" className="btn" onClick={exportCsv} disabled={!vendor}>
                Export CSV
              </button>
            </>
          ) : null}
        </div>
      </div>

      {foreign.length > 0 ? (
        <div className="banner banner-warn" role="status">
          <strong>
            Another consumer is using {vendor}'s budget on {othersPerEndpoint(foreign)}.
          </strong>{' '}
          Requests per second over the last 30 s that this app did not send (estimated from the answers' headers: another program, token or machine of the same
          vendor). The panels below stack them on this app's own; 429s there come from sharing the budget, not from a fault of the service.
        </div>
      ) : null}

      {firstRun ? <FirstRunCard onDismiss={() => setFirstRunHidden(true)} /> : null}

      {vendor === null ? (
        connection.isPending ? (
          <Loading label="Connecting…" />
        ) : (
          <div className="state state-empty">
            <strong>No vendor connected yet.</strong>
            <div className="muted">
              Add or select a profile in <a href="#/settings">Settings</a>.
            </div>
          </div>
        )
      ) : history ? (
        <>
          {linkedAt !== null ? (
            <div className="banner" role="status">
              <strong>Showing {fmtDateTime(linkedAt)}</strong>, with half an hour either side. Choose a range above to leave this moment.
            </div>
          ) : null}
          <Suspense fallback={<Loading label="Loading the history charts…" />}>
            <HistoryPanel
              profileId={connection.data?.vendor === vendor ? (connection.data?.profileId ?? null) : null}
              vendor={vendor}
              endpoints={visible}
              {...windowRange(history, tableNow)}
              onZoom={(custom) => setHistory({ ...history, custom })}
              onReset={() => setHistory({ ...history, custom: null })}
            />
          </Suspense>
        </>
      ) : (
        <BudgetTable rows={rows} rangeLabel={`${rangeMin} min`} onOpen={openChart} selected={focused} />
      )}

      {history === null ? (
        <div className="section-head">
          <h2 className="section-title">Live charts</h2>
          <span className="muted small">
            {live ? `Last ${rangeMin} min, updated every second` : pausedNote(chartNow)}.
            {partial ? ` The app has data since ${fmtClock(dataSince)}: the charts show that time and fill in as it grows.` : ''}{' '}
            <strong className="avg-note">{AVERAGE_WINDOW_NOTE}</strong> (panels, table and tooltips); 429s and waits cover the last {rangeMin} min.
          </span>
          <label className="inline-field small">
            <input type="checkbox" checked={showRemaining} onChange={(e) => setShowRemaining(e.target.checked)} />
            <span>Show Remaining</span>
          </label>
          <div className="legend" role="group" aria-label="Show or hide endpoints">
            {ENDPOINT_LIST.map((e) => (
              <button
                key={e.id}
                type="button"
                className="legend-item"
                aria-pressed={!hidden.has(e.id)}
                onClick={() => toggleEndpoint(e.id)}
                title={hidden.has(e.id) ? `Show ${e.label}` : `Hide ${e.label}`}
              >
                <span className="swatch" style={{ background: ENDPOINT_COLORS[e.id] }} aria-hidden="true" />
                {ENDPOINTS[e.id].label}
              </button>
            ))}
          </div>
          <div className="chart-key muted small" aria-hidden="true">
            <span className="key key-area" /> this app's requests/s{' '}
            {fleet ? (
              <>
                <span className="key key-fleet" /> fleet's other workers (counted){' '}
              </>
            ) : null}
            <span className="key key-others" /> others (about: estimated from the headers){' '}
            {showRemaining ? (
              <>
                <span className="key key-line" /> lowest remaining (strip below){' '}
              </>
            ) : null}
            <span className="key key-limit" /> limit
            <span className="key key-warn" /> 80% <span className="key key-429" /> 429
          </div>
        </div>
      ) : null}
      {vendor === null || history !== null ? null : visible.length === 0 ? (
        <div className="state state-empty">All endpoints are hidden: pick some in the legend above.</div>
      ) : (
        <BudgetCharts
          store={budget}
          vendor={vendor}
          endpoints={visible}
          rangeMs={rangeMs}
          frozenAt={frozenAt}
          focused={focused}
          dataSince={dataSince}
          showRemaining={showRemaining}
          fleet={fleet}
          rows={rows}
          rowsAt={frozenAt ?? tableNow}
        />
      )}
    </div>
  );
}
