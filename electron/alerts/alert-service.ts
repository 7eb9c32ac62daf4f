/**
 * The app's alerts: one rule engine per connected profile (rules are per profile), fed by that
 * profile's samples, its connection state and its download's progress; every fire and clear is
 * stored (AlertStore) and announced as an `alert` event; a firing that passes the notify gate
 * (quiet mode, one per rule per 10 min) also goes to the desktop notifier where the shell has one
 * (browser mode: the renderer shows it). A one-second tick ends what time ends (quiet periods,
 * outages) and writes what the store could not take before (alert-writes.ts: a locked store never
 * holds the main thread for long, and nothing is lost). Never throws into the sample path. Ended alerts
 * older than ALERT_RETENTION_MS are pruned.
 */
import type { AlertEvent, AlertRule, AlertRuleInput, AlertView } from '../../shared/bridge/alert-schemas';
import { ENDPOINT_KINDS } from '../../shared/bridge/alert-schemas';
import type { Clock } from '../../shared/clock';
import { PartnerError } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import { ALERT_PRUNE_BATCH, ALERT_RETENTION_MS, isPassingStoreFailure } from '../store';
import type { AlertStore, LocalStore } from '../store';
import { AlertWrites } from './alert-writes';
import type { WriteOutcome } from './alert-writes';
import { defaultRules } from './defaults';
import { NotifyGate } from './notify-gate';
import { RuleEngine } from './rule-engine';
import type { ConnectionState, DownloadState, FireTransition, Transition } from './rule-engine';

/** Ended alerts past the retention are pruned this often (and a batch each tick while a backlog lasts). */
const PRUNE_EVERY_MS = 3_600_000;

export interface DesktopNotice {
  title: string;
  body: string;
}

export interface AlertServiceOptions {
  clock: Clock;
  /** Quiet mode (settings.alerts.quiet), read at each firing. */
  quiet: () => boolean;
  emit: (event: AlertEvent) => void;
  /** The desktop shell's notifier; absent in browser mode. */
  notify?: (notice: DesktopNotice) => void;
  onError?: (e: unknown) => void;
  tickMs?: number;
}

export interface AlertTarget {
  profileId: string;
  vendor: string;
  demo: boolean;
}

/** A watched profile and the engine that judges its samples. */
interface Watched {
  target: AlertTarget;
  engine: RuleEngine;
}

export class AlertService {
  readonly problem: string | null;
  private readonly store: AlertStore | null;
  /** The watched profiles, by id. */
  private readonly watched = new Map<string, Watched>();
  private readonly gate: NotifyGate;
  private readonly writes: AlertWrites | null;
  private timer: unknown = null;
  /** When the next prune is due (epoch ms). */
  private pruneAt = 0;

  constructor(
    local: LocalStore,
    private readonly options: AlertServiceOptions,
  ) {
    this.store = local.alerts();
    this.problem = this.store ? null : `Alerts are unavailable: ${local.problem ?? 'the local store could not be opened'}.`;
    this.gate = new NotifyGate(options.quiet);
    this.writes = this.store ? new AlertWrites(this.store, { onError: (e) => options.onError?.(e) }) : null;
    this.guard(() => this.store?.endOrphans(options.clock.now()));
    this.schedule();
  }

  /** Watches these profiles (the connected ones): what fired for a profile no longer watched (or changed) ends now. */
  watch(targets: AlertTarget[]): void {
    this.guard(() => {
      const now = this.options.clock.now();
      const next = new Map(targets.map((t) => [t.profileId, t]));
      for (const [id, w] of [...this.watched]) {
        if (JSON.stringify(next.get(id)) === JSON.stringify(w.target)) continue;
        this.apply(w, w.engine.reset(now));
        this.watched.delete(id);
      }
      for (const target of targets) {
        if (this.watched.has(target.profileId)) continue;
        const watched = { target, engine: new RuleEngine() };
        this.watched.set(target.profileId, watched);
        if (this.store) this.apply(watched, watched.engine.setRules(this.rulesOf(target.profileId, target.demo), now));
      }
    });
  }

  /** A sample of `profileId`'s client; without one, of every watched profile of the sample's vendor. */
  sample(sample: BudgetSample, foreignUse: number, profileId?: string): void {
    for (const w of this.watched.values()) {
      if (w.target.vendor !== sample.vendor || (profileId !== undefined && w.target.profileId !== profileId)) continue;
      this.guard(() => this.apply(w, w.engine.sample(sample, foreignUse)));
    }
  }

  connection(profileId: string | null, state: ConnectionState): void {
    const w = profileId === null ? undefined : this.watched.get(profileId);
    if (!w) return;
    this.guard(() => this.apply(w, w.engine.connection(state, this.options.clock.now())));
  }

