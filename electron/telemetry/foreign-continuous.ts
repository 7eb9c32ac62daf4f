/**
 * Others' use of one bucket in the CONTINUOUS refill model (N per second, capped at N), estimated as
 * a running balance over our own answers. Between two answers a and b, while the bucket stays under
 * its cap:
 *
 *     allowance(b) = allowance(a) + N * (t_b - t_a) - our slots in between (b's too) - others' slots
 *
 * Summed over a chain of answers this telescopes: others' use since the chain began is
 * allowance(first) - allowance(last) + N * (t_last - t_first) - our slots, so the error of each
 * reading (Remaining is the allowance rounded down, and each answer's counting time lies somewhere
 * between its send and its answer) does not add up from pair to pair; it stays bounded by the first
 * and the latest reading's error. That bound is held back from what is reported, so our own traffic
 * alone reads 0, and our requests still in flight (which may already have lowered Remaining) too.
 *
 * Where the allowance may have reached its cap in between, the refill beyond it is lost and nothing
 * before it can be told: the chain starts again at b, after counting what the cap still proves.
 */
import type { BudgetSample } from '../../shared/rate-limit';

interface Reading {
  /** Allowance after the answer: Remaining plus half a slot (it is rounded down); a 429's is under one slot. */
  mid: number;
  /** The most it can be. */
  high: number;
  /** Estimated counting time (ms, our clock): the middle of the request's flight. */
  t: number;
  /** Half the flight: how far off `t` can be. */
  halfFlightMs: number;
  limit: number;
}

/** The simulator keeps the allowance in whole milliseconds of refill: this much time can be lost per check. */
const CLOCK_GRAIN_MS = 1;

export class ContinuousForeignUse {
  private last: Reading | null = null;
  /** Our slots (answers with no usable Remaining included) since `last`. */
  private usedSince = 0;
  /** Others' slots estimated since the chain began, and how much of it was reported. */
  private balance = 0;
  private reported = 0;
  /** The chain's first reading's error (slots). */
  private firstError = 0;

  /** Feeds one of our samples; returns the slots others took that were not reported yet. */
  observe(sample: BudgetSample, used: number, inFlight: number): number {
    const b = reading(sample);
    if (!b) {
      this.usedSince += used;
      return 0;
    }
    const a = this.last;
    if (!a || a.limit !== b.limit) return this.restart(b, 0);
    const n = b.limit;
    const dtMs = b.t - a.t;
    const before = this.usedSince; // our slots between a and b, b's not included
    this.usedSince = 0;
    // The most the allowance can have reached before b (and our slots between a and b) were taken.
    const peak = a.high + (n * Math.max(0, dtMs + a.halfFlightMs + b.halfFlightMs + CLOCK_GRAIN_MS)) / 1000;
    if (peak >= n) {
      // The cap may have been reached (the refill beyond it lost), or not: only what both cases prove counts.
      const ifCapped = n - before - used - b.high;
      const ifNot = a.mid - 0.5 + (n * Math.max(0, dtMs - a.halfFlightMs - b.halfFlightMs - CLOCK_GRAIN_MS)) / 1000 - before - used - b.high;
      return this.restart(b, Math.max(0, Math.min(ifCapped, ifNot) - inFlight));
    }
    this.balance += a.mid + (n * dtMs) / 1000 - before - used - b.mid;
    this.last = b;
    const error = this.firstError + errorOf(b) + (n * CLOCK_GRAIN_MS) / 1000;
    const found = Math.max(0, this.balance - error - inFlight - this.reported);
    this.reported += found;
    return found;
  }

  private restart(b: Reading, found: number): number {
    this.last = b;
    this.balance = 0;
    this.reported = 0;
    this.firstError = errorOf(b);
    return found;
  }
}

function reading(sample: BudgetSample): Reading | null {
  if (sample.status === 0 || sample.limit === null || sample.remaining === null) return null;
  if (sample.headerProblems.length > 0 || sample.limit <= 0) return null;
  const refused = sample.status === 429;
  const halfFlightMs = Math.max(0, sample.latencyMs) / 2;
  return {
    mid: refused ? 0.5 : sample.remaining + 0.5,
    high: refused ? 1 : sample.remaining + 1,
    t: sample.at - halfFlightMs,
    halfFlightMs,
    limit: sample.limit,
  };
}

/** How far a reading's allowance and time can put the balance off (slots). */
function errorOf(r: Reading): number {
  return 0.5 + (r.limit * r.halfFlightMs) / 1000;
}
