/**
 * Alert rules per profile and the alerts they raised, in the local database (migration 3).
 * Rules live here rather than in the settings file: they are per profile, edited one at a time,
 * and the alerts that point at them are in the same database (one transaction, one backup).
 */
import type { Database } from 'better-sqlite3';
import type { AlertKind, AlertRule, AlertRuleInput, AlertView } from '../../shared/bridge/alert-schemas';
import { alertKindSchema } from '../../shared/bridge/alert-schemas';
import type { EndpointId } from '../../shared/endpoints';
import { BRIEF_WAIT_MS, waitingAtMost } from './sqlite-open';
import { DEFAULT_USAGE_RETENTION } from './usage-store';

/**
 * The list's query: firing first, then ended, newest first; served in that order by migration 8's
 * indexes (alert_list, alert_list_profile) rather than a sort of the whole table.
 */
export function alertListSql(byProfile: boolean): string {
  const where = byProfile ? 'WHERE profile_id = ?' : '';
  return `SELECT * FROM alert ${where} ORDER BY (ended_at IS NULL) DESC, started_at DESC, id DESC LIMIT ?`;
}

/** Ended alerts are pruned once they ended this long ago: as long as the usage history's hour rows that explain them are kept. */
export const ALERT_RETENTION_MS = DEFAULT_USAGE_RETENTION.hourMs;
/** Rows one prune deletes at most, so that a year's backlog never holds the main thread for long. */
export const ALERT_PRUNE_BATCH = 1_000;

interface RuleRow {
  id: number;
  profile_id: string;
  kind: string;
  endpoint: string | null;
  threshold_pct: number | null;
  minutes: number;
  enabled: number;
}

interface AlertRow {
  id: number;
  rule_id: number;
  profile_id: string;
  vendor: string;
  kind: string;
  endpoint: string | null;
  message: string;
  started_at: number;
  ended_at: number | null;
  acknowledged_at: number | null;
}

/** An alert as it starts: everything but its id, end and acknowledgement. */
export type AlertStart = Omit<AlertView, 'id' | 'endedAt' | 'acknowledgedAt'>;

function toRule(r: RuleRow): AlertRule {
  return {
    id: r.id,
    profileId: r.profile_id,
    kind: alertKindSchema.parse(r.kind),
    endpoint: r.endpoint as EndpointId | null,
    thresholdPct: r.threshold_pct,
    minutes: r.minutes,
    enabled: r.enabled === 1,
  };
}

function toAlert(r: AlertRow): AlertView {
  return {
    id: r.id,
    ruleId: r.rule_id,
    profileId: r.profile_id,
    vendor: r.vendor,
    kind: r.kind as AlertKind,
    endpoint: r.endpoint,
    message: r.message,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    acknowledgedAt: r.acknowledged_at,
  };
}

export class AlertStore {
  constructor(private readonly db: Database) {}

  rules(profileId: string): AlertRule[] {
    const rows = this.db.prepare('SELECT * FROM alert_rule WHERE profile_id = ? ORDER BY id').all(profileId) as RuleRow[];
    return rows.map(toRule);
  }

  rule(id: number): AlertRule | null {
    const row = this.db.prepare('SELECT * FROM alert_rule WHERE id = ?').get(id) as RuleRow | undefined;
    return row ? toRule(row) : null;
  }

  /** Inserts (no id) or updates a rule; returns it as stored. */
  saveRule(input: AlertRuleInput): AlertRule {
    const values = [input.profileId, input.kind, input.endpoint, input.thresholdPct, input.minutes, input.enabled ? 1 : 0];
    if (input.id === undefined) {
      const info = this.db
        .prepare('INSERT INTO alert_rule (profile_id, kind, endpoint, threshold_pct, minutes, enabled) VALUES (?, ?, ?, ?, ?, ?)')
        .run(...values);
      return this.rule(Number(info.lastInsertRowid))!;
    }
    this.db
      .prepare('UPDATE alert_rule SET profile_id = ?, kind = ?, endpoint = ?, threshold_pct = ?, minutes = ?, enabled = ? WHERE id = ?')
      .run(...values, input.id);
    const saved = this.rule(input.id);
    if (!saved) throw new Error(`no alert rule ${input.id}`);
    return saved;
  }

  /** The profile's rules; when it has none yet, `defaults` are stored first (in one transaction). */
  rulesOrDefaults(profileId: string, defaults: () => Omit<AlertRuleInput, 'id' | 'profileId'>[]): AlertRule[] {
    return this.db
      .transaction(() => {
        const existing = this.rules(profileId);
        if (existing.length > 0) return existing;
        for (const d of defaults()) this.saveRule({ ...d, profileId });
        return this.rules(profileId);
      })
      .immediate();
  }

  /*
   * start, end and prune are the alert service's background writes: each waits for another process's
   * lock BRIEF_WAIT_MS at most and throws SQLITE_BUSY past it (the service keeps the write for later).
   * Each is one statement: a write that throws did nothing, so writing it again never doubles it.
   */

  /** Stores a firing alert, or (`endedAt`: it ended before the store took it) one already over. */
  start(alert: AlertStart, endedAt: number | null = null): AlertView {
    const info = waitingAtMost(this.db, BRIEF_WAIT_MS, () =>
      this.db
        .prepare('INSERT INTO alert (rule_id, profile_id, vendor, kind, endpoint, message, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .run(alert.ruleId, alert.profileId, alert.vendor, alert.kind, alert.endpoint, alert.message, alert.startedAt, endedAt),
    );
    return { ...alert, id: Number(info.lastInsertRowid), endedAt, acknowledgedAt: null };
  }

  end(id: number, at: number): AlertView | null {
    waitingAtMost(this.db, BRIEF_WAIT_MS, () => this.db.prepare('UPDATE alert SET ended_at = ? WHERE id = ? AND ended_at IS NULL').run(at, id));
    return this.get(id);
  }

  /** Deletes up to ALERT_PRUNE_BATCH alerts that ended before `before` (never a firing one); returns how many. */
  prune(before: number): number {
    return waitingAtMost(this.db, BRIEF_WAIT_MS, () =>
      this.db
        .prepare('DELETE FROM alert WHERE id IN (SELECT id FROM alert WHERE ended_at IS NOT NULL AND ended_at < ? LIMIT ?)')
        .run(before, ALERT_PRUNE_BATCH),
    ).changes;
  }

  acknowledge(id: number, at: number): AlertView | null {
    this.db.prepare('UPDATE alert SET acknowledged_at = ? WHERE id = ? AND acknowledged_at IS NULL').run(at, id);
    return this.get(id);
  }

  get(id: number): AlertView | null {
    const row = this.db.prepare('SELECT * FROM alert WHERE id = ?').get(id) as AlertRow | undefined;
    return row ? toAlert(row) : null;
  }

  /** Firing first (newest first), then ended ones, newest first. */
  list(options: { profileId?: string; limit?: number } = {}): AlertView[] {
    const args = options.profileId === undefined ? [] : [options.profileId];
    const rows = this.db.prepare(alertListSql(options.profileId !== undefined)).all(...args, options.limit ?? 500) as AlertRow[];
    return rows.map(toAlert);
  }

  /**
   * Ends what a previous run left firing (its watcher is gone; a condition that still holds fires
   * anew). Returns how many were ended.
   */
  endOrphans(at: number): number {
    return this.db.prepare('UPDATE alert SET ended_at = ? WHERE ended_at IS NULL').run(at).changes;
  }
}