  /** The download of `profileId` (the one a download runs for). */
  download(profileId: string | null, state: DownloadState, error: string | null): void {
    const w = profileId === null ? undefined : this.watched.get(profileId);
    if (!w) return;
    this.guard(() => this.apply(w, w.engine.download(state, error, this.options.clock.now())));
  }

  list(options: { profileId?: string; limit?: number }): AlertView[] {
    return this.need().list(options);
  }

  acknowledge(id: number): AlertView {
    const alert = this.need().acknowledge(id, this.options.clock.now());
    if (!alert) throw new PartnerError({ code: 'NOT_FOUND', message: `No alert ${id}.`, retryable: false });
    this.options.emit({ change: 'acknowledged', alert, notify: false });
    return alert;
  }

  /** A profile's rules; a profile with none gets the defaults (on for the demo, offered off otherwise). */
  rulesOf(profileId: string, demo: boolean): AlertRule[] {
    return this.need().rulesOrDefaults(profileId, () => defaultRules(demo));
  }

  saveRule(input: AlertRuleInput): AlertRule {
    const store = this.need();
    if (input.id !== undefined && store.rule(input.id)?.profileId !== input.profileId) {
      throw new PartnerError({ code: 'NOT_FOUND', message: `No alert rule ${input.id} for this profile.`, retryable: false });
    }
    if (input.kind === 'use-above' && input.thresholdPct === null) {
      throw new PartnerError({ code: 'BAD_REQUEST', message: 'A "use above" rule needs a threshold (percent of the limit).', retryable: false });
    }
    const before = input.id === undefined ? null : JSON.stringify(store.rule(input.id));
    const saved = store.saveRule({ ...input, endpoint: ENDPOINT_KINDS.has(input.kind) ? input.endpoint : null });
    if (before !== JSON.stringify(saved)) this.gate.forget(saved.id);
    const w = this.watched.get(saved.profileId);
    if (w) this.guard(() => this.apply(w, w.engine.setRules(store.rules(saved.profileId), this.options.clock.now())));
    return saved;
  }

  /** Fires and clears waiting for the store (another process holds its lock, the disk is full). */
  get pendingWrites(): number {
    return this.writes?.pending ?? 0;
  }

  dispose(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      this.guard(() => this.writes?.drain());
      for (const w of this.watched.values()) this.guard(() => this.apply(w, w.engine.tick(this.options.clock.now())));
      this.prune();
      this.schedule();
    }, this.options.tickMs ?? 1000);
  }

  private need(): AlertStore {
    if (this.store) return this.store;
    throw new PartnerError({ code: 'NOT_FOUND', message: this.problem ?? 'Alerts are unavailable.', retryable: false });
  }

  /** Stores and announces each transition, in order; what the store cannot take now waits in memory (pending). */
  private apply(watched: Watched, transitions: Transition[]): WriteOutcome {
    let outcome: WriteOutcome = 'stored';
    for (const t of transitions) {
      const key = `${watched.target.profileId}\u0000${t.key}`;
      const written = t.type === 'fire' ? this.storeFiring(key, watched.target, t) : this.storeEnd(key, t);
      if (written === 'pending') outcome = 'pending';
    }
    return outcome;
  }

  /** Stores a firing; it is announced once stored. */
  private storeFiring(key: string, target: AlertTarget, t: FireTransition): WriteOutcome {
    const start = {
      ruleId: t.rule.id,
      profileId: target.profileId,
      vendor: target.vendor,
      kind: t.rule.kind,
      endpoint: t.endpoint,
      message: t.message,
      startedAt: t.at,
    };
    return (
      this.writes?.fire(key, start, (alert) => {
        const notify = this.gate.allow(t.rule.id, this.options.clock.now());
        if (notify) this.options.notify?.({ title: `Partner Console: ${alert.vendor}`, body: alert.message });
        this.options.emit({ change: 'fired', alert, notify });
      }) ?? 'stored'
    );
  }

  private storeEnd(key: string, t: Transition): WriteOutcome {
    return (
      this.writes?.end(key, t.at, (alert) => {
        if (alert) this.options.emit({ change: 'cleared', alert, notify: false });
      }) ?? 'stored'
    );
  }

  /** Ended alerts past the retention, a batch a tick while a backlog lasts, then once an hour. */
  private prune(): void {
    const now = this.options.clock.now();
    if (!this.store || now < this.pruneAt) return;
    this.pruneAt = now + PRUNE_EVERY_MS;
    try {
      if (this.store.prune(now - ALERT_RETENTION_MS) === ALERT_PRUNE_BATCH) this.pruneAt = now;
    } catch (e) {
      // A locked or full store: the next prune deletes what this one could not.
      if (!isPassingStoreFailure(e)) this.options.onError?.(e);
    }
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.options.onError?.(e);
    }
  }
}
