/**
 * Retry timing: exponential backoff with full jitter (AWS "Exponential Backoff and Jitter";
 * StandardRetryStrategy), a floor for 429s taken from Reset, and a retry budget.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** Jitter ceiling of the first retry (ms); doubles per retry. */
  baseMs: number;
  /** Largest jitter ceiling (ms). */
  capMs: number;
  /** No retry is scheduled that would start after this much time since the call began (ms). */
  maxElapsedMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxAttempts: 6, baseMs: 250, capMs: 8_000, maxElapsedMs: 30_000 });

/** A Reset of 0 means "under a second": never retry sooner than this. */
export const MIN_RESET_ZERO_WAIT_MS = 250;
/** A Reset above this contradicts a per-second budget (a garbled header): waits are capped to it. */
export const MAX_BELIEVED_RESET_MS = 10_000;

/** Merges a partial policy over the defaults, rejecting nonsense (NaN, negative) with a RangeError. */
export function retryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const p = { ...DEFAULT_RETRY_POLICY, ...Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) } as RetryPolicy;
  const bad = (Object.keys(DEFAULT_RETRY_POLICY) as (keyof RetryPolicy)[]).filter((k) => typeof p[k] !== 'number' || !Number.isFinite(p[k]) || p[k] < 0);
  if (bad.length > 0 || p.maxAttempts < 1)
    throw new RangeError(
      `retry policy: ${[...bad, ...(p.maxAttempts < 1 ? ['maxAttempts < 1'] : [])].join(', ')} must be finite numbers >= 0 (maxAttempts >= 1)`,
    );
  return { ...p, maxAttempts: Math.floor(p.maxAttempts) };
}

/** Full jitter for retry number n (0 for the first retry): U(0, min(cap, base * 2^n)). */
export function fullJitter(n: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, Math.min(n, 52)));
  const r = random();
  const u = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0.5;
  return u * ceiling;
}

/**
 * The least a bucket waits after a 429, in ms. Reset > 0: that many seconds (capped at 10 s, never
 * under 250 ms). Reset 0 or unreadable: until the server's next second surely began (when known),
 * never under 250 ms; unknown second and unknown Reset: a whole second. Never "now".
 */
export function rateLimitFloorMs(resetSeconds: number | null, untilNextServerSecondMs: number | null): number {
  if (resetSeconds !== null && resetSeconds > 0) return Math.max(MIN_RESET_ZERO_WAIT_MS, Math.min(resetSeconds * 1000, MAX_BELIEVED_RESET_MS));
  if (untilNextServerSecondMs !== null) return Math.max(MIN_RESET_ZERO_WAIT_MS, Math.min(untilNextServerSecondMs, 1_000));
  return 1_000;
}

/** A Retry-After longer than this is capped (a service that asks for more is not waited for blindly). */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Retry-After in ms (RFC 9110: delay-seconds, or an HTTP date, read against the answer's own Date
 * when there is one, so clock skew cancels out), capped at MAX_RETRY_AFTER_MS; null when absent or unreadable.
 */
export function retryAfterMs(raw: string | null | undefined, serverNowMs: number): number | null {
  const value = raw?.trim();
  if (!value) return null;
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (!Number.isFinite(at) || !/[a-z]/i.test(value)) return null;
    ms = at - serverNowMs;
  }
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : null;
}

/** Whether another attempt may start `waitMs` from now. */
export function mayRetry(attempt: number, startedAt: number, now: number, waitMs: number, policy: RetryPolicy): boolean {
  return attempt < policy.maxAttempts && now + waitMs - startedAt <= policy.maxElapsedMs;
}
