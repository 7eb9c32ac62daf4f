/**
 * Alert rules evaluated over what the app sees: pure (no store, no timers; every input carries its
 * time), so a scripted stream on a manual clock tests it whole. Each (rule, endpoint) fires once and
 * clears once:
 * - use-above X% for Y min: judged per second on the use the Budget table shows (shared/budget-use:
 *   requests served per second over the last USE_WINDOW_S seconds against the limit, binned by the
 *   server's second), so a table red for Y min fires. A second at or above X extends the run, a second below X - 5 points breaks it (the band
 *   between keeps the state: hysteresis); it fires when a run has lasted Y min and clears on a second
 *   below the band, or after QUIET_MS without a second above it (traffic stopped).
 * - throttled (any 429) / foreign (another consumer detected): fire on the first occurrence, clear
 *   after Y min (at least 1) with none.
 * - down for Y min: the connection offline for Y min; clears when anything answers again.
 * - download-failed: a download that failed; clears when a download runs again.
 */
import type { AlertRule } from '../../shared/bridge/alert-schemas';
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { USE_WINDOW_S, windowUse } from '../../shared/budget-use';
import type { CountedSecond } from '../../shared/budget-use';
import { secondOf } from '../telemetry/aggregate';

/** Points below the threshold a second must fall to end a use-above alert. */
export const HYSTERESIS_PCT = 5;
/** A use-above run or alert ends after this long with no second above the band. */
export const QUIET_MS = 60_000;
const MINUTE_MS = 60_000;
const SECOND_MS = 1000;

export type FireTransition = { type: 'fire'; key: string; rule: AlertRule; endpoint: EndpointId | null; message: string; at: number };
export type Transition = FireTransition | { type: 'clear'; key: string; at: number };

export type ConnectionState = 'connecting' | 'connected' | 'degraded' | 'offline';
export type DownloadState = 'idle' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

interface Run {
  /** Start of the current run of seconds above the threshold; null: none. */
  since: number | null;
  /** End of the last second at or above the lower edge of the band. */
  lastHigh: number;
}

/** An endpoint's recent seconds (the window of use) and the last second judged. */
interface EndpointUse {
  limit: number;
  seconds: Map<number, CountedSecond>;
  /** Start of the last second judged. */
  judged: number;
}

function label(endpoint: EndpointId): string {
  return ENDPOINTS[endpoint].label;
}

function minutesText(minutes: number): string {
  return minutes >= 1 ? `${Number(minutes.toFixed(1))} min` : `${Math.round(minutes * 60)} s`;
}

export class RuleEngine {
  private rules: AlertRule[] = [];
  /** Keys of the alerts firing now. */
  private readonly firing = new Set<string>();
  private readonly runs = new Map<string, Run>();
  /** Last occurrence per key (throttled, foreign). */
  private readonly lastSeen = new Map<string, number>();
  private readonly use = new Map<EndpointId, EndpointUse>();
  private offlineSince: number | null = null;
  private downloadFailed = false;

  static key(rule: AlertRule, endpoint: EndpointId | null): string {
    return `${rule.id}|${endpoint ?? ''}`;
  }

  /** The rules to watch. Alerts of rules that are gone, disabled or changed clear (they may fire anew). */
  setRules(rules: AlertRule[], now: number): Transition[] {
    const before = new Map(this.rules.map((r) => [r.id, JSON.stringify(r)]));
    this.rules = rules.filter((r) => r.enabled);
    const kept = new Set(this.rules.filter((r) => before.get(r.id) === JSON.stringify(r)).map((r) => r.id));
    const out: Transition[] = [];
    for (const key of [...this.firing]) {
      if (!kept.has(Number(key.split('|')[0]))) out.push(this.clear(key, now));
    }
    for (const key of [...this.runs.keys()]) if (!kept.has(Number(key.split('|')[0]))) this.runs.delete(key);
    return out;
  }

  /** Clears everything (another profile is watched now). */
  reset(now: number): Transition[] {
    const out = [...this.firing].map((key) => this.clear(key, now));
    this.runs.clear();
    this.lastSeen.clear();
    this.use.clear();
    this.offlineSince = null;
    this.downloadFailed = false;
    return out;
  }

  isFiring(key: string): boolean {
    return this.firing.has(key);
  }

  sample(sample: BudgetSample, foreignUse: number): Transition[] {
    const out: Transition[] = [];
    const at = sample.at;
    const second = secondOf(sample);
    // The second before this one may still get late answers: judged a second later (as tick does).
    out.push(...this.closeSecondsBefore(second - SECOND_MS, sample.endpoint));
    this.count(sample, second);
    if (sample.status === 429) out.push(...this.occurred('throttled', sample.endpoint, at, `${label(sample.endpoint)} answered 429 (too many requests)`));
    if (foreignUse > 0) out.push(...this.occurred('foreign', sample.endpoint, at, `Another consumer is using the ${label(sample.endpoint)} budget`));
    return out;
  }

  connection(state: ConnectionState, now: number): Transition[] {
    if (state === 'offline') {
      this.offlineSince ??= now;
      return this.tick(now);
    }
    if (state === 'connecting') return [];
    this.offlineSince = null;
    return this.clearKind('down', now);
  }

  download(state: DownloadState, error: string | null, now: number): Transition[] {
    if (state === 'failed' && !this.downloadFailed) {
      this.downloadFailed = true;
      return this.rules
        .filter((r) => r.kind === 'download-failed')
        .flatMap((r) => this.fire(r, null, `The catalog download failed${error ? `: ${error}` : ''}`, now));
    }
    if (state === 'running') {
      this.downloadFailed = false;
      return this.clearKind('download-failed', now);
    }
    return [];
  }

