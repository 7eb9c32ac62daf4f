/**
 * One connected profile's health, derived from its client's samples, announced on change only
 * (session-pool.ts keeps one per connected profile):
 * - connecting: a profile was chosen and nothing has answered yet;
 * - offline: requests get no answer (network errors) and nothing answered since;
 * - degraded: the service answered 429 or 5xx within the last `windowMs`, or refused the token
 *   (`causes` names which, so that the header can tell a shared budget from a fault);
 * - connected: otherwise.
 * A quiet period ends "degraded" by itself: a timer re-evaluates when the window closes.
 */
import type { z } from 'zod';
import type { connectionSchema } from '../../shared/bridge/schemas';
import type { BudgetSample } from '../../shared/rate-limit';
import type { Clock } from '../../shared/clock';

export type ConnectionView = z.output<typeof connectionSchema>;
export type ConnectionStateName = ConnectionView['state'];
export type DegradedCause = NonNullable<ConnectionView['causes']>[number];

export interface ConnectionTarget {
  profileId: string;
  vendor: string;
  baseUrl: string;
  demo: boolean;
}

export interface ConnectionTrackerOptions {
  clock: Clock;
  onChange: (view: ConnectionView) => void;
  /** How long a 429/5xx keeps the state degraded; default 10 s. */
  windowMs?: number;
  /** Network failures in a row, with no answer in between, that mean offline; default 2. */
  offlineAfter?: number;
}

export class ConnectionTracker {
  private target: ConnectionTarget | null = null;
  private state: ConnectionStateName = 'offline';
  private message: string | null = 'No profile is selected.';
  private answered = false;
  private failuresInARow = 0;
  /** The latest trouble of each kind: degraded while any is recent. */
  private troubles = new Map<Exclude<DegradedCause, 'unauthorized'>, { at: number; seq: number; message: string }>();
  private troubleSeq = 0;
  private causes: DegradedCause[] = [];
  private unauthorized = false;
  private announcedCauses = '';
  private timer: unknown = null;
  private readonly windowMs: number;
  private readonly offlineAfter: number;

  constructor(private readonly options: ConnectionTrackerOptions) {
    this.windowMs = options.windowMs ?? 10_000;
    this.offlineAfter = options.offlineAfter ?? 2;
  }

  current(): ConnectionView {
    return {
      state: this.state,
      profileId: this.target?.profileId ?? null,
      vendor: this.target?.vendor ?? null,
      baseUrl: this.target?.baseUrl ?? null,
      demo: this.target?.demo ?? false,
      message: this.message,
      causes: this.state === 'degraded' ? [...this.causes] : [],
    };
  }

  /** A new target (or none): starts at connecting, or offline with a reason. */
  setTarget(target: ConnectionTarget | null, reason: string | null = null): void {
    this.target = target;
    this.answered = false;
    this.failuresInARow = 0;
    this.troubles.clear();
    this.unauthorized = false;
    this.clearTimer();
    if (!target) this.set('offline', reason ?? 'No profile is selected.', true);
    else this.set(reason ? 'offline' : 'connecting', reason, true);
  }

  /** A failure to connect at all (the simulator would not start, tokens could not be opened). */
  fail(reason: string): void {
    this.set('offline', reason);
  }

  record(sample: BudgetSample): void {
    if (!this.target || sample.vendor !== this.target.vendor) return;
    const now = this.options.clock.now();
    if (sample.status === 0) {
      this.failuresInARow += 1;
      if (!this.answered || this.failuresInARow >= this.offlineAfter) {
        this.set('offline', `No answer from ${this.target.baseUrl} (network error or timeout).`);
        return;
      }
      this.troubles.set('no-answer', { at: now, seq: ++this.troubleSeq, message: 'Some requests got no answer (network error or timeout).' });
    } else {
      this.answered = true;
      this.failuresInARow = 0;
      if (sample.status === 401 || sample.status === 403) this.unauthorized = true;
      else if (sample.status >= 200 && sample.status < 300) this.unauthorized = false;
      if (sample.status === 429)
        this.troubles.set('rate-limited', { at: now, seq: ++this.troubleSeq, message: 'The service answered 429 (rate limited) recently.' });
      else if (sample.status >= 500)
        this.troubles.set('server-error', { at: now, seq: ++this.troubleSeq, message: `The service answered ${sample.status} (server error) recently.` });
    }
    this.evaluate();
  }

  dispose(): void {
    this.clearTimer();
  }

  private evaluate(): void {
    const now = this.options.clock.now();
    const recent = [...this.troubles].filter(([, t]) => now - t.at < this.windowMs);
    if (this.unauthorized) {
      this.causes = ['unauthorized', ...recent.map(([cause]) => cause)];
      this.set('degraded', 'The service refused the token (401); check the profile\u2019s tokens.');
      return;
    }
    if (recent.length > 0) {
      const latest = recent.reduce((a, b) => (b[1].seq > a[1].seq ? b : a));
      this.causes = recent.map(([cause]) => cause).sort();
      this.set('degraded', latest[1].message);
      this.clearTimer();
      // Re-evaluated when the oldest recent trouble leaves the window (the causes shrink, or it ends).
      const oldest = Math.min(...recent.map(([, t]) => t.at));
      this.timer = this.options.clock.setTimeout(
        () => {
          this.timer = null;
          this.evaluate();
        },
        oldest + this.windowMs - now,
      );
      return;
    }
    this.causes = [];
    if (this.answered) this.set('connected', null);
  }

  private set(state: ConnectionStateName, message: string | null, force = false): void {
    // Only "degraded" ends by a timer; a pending one would otherwise flip "offline" back to "connected".
    if (state !== 'degraded') this.clearTimer();
    const causes = state === 'degraded' ? this.causes.join() : '';
    if (!force && state === this.state && message === this.message && causes === this.announcedCauses) return;
    this.announcedCauses = causes;
    this.state = state;
    this.message = message;
    this.options.onChange(this.current());
  }

  private clearTimer(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
