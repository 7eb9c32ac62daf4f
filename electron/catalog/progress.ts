/**
 * Progress of a catalog download: counts from the pages, request figures from the client's budget
 * samples, rates and ETA over active (not paused) time. Pure, driven by an injectable clock.
 */
import type { Clock } from '../../shared/clock';
import type { ErrorData } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import type { ExportFormat } from './settings';
import { ENDPOINTS } from '../../shared/endpoints';

/** The download waits for a budget it shares with other consumers: a state, never a failure. */
export interface SharedBudgetWait {
  /** The endpoint's path, e.g. /assets/list. */
  endpoint: string;
  /** Consumers estimated to share it, us included (1 when only 429s tell of others). */
  consumers: number;
  /** In words: "sharing /assets/list with about 7 other consumers". */
  message: string;
}

export function sharedBudgetWait(endpoint: string, consumers: number): SharedBudgetWait {
  const others = Math.max(0, Math.round(consumers) - 1);
  const message =
    others > 0 ? `sharing ${endpoint} with about ${others} other consumer${others === 1 ? '' : 's'}` : `waiting for the shared budget of ${endpoint}`;
  return { endpoint, consumers: Math.max(1, Math.round(consumers)), message };
}

export type DownloadState = 'idle' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface CatalogProgress {
  state: DownloadState;
  /** Output file (absolute path) and its checkpoint. */
  out: string;
  checkpoint: string;
  format: ExportFormat;
  /** This run continued an earlier one from its checkpoint. */
  resumed: boolean;
  /** Totals for the whole file, earlier runs included. */
  pages: number;
  items: number;
  bytes: number;
  /** Items this run added to the file. */
  itemsThisRun: number;
  /** Catalog size where the service gives one; null otherwise. */
  total: number | null;
  /** 0..100 where the total is known. */
  percent: number | null;
  /** Figures of this run, from the client's samples (every attempt, 429s included). */
  requests: number;
  requestsPerSecond: number;
  waitedMs: number;
  rateLimited: number;
  /** Count per HTTP status ('0' is no answer: refused, reset, timeout). */
  statuses: Record<string, number>;
  /** Active time of this run (pauses excluded). */
  elapsedMs: number;
  /** Seconds left where the total is known and a rate is measured. */
  etaSeconds: number | null;
  /** Waiting for a budget others use too (from the latest answer), or null. */
  sharing: SharedBudgetWait | null;
  error?: ErrorData;
}

/** Requests per second are measured over this trailing window, so the figure follows pauses for budget. */
const RATE_WINDOW_MS = 5_000;

export class ProgressTracker {
  private state: DownloadState = 'idle';
  private resumed = false;
  private pages = 0;
  private items = 0;
  private bytes = 0;
  private total: number | null = null;
  private sessionItems = 0;
  private requests = 0;
  private waitedMs = 0;
  private rateLimited = 0;
  private statuses: Record<string, number> = {};
  private recent: number[] = [];
  private activeMs = 0;
  private activeSince: number | null = null;
  private error: ErrorData | undefined;
  private sharing: SharedBudgetWait | null = null;

  constructor(
    private readonly now: () => number,
    private readonly files: { out: string; checkpoint: string; format: ExportFormat },
  ) {}

  /** A new run: counts continue from the checkpoint; request figures start at zero. */
  beginRun(from: { pages: number; items: number; bytes: number; total: number | null }, resumed: boolean): void {
    this.pages = from.pages;
    this.items = from.items;
    this.bytes = from.bytes;
    this.total = from.total;
    this.resumed = resumed;
    this.sessionItems = 0;
    this.requests = 0;
    this.waitedMs = 0;
    this.rateLimited = 0;
    this.statuses = {};
    this.recent = [];
    this.activeMs = 0;
    this.activeSince = null;
    this.error = undefined;
    this.sharing = null;
  }

  setState(state: DownloadState, error?: ErrorData): void {
    const t = this.now();
    if (state === 'running' && this.activeSince === null) this.activeSince = t;
    if (state !== 'running' && this.activeSince !== null) {
      this.activeMs += t - this.activeSince;
      this.activeSince = null;
    }
    this.state = state;
    this.error = error;
  }

  get current(): DownloadState {
    return this.state;
  }

