/**
 * Usage history (issue 12 §1, the store's part): budget samples aggregated per (profile, vendor,
 * endpoint) into per-second rows, rolled up on a schedule into per-minute and per-hour rows, each
 * level kept for its retention. Recording is in memory only (the client's hot path never touches the
 * disk); a flush writes what gathered in ONE transaction, at most once a second. A sample that lands
 * in a second already rolled up is merged into the coarser rows too, so every level always holds the
 * same sums. Give it a connection of its own with synchronous=NORMAL (LocalStore.openUsage): WAL
 * then survives a crash of the app, and a flush costs no fsync (the ledger's connection keeps FULL).
 */
import type { Database, Statement } from 'better-sqlite3';
import { errorMessage } from './store-errors';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { reachedService } from '../../shared/rate-limit';
import { secondOf } from '../telemetry/aggregate';
import { USAGE_LEVELS } from './migrations';
import type { UsageAggregate } from './usage-aggregate';
import { meanUseOf, rowBudgetSeconds } from '../../shared/usage-report';
import { LATENCY_BOUNDS_MS, addSample, emptyAggregate, latencyQuantile, mergeAggregate, mergeSameSecond } from './usage-aggregate';

const LATENCY_BINS = LATENCY_BOUNDS_MS.length + 1;

export type UsageLevel = (typeof USAGE_LEVELS)[number]['level'];

export interface UsageRetention {
  secondMs: number;
  minuteMs: number;
  hourMs: number;
}

/**
 * Per-second buckets (one per profile, endpoint and second) kept in memory while writes fail, as on a
 * disk full for hours: about 13 MB, near an hour of three busy endpoints. Past it the oldest go.
 */
export const MAX_PENDING_BUCKETS = 10_000;

export const DEFAULT_USAGE_RETENTION: UsageRetention = { secondMs: 3_600_000, minuteMs: 14 * 86_400_000, hourMs: 400 * 86_400_000 };

export interface UsageStoreOptions {
  clock: Clock;
  retention?: Partial<UsageRetention>;
  /** Gathered samples are written this often, at most (ms). */
  flushEveryMs?: number;
  /** Roll-up and retention run this often (ms). */
  downsampleEveryMs?: number;
  /**
   * A failed write (the disk, a lock held too long): the samples are kept for the next try, up to
   * maxPendingBuckets. Reported once per outage (its start, the first bucket dropped, its end with
   * what was dropped), never at every flush.
   */
  onError?: (e: unknown) => void;
  /** Buckets kept while writes fail; MAX_PENDING_BUCKETS by default. */
  maxPendingBuckets?: number;
}

/** Writes failing since `since`: what went unwritten so far. */
interface Outage {
  since: number;
  failedFlushes: number;
  droppedBuckets: number;
}

export interface UsageKey {
  profileId: string;
  vendor: string;
  endpoint: string;
}

export interface UsageRow extends UsageKey, UsageAggregate {
  startMs: number;
  meanUse: number | null;
  /** meanUse is the older per-answer measure (the row was stored before the per-second one). */
  meanUseOlder: boolean;
  latencyP50: number | null;
  latencyP95: number | null;
}

/** Rows of one endpoint merged into one point of a history. */
export interface UsagePointAggregate {
  endpoint: string;
  startMs: number;
  agg: UsageAggregate;
  /** rowBudgetSeconds summed over the point's rows. */
  budgetSeconds: number;
}

export interface UsageQuery {
  level: UsageLevel;
  fromMs: number;
  /** Exclusive. */
  toMs: number;
  profileId?: string;
  vendor?: string;
  endpoint?: string;
}

interface DbRow {
  profile_id: string;
  vendor: string;
  endpoint: string;
  start_ms: number;
  requests: number;
  throttled: number;
  failures: number;
  lowest_remaining: number | null;
  /** Absent in a database of schema 4 or older (the report CLI reads those as they are). */
  active_seconds?: number;
  use_seconds?: number;
  use_sum: number;
  use_count: number;
  use_peak: number | null;
  waited_ms: number;
  foreign_requests: number;
  latency: string;
}

const LEVEL = Object.fromEntries(USAGE_LEVELS.map((l) => [l.level, l])) as Record<UsageLevel, (typeof USAGE_LEVELS)[number]>;

