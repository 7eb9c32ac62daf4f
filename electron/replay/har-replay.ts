/**
 * Replays a HAR's requests through the app's own PartnerClient at their recorded relative times, so
 * the Budget view (and the simulator's counters) show the recorded incident's shape again. Open loop:
 * each request starts on schedule whatever the earlier ones are doing; the client paces and retries
 * as it always does. Background priority, so a click in the dashboard still goes first.
 */
import { setMaxListeners } from 'node:events';
import type { z } from 'zod';
import type { replayStatusSchema } from '../../shared/bridge/har-schemas';
import type { Clock } from '../../shared/clock';
import { ENDPOINT_IDS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { ReplayPlan, ReplayStep } from '../../shared/har-replay';
import type { BudgetSample } from '../../shared/rate-limit';

export type ReplayStatus = z.output<typeof replayStatusSchema>;
type EndpointCounts = ReplayStatus['endpoints'][number];

/** The part of PartnerClient a replay uses. */
export interface ReplayClient {
  readonly isClosed: boolean;
  request(
    endpoint: EndpointId,
    options: { query?: Record<string, string>; body?: unknown; priority?: 'background'; signal?: AbortSignal; onSample?: (sample: BudgetSample) => void },
  ): Promise<unknown>;
}

/** Longest sleep between two looks at the schedule: a closed client or a stop is noticed this soon. */
const MAX_TICK_MS = 250;

export class HarReplay {
  private state: ReplayStatus['state'] = 'running';
  private next = 0;
  private inFlight = 0;
  private finished = 0;
  private timer: unknown = null;
  private readonly startedAt: number;
  private readonly abort = new AbortController();
  private readonly counts = new Map<EndpointId, EndpointCounts>();
  private resolveDone!: (status: ReplayStatus) => void;
  /** Resolves when every request has ended, or on stop. */
  readonly done = new Promise<ReplayStatus>((resolve) => (this.resolveDone = resolve));

  /** Starts at once: time 0 of the plan is now. */
  constructor(
    private readonly plan: ReplayPlan,
    private readonly client: ReplayClient,
    private readonly clock: Clock,
  ) {
    // Thousands of requests may wait on the one stop signal.
    setMaxListeners(Number.POSITIVE_INFINITY, this.abort.signal);
    for (const step of plan.steps) this.countsOf(step.endpoint).planned++;
    this.startedAt = clock.now();
    this.tick();
  }

  status(): ReplayStatus {
    return {
      state: this.state,
      startedAt: this.startedAt,
      durationMs: this.plan.durationMs,
      planned: this.plan.steps.length,
      sent: this.next,
      finished: this.finished,
      skipped: { ...this.plan.skipped },
      endpoints: ENDPOINT_IDS.flatMap((id) => {
        const c = this.counts.get(id);
        return c ? [{ ...c }] : [];
      }),
    };
  }

  /** Sends nothing more and cancels what the client still holds. */
  stop(): ReplayStatus {
    if (this.state === 'running') {
      this.abort.abort();
      this.end('stopped');
    }
    return this.status();
  }

  private countsOf(endpoint: EndpointId): EndpointCounts {
    let c = this.counts.get(endpoint);
    if (!c) {
      c = { endpoint, planned: 0, sent: 0, ok: 0, failed: 0, attempts: 0, rateLimited: 0 };
      this.counts.set(endpoint, c);
    }
    return c;
  }

  private tick(): void {
    this.timer = null;
    if (this.state !== 'running') return;
    if (this.client.isClosed) {
      this.end('stopped');
      return;
    }
    const elapsed = this.clock.now() - this.startedAt;
    const steps = this.plan.steps;
    while (this.next < steps.length && steps[this.next]!.offsetMs <= elapsed) this.send(steps[this.next++]!);
    if (this.next >= steps.length) {
      this.endIfIdle();
      return;
    }
    this.timer = this.clock.setTimeout(() => this.tick(), Math.min(MAX_TICK_MS, Math.max(0, steps[this.next]!.offsetMs - elapsed)));
  }

  private send(step: ReplayStep): void {
    const c = this.countsOf(step.endpoint);
    c.sent++;
    this.inFlight++;
    this.client
      .request(step.endpoint, {
        query: step.query,
        body: step.body,
        priority: 'background',
        signal: this.abort.signal,
        onSample: (s) => {
          c.attempts++;
          if (s.status === 429) c.rateLimited++;
        },
      })
      .then(
        () => c.ok++,
        () => c.failed++,
      )
      .finally(() => {
        this.inFlight--;
        this.finished++;
        this.endIfIdle();
      });
  }

  private endIfIdle(): void {
    if (this.state === 'running' && this.next >= this.plan.steps.length && this.inFlight === 0) this.end('done');
  }

  private end(state: 'done' | 'stopped'): void {
    this.state = state;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.resolveDone(this.status());
  }
}

/** The per-endpoint summary the CLI prints at the end. */
export function replaySummary(status: ReplayStatus): string {
  const rows = status.endpoints.map((e) => [e.endpoint, e.planned, e.sent, e.ok, e.failed, e.attempts, e.rateLimited].map(String));
  const header = ['endpoint', 'in HAR', 'sent', 'ok', 'failed', 'attempts', '429s'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const skipped = status.skipped.notAnEndpoint + status.skipped.retries + status.skipped.bodyCut;
  return [
    `replay ${status.state}: ${status.sent} of ${status.planned} requests sent over ${(status.durationMs / 1000).toFixed(1)} s of recording`,
    ...(skipped > 0
      ? [
          `  left out: ${status.skipped.notAnEndpoint} not one of the ten endpoints, ${status.skipped.retries} retries of the recording's client (this client retries on its own), ${status.skipped.bodyCut} whose request body was recorded cut (it would be sent short)`,
        ]
      : []),
    `  ${line(header)}`,
    ...rows.map((r) => `  ${line(r)}`),
  ].join('\n');
}