  /** Time passing: seconds that ended, runs that lasted, quiet periods, an outage that lasted. */
  tick(now: number): Transition[] {
    const out = this.closeSecondsBefore(Math.floor(now / 1000) * 1000 - 1000, null);
    for (const rule of this.rules) {
      if (rule.kind === 'use-above') {
        for (const [key, run] of this.runs) {
          if (!key.startsWith(`${rule.id}|`) || now - run.lastHigh < QUIET_MS) continue;
          run.since = null;
          if (this.firing.has(key)) out.push(this.clear(key, now));
        }
      } else if (rule.kind === 'throttled' || rule.kind === 'foreign') {
        const quietMs = Math.max(1, rule.minutes) * MINUTE_MS;
        for (const [key, seen] of this.lastSeen) {
          if (key.startsWith(`${rule.id}|`) && this.firing.has(key) && now - seen >= quietMs) out.push(this.clear(key, now));
        }
      } else if (rule.kind === 'down' && this.offlineSince !== null && now - this.offlineSince >= rule.minutes * MINUTE_MS) {
        out.push(...this.fire(rule, null, `The service has not answered for ${minutesText(rule.minutes)}`, now));
      }
    }
    return out;
  }

  private matching(kind: AlertRule['kind'], endpoint: EndpointId): AlertRule[] {
    return this.rules.filter((r) => r.kind === kind && (r.endpoint === null || r.endpoint === endpoint));
  }

  private occurred(kind: 'throttled' | 'foreign', endpoint: EndpointId, at: number, message: string): Transition[] {
    return this.matching(kind, endpoint).flatMap((rule) => {
      this.lastSeen.set(RuleEngine.key(rule, endpoint), at);
      return this.fire(rule, endpoint, message, at);
    });
  }

  /** Adds a sample to its second's counts (a late one still counts in the windows judged after it). */
  private count(sample: BudgetSample, second: number): void {
    let use = this.use.get(sample.endpoint);
    const limit = sample.limit !== null && sample.limit > 0 ? sample.limit : use?.limit;
    if (limit === undefined) return;
    if (!use) {
      use = { limit, seconds: new Map(), judged: second - SECOND_MS };
      this.use.set(sample.endpoint, use);
    }
    use.limit = limit;
    const counts = use.seconds.get(second) ?? { requests: 0, unanswered: 0, rateLimited: 0, limit };
    counts.requests += 1;
    if (sample.status === 0) counts.unanswered += 1;
    if (sample.status === 429) counts.rateLimited += 1;
    counts.limit = limit;
    use.seconds.set(second, counts);
  }

  /** Judges every second not yet judged that started before `start` (of one endpoint, or of all), idle ones too. */
  private closeSecondsBefore(start: number, endpoint: EndpointId | null): Transition[] {
    const out: Transition[] = [];
    const windowMs = USE_WINDOW_S * SECOND_MS;
    for (const [ep, use] of [...this.use]) {
      if (endpoint !== null && ep !== endpoint) continue;
      // Seconds past the window of the last counted second are idle: the first one is judged, then the endpoint is dropped.
      const until = Math.min(start, Math.max(...use.seconds.keys()) + windowMs + SECOND_MS);
      for (let s = use.judged + SECOND_MS; s < until; s += SECOND_MS) {
        const inWindow = [...use.seconds].filter(([t]) => t > s - windowMs && t <= s).map(([, c]) => c);
        out.push(...this.judgeSecond(ep, s, windowUse(inWindow, use.limit)));
        use.judged = s;
      }
      for (const t of use.seconds.keys()) if (t <= use.judged - windowMs) use.seconds.delete(t);
      if (use.seconds.size === 0) this.use.delete(ep);
    }
    return out;
  }

  private judgeSecond(endpoint: EndpointId, start: number, use: number): Transition[] {
    const end = start + SECOND_MS;
    const out: Transition[] = [];
    for (const rule of this.matching('use-above', endpoint)) {
      const key = RuleEngine.key(rule, endpoint);
      const threshold = (rule.thresholdPct ?? 90) / 100;
      const run = this.runs.get(key) ?? { since: null, lastHigh: -Infinity };
      this.runs.set(key, run);
      if (use >= threshold - HYSTERESIS_PCT / 100) run.lastHigh = end;
      if (use >= threshold) {
        run.since ??= start;
        if (end - run.since >= rule.minutes * MINUTE_MS) {
          const lasting = rule.minutes > 0 ? ` for ${minutesText(rule.minutes)}` : '';
          out.push(...this.fire(rule, endpoint, `${label(endpoint)} above ${rule.thresholdPct}% of its limit${lasting}`, end));
        }
      } else if (use < threshold - HYSTERESIS_PCT / 100) {
        run.since = null;
        if (this.firing.has(key)) out.push(this.clear(key, end));
      }
    }
    return out;
  }

  private fire(rule: AlertRule, endpoint: EndpointId | null, message: string, at: number): Transition[] {
    const key = RuleEngine.key(rule, endpoint);
    if (this.firing.has(key)) return [];
    this.firing.add(key);
    return [{ type: 'fire', key, rule, endpoint, message, at }];
  }

  private clear(key: string, at: number): Transition {
    this.firing.delete(key);
    return { type: 'clear', key, at };
  }

  private clearKind(kind: AlertRule['kind'], now: number): Transition[] {
    const ids = new Set(this.rules.filter((r) => r.kind === kind).map((r) => `${r.id}|`));
    return [...this.firing].filter((key) => ids.has(key.replace(/\|.*$/, '|'))).map((key) => this.clear(key, now));
  }
}
