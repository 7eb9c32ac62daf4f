/**
 * The app's usage history: the UsageStore on the local database, opened with the settings' retention,
 * fed by every budget sample (record: in memory, the store writes at most once a second) and read by
 * the `usageHistory` call. Without a usable database it records nothing and says why.
 */
import type { UsageHistory, UsageHistorySettings } from '../../shared/bridge/usage-schemas';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { DEFAULT_USAGE_RETENTION } from '../store';
import type { LocalStore, UsageQuery, UsageRetention, UsageRow, UsageStore } from '../store';
import { readHistory } from './history-query';
import type { HistoryQuery } from './history-query';

export interface UsageServiceOptions {
  clock: Clock;
  settings?: UsageHistorySettings;
  onError?: (e: unknown) => void;
}

export function retentionOf(settings: UsageHistorySettings | undefined): UsageRetention {
  return {
    secondMs: settings?.secondRetentionMs ?? DEFAULT_USAGE_RETENTION.secondMs,
    minuteMs: settings?.minuteRetentionMs ?? DEFAULT_USAGE_RETENTION.minuteMs,
    hourMs: settings?.hourRetentionMs ?? DEFAULT_USAGE_RETENTION.hourMs,
  };
}

export class UsageService {
  readonly retention: UsageRetention;
  /** Why there is no history, for the user; null when the store is open. */
  readonly problem: string | null;
  private readonly store: UsageStore | null;
  private readonly recording: boolean;

  constructor(
    local: LocalStore,
    private readonly options: UsageServiceOptions,
  ) {
    this.retention = retentionOf(options.settings);
    this.recording = options.settings?.enabled !== false;
    this.store = local.openUsage({ clock: options.clock, retention: this.retention, onError: options.onError });
    this.problem = this.store ? null : `Usage history is unavailable: ${local.problem ?? 'the local store could not be opened'}.`;
  }

  /** Every budget sample of a profile; never throws (history is advisory, the client goes on). */
  record(profileId: string, sample: BudgetSample, foreignUse: number): void {
    if (!this.recording || !this.store) return;
    try {
      this.store.record(profileId, sample, foreignUse);
    } catch (e) {
      this.options.onError?.(e);
    }
  }

  read(query: HistoryQuery): UsageHistory {
    const base = { profileId: query.profileId, vendor: query.vendor };
    if (!this.store) {
      return { ...base, level: 'minute', bucketMs: 60_000, fromMs: query.fromMs, toMs: query.toMs, points: [], problem: this.problem };
    }
    return { ...base, ...readHistory(this.store, query, this.options.clock.now(), this.retention), problem: null };
  }

  /** Stored rows of one level as they are (the usage report reads minutes and hours); [] without a store. */
  rows(query: UsageQuery): UsageRow[] {
    return this.store?.read(query) ?? [];
  }
}
