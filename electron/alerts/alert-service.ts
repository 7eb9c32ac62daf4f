/**
 * The app's alerts: one rule engine per connected profile (rules are per profile), fed by that
 * profile's samples, its connection state and its download's progress; every fire and clear is
 * stored (AlertStore) and announced as an `alert` event; a firing that passes the notify gate
 * (quiet mode, one per rule per 10 min) also goes to the desktop notifier where the shell has one
 * (browser mode: the renderer shows it). A one-second tick ends what time ends (quiet periods,
 * outages). Never throws into the sample path. A fire or clear the store cannot take is undone in
 * its engine, so the next evaluation tries it again (the engine never holds what the store lacks).
 */
import type { AlertEvent, AlertRule, AlertRuleInput, AlertView } from '../../shared/bridge/alert-schemas';
import { ENDPOINT_KINDS } from '../../shared/bridge/alert-schemas';
import type { Clock } from '../../shared/clock';
import { PartnerError } from '../../shared/errors';
import type { BudgetSample } from '../../shared/rate-limit';
import type { AlertStore, LocalStore } from '../store';
import { defaultRules } from './defaults';
import { NotifyGate } from './notify-gate';
import { RuleEngine } from './rule-engine';
import type { ConnectionState, DownloadState, FireTransition, Transition } from './rule-engine';

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
  /** Stored alert id per (profile, firing engine key). */
  private readonly open = new Map<string, number>();
  private timer: unknown = null;
  /** A store write failed and none succeeded since (reported once). */
  private storeFailing = false;
  /**
   * Stored alerts of profiles no longer watched whose end the store could not take: their engines are gone,
   * so each tick tries the end again by id (a key may fire anew for the same profile meanwhile).
   */
  private readonly unended: Array<{ id: number; at: number }> = [];

  constructor(
    local: LocalStore,
    private readonly options: AlertServiceOptions,
  ) {
    this.store = local.alerts();
    this.problem = this.store ? null : `Alerts are unavailable: ${local.problem ?? 'the local store could not be opened'}.`;
    this.gate = new NotifyGate(options.quiet);
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
        this.keepUnended(w, now);
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

  dispose(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => {
      for (const w of this.watched.values()) this.guard(() => this.apply(w, w.engine.tick(this.options.clock.now())));
      this.endUnended();
      this.schedule();
    }, this.options.tickMs ?? 1000);
  }

  private need(): AlertStore {
    if (this.store) return this.store;
    throw new PartnerError({ code: 'NOT_FOUND', message: this.problem ?? 'Alerts are unavailable.', retryable: false });
  }

  /**
   * Stores and announces each transition on its own: one that cannot be stored is undone in the
   * engine (the next evaluation tries again) and the others of the batch still go through.
   */
  private apply(watched: Watched, transitions: Transition[]): void {
    const store = this.store;
    if (!store) return;
    for (const t of transitions) {
      const key = `${watched.target.profileId}\u0000${t.key}`;
      let announce: () => void;
      try {
        announce = t.type === 'fire' ? this.storeFiring(store, key, watched.target, t) : this.storeEnd(store, key, t);
      } catch (e) {
        watched.engine.undo(t);
        this.storeFailed(t, e);
        continue;
      }
      this.storeFailing = false;
      this.guard(announce);
    }
  }

  /** Stores a firing; returns its announcement. */
  private storeFiring(store: AlertStore, key: string, target: AlertTarget, t: FireTransition): () => void {
    const alert = store.start({
      ruleId: t.rule.id,
      profileId: target.profileId,
      vendor: target.vendor,
      kind: t.rule.kind,
      endpoint: t.endpoint,
      message: t.message,
      startedAt: t.at,
    });
    this.open.set(key, alert.id);
    return () => {
      const notify = this.gate.allow(t.rule.id, this.options.clock.now());
      if (notify) this.options.notify?.({ title: `Partner Console: ${alert.vendor}`, body: alert.message });
      this.options.emit({ change: 'fired', alert, notify });
    };
  }

  /** Ends a stored alert (its id is forgotten only once the end is stored); returns its announcement. */
  private storeEnd(store: AlertStore, key: string, t: Transition): () => void {
    const id = this.open.get(key);
    const alert = id === undefined ? null : store.end(id, t.at);
    this.open.delete(key);
    return () => {
      if (alert) this.options.emit({ change: 'cleared', alert, notify: false });
    };
  }

  /** Reported once until a store write succeeds again: a full disk would otherwise log at every tick. */
  /** What the reset of a profile no longer watched could not end (its clears undone in its engine): ended later, by id. */
  private keepUnended(w: Watched, at: number): void {
    for (const key of w.engine.firingKeys()) {
      const openKey = `${w.target.profileId}\u0000${key}`;
      const id = this.open.get(openKey);
      this.open.delete(openKey);
      if (id !== undefined) this.unended.push({ id, at });
    }
  }

  private endUnended(): void {
    const store = this.store;
    if (!store) return;
    for (const pending of this.unended.splice(0)) {
      try {
        const alert = store.end(pending.id, pending.at);
        this.storeFailing = false;
        if (alert) this.guard(() => this.options.emit({ change: 'cleared', alert, notify: false }));
      } catch {
        this.unended.push(pending);
      }
    }
  }

  private storeFailed(t: Transition, e: unknown): void {
    if (this.storeFailing) return;
    this.storeFailing = true;
    const what = t.type === 'fire' ? `the alert "${t.message}"` : 'the end of an alert';
    const cause = e instanceof Error ? e.message : String(e);
    this.options.onError?.(
      new Error(
        `Could not store ${what} (${cause}); it is tried again when its rule is next evaluated. Further failures are not logged until a write succeeds.`,
        {
          cause: e,
        },
      ),
    );
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.options.onError?.(e);
    }
  }
}
