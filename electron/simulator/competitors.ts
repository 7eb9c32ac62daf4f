/**
 * Competing consumers: other clients of a vendor that spend its budget from inside the simulator.
 * Each takes one slot every 1000/rps ms of the simulator's clock through the same limiter path as a
 * real request, so it is refused and re-stamps the bucket as a real client would, and never backs off.
 * Slots are due by the (injectable) clock; a real timer merely looks often enough, so tests with a
 * fake clock can advance time and see exactly the slots that fell due.
 */
import { z } from 'zod';
import { ENDPOINT_IDS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { CompetitorConfig } from './types';
import { describeIssues } from './faults';

export const MAX_COMPETITOR_RPS = 10_000;

export const competitorSchema = z
  .object({ vendor: z.string().min(1), endpoint: z.enum(ENDPOINT_IDS), rps: z.number().positive().max(MAX_COMPETITOR_RPS) })
  .strict();
export const competitorListSchema = z.array(competitorSchema).max(1000);

/** Validated copies of the list; throws RangeError naming what is wrong. */
export function checkCompetitors(list: unknown, knownVendors: ReadonlySet<string>): CompetitorConfig[] {
  const parsed = competitorListSchema.safeParse(list);
  if (!parsed.success) throw new RangeError(`bad competitors: ${describeIssues(parsed.error)}`);
  for (const c of parsed.data) {
    if (!knownVendors.has(c.vendor)) throw new RangeError(`bad competitors: unknown vendor "${c.vendor}"`);
  }
  return parsed.data.map((c) => ({ ...c }));
}

interface Running {
  config: CompetitorConfig;
  nextAt: number;
  timer: ReturnType<typeof setInterval>;
}

export type TakeSlot = (vendor: string, endpoint: EndpointId) => void;

export class CompetitorRunner {
  private running: Running[] = [];
  private closed = false;

  constructor(
    private readonly take: TakeSlot,
    private readonly clock: () => number,
  ) {}

  /** Replaces every competitor (timers of the old ones are cleared). */
  set(list: readonly CompetitorConfig[]): void {
    this.stop();
    if (this.closed) return;
    const now = this.clock();
    for (const config of list) {
      const interval = 1000 / config.rps;
      const r: Running = {
        config: { ...config },
        nextAt: now + interval,
        // Look at least every 50 ms, at most every 5 ms; the clock decides what is due.
        timer: setInterval(() => this.tick(r), Math.max(5, Math.min(50, interval))),
      };
      r.timer.unref();
      this.running.push(r);
    }
  }

  list(): CompetitorConfig[] {
    return this.running.map((r) => ({ ...r.config }));
  }

  private tick(r: Running): void {
    const now = this.clock();
    const interval = 1000 / r.config.rps;
    // A clock that stepped back (or a long stall) must not cause a burst: at most one second's worth.
    if (r.nextAt - now > 2 * Math.max(interval, 1000)) r.nextAt = now + interval;
    const cap = Math.max(1, Math.ceil(r.config.rps));
    let n = 0;
    while (r.nextAt <= now && n < cap) {
      this.take(r.config.vendor, r.config.endpoint);
      r.nextAt += interval;
      n++;
    }
    if (r.nextAt <= now) r.nextAt = now + interval;
  }

  stop(): void {
    for (const r of this.running) clearInterval(r.timer);
    this.running = [];
  }

  /** Stops for good: a later set() starts nothing. */
  close(): void {
    this.closed = true;
    this.stop();
  }
}
