/**
 * A load balancer whose backends disagree on the time: every other answer's Date is off by an hour
 * (or 10 s), ahead or behind. Neither clock may hold the budget shut: the server refuses nothing, so
 * a background loop keeps close to the limit, with no silence longer than a wait for one second.
 */
import { describe, expect, it } from 'vitest';
import { harness, runFor } from '../../electron/client/testing/harness';

describe('Date headers alternating between two clocks', () => {
  it.each([3_600_000, -3_600_000, 10_000, -10_000])('every other Date off by %i ms: no stall, close to the limit, no 429', async (skewMs) => {
    let n = 0;
    const h = harness({
      latencyMs: 2,
      rewriteHeaders: (headers, req) => (n++ % 2 ? { ...headers, Date: new Date(req.serverAt + skewMs).toUTCString() } : headers),
    });
    const client = h.client();
    const started = h.clock.now();
    const { ok, failed } = await runFor(h.clock, started + 30_000, 1, () => client.request('listAssets', { priority: 'background' }));
    expect(failed).toEqual([]);
    expect(h.fake.count(429)).toBe(0);
    expect(ok).toBeGreaterThanOrEqual(0.9 * 20 * 30);
    const sends = h.fake.received.map((r) => r.serverAt);
    const gaps = sends.slice(1).map((t, i) => t - sends[i]!);
    expect(Math.max(sends[0]! - started, ...gaps)).toBeLessThanOrEqual(2_100);
  });
});