  addSample(sample: BudgetSample): void {
    this.requests += 1;
    this.waitedMs += Math.max(0, sample.waitedMs);
    if (sample.status === 429) this.rateLimited += 1;
    const key = String(sample.status);
    this.statuses[key] = (this.statuses[key] ?? 0) + 1;
    // Others share the budget (the client's estimate), or a 429 says so: shown as a state, not a failure.
    const consumers = sample.consumers ?? 1;
    if (consumers > 1 || sample.status === 429) this.sharing = sharedBudgetWait(ENDPOINTS[sample.endpoint].path, consumers);
    else if (sample.status >= 200 && sample.status < 300) this.sharing = null;
    this.recent.push(this.now());
    this.trimRecent();
  }

  addPage(items: number, bytes: number, total: number | null): void {
    this.pages += 1;
    this.items += items;
    this.sessionItems += items;
    this.bytes = bytes;
    if (total !== null) this.total = total;
  }

  snapshot(): CatalogProgress {
    const elapsedMs = this.elapsed();
    this.trimRecent();
    const windowMs = Math.min(RATE_WINDOW_MS, Math.max(elapsedMs, 1_000));
    const requestsPerSecond = this.state === 'running' ? (this.recent.length * 1000) / windowMs : this.averageRate(elapsedMs);
    const total = this.total;
    const percent = total === null ? null : total === 0 ? 100 : Math.min(100, (this.items / total) * 100);
    let etaSeconds: number | null = null;
    if (total !== null) {
      const left = Math.max(0, total - this.items);
      if (left === 0 || this.state === 'done') etaSeconds = 0;
      else if (this.sessionItems > 0 && elapsedMs > 0) etaSeconds = left / ((this.sessionItems * 1000) / elapsedMs);
    }
    const progress: CatalogProgress = {
      state: this.state,
      out: this.files.out,
      checkpoint: this.files.checkpoint,
      format: this.files.format,
      resumed: this.resumed,
      pages: this.pages,
      items: this.items,
      bytes: this.bytes,
      itemsThisRun: this.sessionItems,
      total,
      percent,
      requests: this.requests,
      requestsPerSecond: round(requestsPerSecond, 2),
      waitedMs: Math.round(this.waitedMs),
      rateLimited: this.rateLimited,
      statuses: { ...this.statuses },
      elapsedMs: Math.round(elapsedMs),
      etaSeconds: etaSeconds === null ? null : round(etaSeconds, 1),
      sharing: this.state === 'running' ? this.sharing : null,
    };
    if (this.error) progress.error = this.error;
    return progress;
  }

  private averageRate(elapsedMs: number): number {
    return elapsedMs > 0 ? (this.requests * 1000) / elapsedMs : 0;
  }

  private elapsed(): number {
    return this.activeMs + (this.activeSince === null ? 0 : this.now() - this.activeSince);
  }

  private trimRecent(): void {
    const cutoff = this.now() - RATE_WINDOW_MS;
    let drop = 0;
    while (drop < this.recent.length && (this.recent[drop] ?? 0) <= cutoff) drop++;
    if (drop > 0) this.recent.splice(0, drop);
  }
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * A download's progress, at most once per interval: the first change goes out at once, later ones within
 * the interval are folded into one trailing emission, and `force` (state changes) goes out at once. (Telemetry's
 * ThrottledEmitter differs on purpose: it accumulates a payload and always waits for the interval.)
 */
export class ProgressEmitter<T> {
  private listeners = new Set<(value: T) => void>();
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: unknown = null;

  constructor(
    private readonly clock: Clock,
    private readonly intervalMs: number,
    private readonly read: () => T,
  ) {}

  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(force = false): void {
    const now = this.clock.now();
    if (force || now - this.lastAt >= this.intervalMs) {
      this.emitNow();
      return;
    }
    if (this.timer === null) {
      this.timer = this.clock.setTimeout(
        () => {
          this.timer = null;
          this.emitNow();
        },
        this.intervalMs - (now - this.lastAt),
      );
    }
  }

  stop(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private emitNow(): void {
    this.stop();
    this.lastAt = this.clock.now();
    const value = this.read();
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // A listener's bug must not stop the download.
      }
    }
  }
}
