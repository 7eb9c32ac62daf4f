/**
 * Telemetry of the client's budget: every BudgetSample goes into
 * - the per-second history (charts that open late: `budgetHistory`),
 * - the batch of the `budget` event (aggregates per (vendor, endpoint, second), nothing dropped,
 *   <= 1000/intervalMs events per second, numbered so that a page joins history and events exactly),
 * - the request log (bounded, with details from the recording fetch) and the `requestLog` event (same bound),
 * - the foreign-use detector, whose finding is summed into the aggregates.
 */
import type { BudgetSample } from '../../shared/rate-limit';
import type { BudgetAggregate } from './aggregate';
import { addSample, aggregateKey, emptyAggregate, secondOf } from './aggregate';
import { BudgetHistory } from './budget-history';
import type { BudgetHistoryOptions } from './budget-history';
import type { MaskContext, RecordedExchange } from './exchange';
import { ExchangeMatcher } from './exchange-matcher';
import { ForeignUseDetector } from './foreign-use';
import { HeldTime } from './held-time';
import type { ForeignUseOptions } from './foreign-use';
import { createRecordingFetch } from './recording-fetch';
import { RequestLog } from './request-log';
import type { ExportedEntry, LogDetail, LogEntry, LogFilter, LogSearch, LogSpan, RequestLogOptions } from './request-log';
import { ThrottledEmitter } from './throttled-emitter';
import { timerClock } from '../../shared/clock';
import type { Clock } from '../../shared/clock';

export interface BudgetEventPayload {
  /** 1, 2, ... per event of this telemetry. */
  seq: number;
  aggregates: BudgetAggregate[];
}
export interface BudgetHistoryPayload {
  aggregates: BudgetAggregate[];
  /** The last budget event whose samples the aggregates include: a page applies only later events. */
  seq: number;
}
export interface RequestLogEventPayload {
  entries: LogEntry[];
  dropped: number;
}

export interface TelemetryOptions extends ForeignUseOptions {
  clock?: Clock;
  /** Minimum time between two events of one stream; default 50 ms (20 per second). */
  batchIntervalMs?: number;
  history?: BudgetHistoryOptions;
  log?: RequestLogOptions;
  /** Plain tokens the app knows now, and header names that carry them: for masking. */
  maskContext?: () => MaskContext;
  /** Each sample with the foreign use found for it (the usage history's feed); must not throw or block. */
  onRecorded?: (sample: BudgetSample, foreignUse: number) => void;
}

export interface Telemetry {
  /** Feed every client's samples here (client.onSample(telemetry.record)). */
  record(sample: BudgetSample): void;
  /** A fetch that records exchanges for the request log's details; give it to the clients. */
  wrapFetch(inner: typeof fetch): typeof fetch;
  /** Per-second history; emits the pending batch first, so that the answer and the events meet at `seq`. */
  budgetHistory(sinceMs: number): BudgetHistoryPayload;
  recentSamples(): BudgetSample[];
  requestLog(filter: LogFilter): RequestLogEventPayload;
  /** How far back the newest `limit` entries reach, without them. */
  requestLogSpan(limit: number): LogSpan;
  requestDetail(id: number): LogDetail | null;
  /** The log's entries that pass `keep`, oldest first, with their details: what a HAR export holds. */
  exportedEntries(keep: (e: LogEntry) => boolean): ExportedEntry[];
  /** Plain tokens and token headers known now: the export masks them once more. */
  maskContext(): MaskContext;
  /** Ids of the kept entries whose metadata or (masked) bodies contain the text, newest first. */
  searchRequestLog(text: string): LogSearch;
  onBudget(listener: (payload: BudgetEventPayload) => void): () => void;
  onRequestLog(listener: (payload: RequestLogEventPayload) => void): () => void;
  /** Forgets the anchors of the foreign-use detector (a profile switch, a budget reset). */
  /** Forgets what was inferred about other consumers of one vendor (of every vendor when absent). */
  resetDetector(vendor?: string): void;
  /** Emits what is pending now. */
  flush(): void;
  dispose(): void;
}

const EMPTY_MASK: MaskContext = { tokens: [], tokenHeaders: new Set() };