function toAggregate(r: DbRow): UsageAggregate {
  return {
    requests: r.requests,
    throttled: r.throttled,
    failures: r.failures,
    lowestRemaining: r.lowest_remaining,
    activeSeconds: r.active_seconds ?? 0,
    useSeconds: r.use_seconds ?? 0,
    olderUseSum: r.use_sum,
    olderUseCount: r.use_count,
    usePeak: r.use_peak,
    waitedMs: r.waited_ms,
    foreignRequests: r.foreign_requests,
    latency: JSON.parse(r.latency) as number[],
  };
}

const keyText = (k: UsageKey, startMs: number): string => JSON.stringify([k.profileId, k.vendor, k.endpoint, startMs]);

export class UsageStore {
  private readonly clock: Clock;
  private readonly retention: UsageRetention;
  private readonly flushEveryMs: number;
  private readonly downsampleEveryMs: number;
  private readonly onError: (e: unknown) => void;
  private readonly maxPendingBuckets: number;
  private outage: Outage | null = null;
  private pending = new Map<string, { key: UsageKey; startMs: number; agg: UsageAggregate }>();
  private flushTimer: unknown = null;
  private downsampleTimer: unknown = null;
  private closed = false;
  /** The newest second this store wrote; null until it wrote one. What close() rolls up to. */
  private newestWritten: number | null = null;
  /** Prepared once: a flush runs the same few statements for every bucket. */
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    options: UsageStoreOptions,
  ) {
    this.clock = options.clock;
    this.retention = { ...DEFAULT_USAGE_RETENTION, ...options.retention };
    this.flushEveryMs = options.flushEveryMs ?? 1_000;
    this.downsampleEveryMs = options.downsampleEveryMs ?? 60_000;
    this.onError = options.onError ?? (() => undefined);
    this.maxPendingBuckets = options.maxPendingBuckets ?? MAX_PENDING_BUCKETS;
    // The report's per-row figure, for readPoints to sum per row (one definition; NULL: rows stored before the measure).
    db.function('budget_use_seconds', { deterministic: true }, (endpoint, active, use, foreign) =>
      rowBudgetSeconds({ endpoint: String(endpoint), activeSeconds: Number(active ?? 0), useSeconds: Number(use ?? 0), foreignRequests: Number(foreign ?? 0) }),
    );
    this.scheduleDownsample();
  }

  /**
   * The hot path: adds the sample to its second in memory; a flush follows within flushEveryMs. The
   * history is the service's count: a request that never reached it (refused) adds nothing.
   */
  record(profileId: string, sample: BudgetSample, foreign = 0): void {
    if (this.closed || !reachedService(sample)) return;
    const key = { profileId, vendor: sample.vendor, endpoint: sample.endpoint };
    // The live figures' rule: the server's second where its Date is believable, else the arrival's
    // (a service clock years off would file the traffic years away, out of every report and roll-up).
    const startMs = secondOf(sample);
    const id = keyText(key, startMs);
    let entry = this.pending.get(id);
    if (!entry) {
      entry = { key, startMs, agg: emptyAggregate() };
      this.pending.set(id, entry);
    }
    addSample(entry.agg, sample, foreign);
    this.scheduleFlush();
  }

  /** A second already aggregated elsewhere (an import, a simulation): merged like recorded samples. */
  recordAggregate(key: UsageKey, startMs: number, agg: UsageAggregate): void {
    if (this.closed) return;
    const id = keyText(key, startMs);
    const entry = this.pending.get(id);
    if (entry) mergeSameSecond(entry.agg, agg);
    else this.pending.set(id, { key: { ...key }, startMs, agg: mergeAggregate(emptyAggregate(), agg) });
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    this.flushTimer ??= this.clock.setTimeout(() => {
      this.flushTimer = null;
      this.flush();
    }, this.flushEveryMs);
  }

  /** Writes what gathered, in one transaction; returns the buckets written. */
  flush(): number {
    if (this.pending.size === 0) return 0;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      this.db.transaction(() => {
        const minuteDone = this.doneUntil('minute');
        const hourDone = this.doneUntil('hour');
        for (const { key, startMs, agg } of batch) {
          const added = this.mergeRow('second', key, startMs, agg, mergeSameSecond);
          // Already rolled up past this second: the coarser rows take it too, so no level misses it.
          if (minuteDone !== null && startMs < minuteDone) this.mergeRow('minute', key, floorTo(startMs, LEVEL.minute.bucketMs), added);
          if (hourDone !== null && startMs < hourDone) this.mergeRow('hour', key, floorTo(startMs, LEVEL.hour.bucketMs), added);
        }
      })();
    } catch (e) {
      const outage = this.flushFailed(e);
      outage.droppedBuckets += this.keepForNextFlush(batch, outage);
      return 0;
    }
    for (const { startMs } of batch) this.newestWritten = Math.max(this.newestWritten ?? startMs, startMs);
    this.flushSucceeded();
    return batch.length;
  }

  /** The outage this failure starts (said once) or goes on with (said nothing). */
  private flushFailed(e: unknown): Outage {
    if (this.outage) {
      this.outage.failedFlushes += 1;
      return this.outage;
    }
    this.outage = { since: this.clock.now(), failedFlushes: 1, droppedBuckets: 0 };
    const kept = `at most ${this.maxPendingBuckets} per-second buckets, the oldest dropped first`;
    this.onError(
      new Error(`Usage history could not be written (${errorMessage(e)}); the samples are kept in memory (${kept}) until a write succeeds.`, { cause: e }),
    );
    return this.outage;
  }

  /**
   * A batch that could not be written goes back before what gathered since, within the cap: the
   * buckets gathered first go first. Returns how many went.
   */
  private keepForNextFlush(batch: { key: UsageKey; startMs: number; agg: UsageAggregate }[], outage: Outage): number {
    const later = this.pending;
    this.pending = new Map(batch.map((entry) => [keyText(entry.key, entry.startMs), entry]));
    for (const [id, entry] of later) {
      const kept = this.pending.get(id);
      if (kept) mergeSameSecond(kept.agg, entry.agg);
      else this.pending.set(id, entry);
    }
    let dropped = 0;
    for (const id of this.pending.keys()) {
      if (this.pending.size <= this.maxPendingBuckets) break;
      this.pending.delete(id);
      dropped += 1;
    }
    if (dropped > 0 && outage.droppedBuckets === 0) {
      this.onError(
        new Error(
          `Usage history is still not written: ${this.maxPendingBuckets} per-second buckets are held in memory, and the oldest are dropped from now on.`,
        ),
      );
    }
    return dropped;
  }

  private flushSucceeded(): void {
    const outage = this.outage;
    if (!outage) return;
    this.outage = null;
    const lost = outage.droppedBuckets > 0 ? `${outage.droppedBuckets} per-second buckets of samples were dropped` : 'no samples were lost';
    const failed = `${outage.failedFlushes} failed writes since ${new Date(outage.since).toISOString()}`;
    this.onError(new Error(`Usage history is written again after ${failed}; ${lost}.`));
  }

  /**
   * Rolls complete minutes (of seconds) and complete hours (of minutes) up, then drops rows past their
   * retention (never a row not yet rolled up). `now` defaults to the clock's.
   */
  downsample(now = this.clock.now()): void {
    this.flush();
    // A second is complete once no flush can still bring samples for it.
    const settled = now - 2 * this.flushEveryMs;
    this.db.transaction(() => {
      const minuteUntil = floorTo(settled, LEVEL.minute.bucketMs);
      this.rollUp('second', 'minute', minuteUntil);
      const hourUntil = Math.min(floorTo(settled, LEVEL.hour.bucketMs), this.doneUntil('minute') ?? minuteUntil);
      this.rollUp('minute', 'hour', hourUntil);
      const minuteDone = this.doneUntil('minute') ?? -Infinity;
      const hourDone = this.doneUntil('hour') ?? -Infinity;
      this.stmt(`DELETE FROM ${LEVEL.second.table} WHERE start_ms < ?`).run(Math.min(now - this.retention.secondMs, minuteDone));
      this.stmt(`DELETE FROM ${LEVEL.minute.table} WHERE start_ms < ?`).run(Math.min(now - this.retention.minuteMs, hourDone));
      this.stmt(`DELETE FROM ${LEVEL.hour.table} WHERE start_ms < ?`).run(now - this.retention.hourMs);
      // Rows ahead of the clock (filed while it ran ahead) stay: they are requests the service counted,
      // and they expire once the clock passes them, as any row.
    })();
  }

  read(query: UsageQuery): UsageRow[] {
    const where = ['start_ms >= ?', 'start_ms < ?'];
    const args: (string | number)[] = [query.fromMs, query.toMs];
    for (const [column, value] of [
      ['profile_id', query.profileId],
      ['vendor', query.vendor],
      ['endpoint', query.endpoint],
    ] as const) {
      if (value !== undefined) {
        where.push(`${column} = ?`);
        args.push(value);
      }
    }
    const rows = this.stmt(`SELECT * FROM ${LEVEL[query.level].table} WHERE ${where.join(' AND ')} ORDER BY start_ms, endpoint`).all(...args) as DbRow[];
    return rows.map((r) => {
      const agg = toAggregate(r);
      const use = meanUseOf(agg);
      return {
        profileId: r.profile_id,
        vendor: r.vendor,
        endpoint: r.endpoint,
        startMs: r.start_ms,
        ...agg,
        meanUse: use.value,
        meanUseOlder: use.older,
        latencyP50: latencyQuantile(agg, 0.5),
        latencyP95: latencyQuantile(agg, 0.95),
      };
    });
  }

  /**
   * One endpoint's rows merged into points of `pointMs` (a multiple of the level's bucket) by SQLite:
   * the history's read path. Sums, MIN and MAX merge as mergeAggregate does (NULL ignored); the
   * latency histograms come back as one JSON array per point, added up here.
   */
  readPoints(query: UsageQuery & UsageKey & { pointMs: number }): UsagePointAggregate[] {
    const rows = this.stmt(
      `SELECT start_ms - start_ms % CAST(? AS INTEGER) AS point_ms, SUM(requests) AS requests, SUM(throttled) AS throttled, SUM(failures) AS failures,
              MIN(lowest_remaining) AS lowest_remaining, SUM(active_seconds) AS active_seconds, SUM(use_seconds) AS use_seconds,
              SUM(use_sum) AS use_sum, SUM(use_count) AS use_count, MAX(use_peak) AS use_peak,
              SUM(waited_ms) AS waited_ms, SUM(foreign_requests) AS foreign_requests, '[' || group_concat(latency) || ']' AS latency,
              SUM(budget_use_seconds(endpoint, active_seconds, use_seconds, foreign_requests)) AS budget_seconds
         FROM ${LEVEL[query.level].table}
        WHERE profile_id = ? AND vendor = ? AND endpoint = ? AND start_ms >= ? AND start_ms < ?
        GROUP BY point_ms ORDER BY point_ms`,
    ).all(query.pointMs, query.profileId, query.vendor, query.endpoint, query.fromMs, query.toMs) as (Omit<
      DbRow,
      'profile_id' | 'vendor' | 'endpoint' | 'start_ms'
    > & { point_ms: number; budget_seconds: number })[];
    return rows.map((r) => {
      const latency = new Array<number>(LATENCY_BINS).fill(0);
      for (const histogram of JSON.parse(r.latency) as number[][]) histogram.forEach((n, i) => (latency[i] = (latency[i] ?? 0) + n));
      const { requests, throttled, failures, lowest_remaining, active_seconds, use_seconds, use_sum, use_count, use_peak, waited_ms, foreign_requests } = r;
      return {
        endpoint: query.endpoint,
        startMs: r.point_ms,
        budgetSeconds: r.budget_seconds,
        agg: {
          requests,
          throttled,
          failures,
          lowestRemaining: lowest_remaining,
          activeSeconds: active_seconds ?? 0,
          useSeconds: use_seconds ?? 0,
          olderUseSum: use_sum,
          olderUseCount: use_count,
          usePeak: use_peak,
          waitedMs: waited_ms,
          foreignRequests: foreign_requests,
          latency,
        },
      };
    });
  }

  /** Stops the schedule, writes what gathered and rolls it up. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.flushTimer !== null) this.clock.clearTimeout(this.flushTimer);
    if (this.downsampleTimer !== null) this.clock.clearTimeout(this.downsampleTimer);
    this.flushTimer = this.downsampleTimer = null;
    if (!this.db.open) return;
    this.flush();
    this.rollUpWritten();
  }

  /**
   * Rolls seconds up to the end of the minute of the newest one written, and minutes into hours as
   * far: reports and long histories read minutes and hours only, and the schedule's roll-up never ran
   * for a session's last minute (nor for a session under a minute). A later sample in those buckets
   * is merged into the coarser rows as it is written (flush), and the next roll-up starts past them:
   * nothing is counted twice.
   */
  private rollUpWritten(): void {
    if (this.newestWritten === null) return;
    const minuteUntil = floorTo(this.newestWritten, LEVEL.minute.bucketMs) + LEVEL.minute.bucketMs;
    try {
      this.db.transaction(() => {
        this.rollUp('second', 'minute', minuteUntil);
        // Never past the minutes rolled up: a second not yet in a minute must still reach its hour.
        this.rollUp('minute', 'hour', this.doneUntil('minute') ?? minuteUntil);
      })();
    } catch (e) {
      // The seconds stay written; the next start's roll-up takes them.
      if (!this.outage) this.onError(e);
    }
  }

  private scheduleDownsample(): void {
    this.downsampleTimer = this.clock.setTimeout(() => {
      if (this.closed) return;
      try {
        this.downsample();
      } catch (e) {
        // Within an outage the flush has said it already.
        if (!this.outage) this.onError(e);
      }
      this.scheduleDownsample();
    }, this.downsampleEveryMs);
  }

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Where a level stops growing at `now`: samples of the last flushEveryMs or so may still be in memory
   * only (record writes nothing), and minutes and hours also end where the roll-up has reached.
   */
  completeUntil(level: UsageLevel, now = this.clock.now()): number {
    const settled = now - 2 * this.flushEveryMs;
    if (level === 'second') return settled;
    return Math.min(settled, this.doneUntil(level) ?? settled);
  }

  private doneUntil(level: 'minute' | 'hour'): number | null {
    const row = this.stmt('SELECT done_until_ms AS t FROM usage_rollup WHERE level = ?').get(level) as { t: number } | undefined;
    return row?.t ?? null;
  }

  /** Merges the `from` rows in [doneUntil(to), until) into `to` rows; records how far it went. */
  private rollUp(from: UsageLevel, to: 'minute' | 'hour', until: number): void {
    const since = this.doneUntil(to) ?? -Infinity;
    if (until <= since) return;
    const rows = this.stmt(`SELECT * FROM ${LEVEL[from].table} WHERE start_ms >= ? AND start_ms < ?`).all(since, until) as DbRow[];
    const buckets = new Map<string, { key: UsageKey; startMs: number; agg: UsageAggregate }>();
    for (const r of rows) {
      const key = { profileId: r.profile_id, vendor: r.vendor, endpoint: r.endpoint };
      const startMs = floorTo(r.start_ms, LEVEL[to].bucketMs);
      const id = keyText(key, startMs);
      const bucket = buckets.get(id) ?? { key, startMs, agg: emptyAggregate() };
      mergeAggregate(bucket.agg, toAggregate(r));
      buckets.set(id, bucket);
    }
    for (const { key, startMs, agg } of buckets.values()) this.mergeRow(to, key, startMs, agg);
    this.stmt('INSERT INTO usage_rollup (level, done_until_ms) VALUES (?, ?) ON CONFLICT (level) DO UPDATE SET done_until_ms = excluded.done_until_ms').run(
      to,
      until,
    );
  }

  /**
   * Merges `agg` into the row (other seconds by default; `merge` = mergeSameSecond for a part of the
   * row's own second) and returns what the row gained: `agg`, but with the seconds and use the row
   * actually took (a second already there is not counted again in the coarser rows).
   */
  private mergeRow(level: UsageLevel, key: UsageKey, startMs: number, agg: UsageAggregate, merge = mergeAggregate): UsageAggregate {
    const table = LEVEL[level].table;
    const existing = this.stmt(`SELECT * FROM ${table} WHERE profile_id = ? AND vendor = ? AND endpoint = ? AND start_ms = ?`).get(
      key.profileId,
      key.vendor,
      key.endpoint,
      startMs,
    ) as DbRow | undefined;
    const before = existing ? toAggregate(existing) : emptyAggregate();
    const { activeSeconds, useSeconds } = before;
    const merged = existing ? merge(before, agg) : agg;
    this.stmt(
      `INSERT OR REPLACE INTO ${table} (profile_id, vendor, endpoint, start_ms, requests, throttled, failures, lowest_remaining, active_seconds, use_seconds, use_sum, use_count, use_peak, waited_ms, foreign_requests, latency)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      key.profileId,
      key.vendor,
      key.endpoint,
      startMs,
      merged.requests,
      merged.throttled,
      merged.failures,
      merged.lowestRemaining,
      merged.activeSeconds,
      merged.useSeconds,
      merged.olderUseSum,
      merged.olderUseCount,
      merged.usePeak,
      merged.waitedMs,
      merged.foreignRequests,
      JSON.stringify(merged.latency),
    );
    return { ...agg, activeSeconds: merged.activeSeconds - activeSeconds, useSeconds: merged.useSeconds - useSeconds };
  }
}

function floorTo(ms: number, size: number): number {
  return Math.floor(ms / size) * size;
}