export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const clock = options.clock ?? timerClock;
  const intervalMs = options.batchIntervalMs ?? 50;
  const maskContext = options.maskContext ?? (() => EMPTY_MASK);
  const history = new BudgetHistory(options.history);
  const log = new RequestLog(options.log);
  const matcher = new ExchangeMatcher();
  const detector = new ForeignUseDetector(options);
  const held = new HeldTime();
  const budgetListeners = new Set<(p: BudgetEventPayload) => void>();
  const logListeners = new Set<(p: RequestLogEventPayload) => void>();
  let disposed = false;

  // Pending batch: one aggregate per (vendor, endpoint, second) since the last budget event.
  let pendingAggregates = new Map<string, BudgetAggregate>();
  let seq = 0;
  let pendingEntries: LogEntry[] = [];

  const budgetEmitter = new ThrottledEmitter<BudgetEventPayload>({
    intervalMs,
    clock,
    take: () => {
      if (pendingAggregates.size === 0) return null;
      const aggregates = [...pendingAggregates.values()];
      pendingAggregates = new Map();
      return { seq: ++seq, aggregates };
    },
    emit: (payload) => notify(budgetListeners, payload),
  });
  const logEmitter = new ThrottledEmitter<RequestLogEventPayload>({
    intervalMs,
    clock,
    take: () => {
      if (pendingEntries.length === 0) return null;
      const entries = pendingEntries;
      pendingEntries = [];
      return { entries, dropped: log.dropped };
    },
    emit: (payload) => notify(logListeners, payload),
  });

  function record(sample: BudgetSample): void {
    if (disposed) return;
    let foreignUse = 0;
    try {
      foreignUse = detector.observe(sample);
    } catch {
      foreignUse = 0; // detection is advisory; a bug there never loses the sample
    }
    const findings = { foreignUse, heldMs: held.observe(sample) };
    history.add(sample, findings);
    options.onRecorded?.(sample, foreignUse);
    const second = secondOf(sample);
    const key = `${aggregateKey(sample.vendor, sample.endpoint)}\u0000${second}`;
    let agg = pendingAggregates.get(key);
    if (!agg) {
      agg = emptyAggregate(sample.vendor, sample.endpoint, second);
      pendingAggregates.set(key, agg);
    }
    addSample(agg, sample, findings);
    budgetEmitter.schedule();

    const exchange = matcher.take(sample);
    const entry = log.add(sample, exchange, maskContext());
    pendingEntries.push(entry);
    // Entries the log has already let go need not travel either: the event says how many went.
    if (pendingEntries.length > log.capacity) pendingEntries.splice(0, pendingEntries.length - log.capacity);
    logEmitter.schedule();
  }

  return {
    record,
    wrapFetch(inner) {
      return createRecordingFetch(inner, { onExchange: (e: RecordedExchange) => matcher.add(e), now: () => clock.now() });
    },
    budgetHistory(sinceMs) {
      budgetEmitter.flush();
      return { aggregates: history.since(sinceMs, clock.now()), seq };
    },
    recentSamples: () => history.recentSamples(),
    requestLog: (filter) => log.list(filter),
    requestLogSpan: (limit) => log.span(limit),
    requestDetail: (id) => log.detail(id, maskContext().tokens),
    exportedEntries: (keep) => log.exported(keep, maskContext().tokens),
    maskContext: () => maskContext(),
    searchRequestLog: (text) => log.search(text, maskContext().tokens),
    onBudget(listener) {
      budgetListeners.add(listener);
      return () => budgetListeners.delete(listener);
    },
    onRequestLog(listener) {
      logListeners.add(listener);
      return () => logListeners.delete(listener);
    },
    resetDetector(vendor) {
      detector.reset(vendor);
      held.clear(vendor);
    },
    flush() {
      budgetEmitter.flush();
      logEmitter.flush();
    },
    dispose() {
      if (disposed) return;
      disposed = true;
      budgetEmitter.dispose();
      logEmitter.dispose();
      budgetListeners.clear();
      logListeners.clear();
      matcher.clear();
    },
  };
}

function notify<T>(listeners: Set<(p: T) => void>, payload: T): void {
  for (const listener of [...listeners]) {
    try {
      listener(payload);
    } catch {
      // One listener's failure never stops the others or the telemetry.
    }
  }
}
