/**
 * Sharing a vendor's budget with consumers we cannot see (issue 10), and the waits that hostile
 * clocks and headers must not stretch (issue 11, items 1 and 11). All on the manual clock.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, PartnerClient } from '../../electron/client';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { systemClock } from '../../electron/client/clock';
import { FairShare } from '../../electron/client/fair-share';
import type { FakeRefill } from '../../electron/client/testing/fake-partner';
import { FAKE_BASE_URL, drive, harness, runFor, seededRandom } from '../../electron/client/testing/harness';
import { isPartnerError } from '../../shared/errors';
import { serverSecond } from '../helpers/whole-second-answers';

const RATE_HEADERS = { 'X-Rate-Limit-Limit': '20', 'X-Rate-Limit-Remaining': '0', 'X-Rate-Limit-Reset': '0' };

describe('a skewed Date header (issue 11, item 1)', () => {
  it('one answer 12 s ahead with Remaining 0 does not stall the next call', async () => {
    let n = 0;
    const h = harness({
      latencyMs: 2,
      rewriteHeaders: (headers, req) => (n++ === 0 ? { ...headers, ...RATE_HEADERS, Date: new Date(req.serverAt + 12_000).toUTCString() } : headers),
    });
    const client = h.client();
    await drive(h.clock, client.request('listAssets'));
    const started = h.clock.now();
    for (let i = 0; i < 4; i++) await drive(h.clock, client.request('listAssets'));
    // Before the fix a call after the normal answer waited ~11 s for the skewed second to end.
    expect(h.clock.now() - started).toBeLessThan(1_100);
  });

  it('a 429 from the far future (year 2300) leaves the endpoint usable and no endless timer', async () => {
    let n = 0;
    const h = harness({
      latencyMs: 2,
      action: () => (n++ === 0 ? { kind: 'rate-limited' } : { kind: 'answer' }),
      rewriteHeaders: (headers) => (n === 1 ? { ...headers, Date: new Date(Date.UTC(2300, 0, 1)).toUTCString() } : headers),
    });
    const client = h.client();
    const started = h.clock.now();
    await drive(h.clock, client.request('listAssets'));
    for (let i = 0; i < 5; i++) await drive(h.clock, client.request('listAssets'));
    expect(h.clock.now() - started).toBeLessThan(4_000);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('a server whose clock really is 12 s off is believed once several answers agree', async () => {
    const h = harness({ latencyMs: 2, serverOffsetMs: 12_000 });
    const client = h.client();
    const { ok, failed } = await runFor(h.clock, h.clock.now() + 5_000, 1, () => client.request('listAssets'));
    expect(failed).toEqual([]);
    expect(ok / 5).toBeGreaterThan(20 * 0.95);
    expect(h.fake.count(429)).toBe(0);
  });

  it('the system clock never asks Node for a timer it would overflow', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const handle = systemClock.setTimeout(() => undefined, 1e12);
      systemClock.clearTimeout(handle);
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('a queued call fails after its longest queue time with a clear error, nothing sent', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }), rewriteHeaders: (headers) => ({ ...headers, 'Retry-After': '60' }) });
    const client = h.client({ maxQueueMs: 5_000 });
    const first = client.request('listAssets').catch((e: unknown) => e);
    await h.clock.advance(10); // the 429 is in: the bucket pauses 60 s
    const queued = client.request('listAssets').catch((e: unknown) => e);
    await h.clock.advance(5_100);
    const error = await queued;
    expect(isPartnerError(error) && error.code).toBe('RATE_LIMITED');
    expect(String((error as Error).message)).toMatch(/no free slot of the shared budget after 5 s in the queue; not sent/);
    expect(h.fake.received).toHaveLength(1);
    await first;
    expect(h.clock.pendingTimers).toBe(0);
  });
});

describe('Retry-After (issue 11, item 11)', () => {
  it.each([
    ['seconds', (_at: number) => '20'],
    ['an HTTP date', (at: number) => new Date(at + 20_000).toUTCString()],
  ])('a 429 with Retry-After as %s is not retried before it', async (_kind, value) => {
    let n = 0;
    const h = harness({
      latencyMs: 2,
      action: () => (n++ === 0 ? { kind: 'rate-limited' } : { kind: 'answer' }),
      rewriteHeaders: (headers, req) => (n === 1 ? { ...headers, 'Retry-After': value(req.serverAt) } : headers),
    });
    const client = h.client();
    const res = await drive(h.clock, client.request('listAssets'));
    expect(res.attempts).toBe(2);
    const [a, b] = h.fake.received;
    expect(b!.serverAt - a!.serverAt).toBeGreaterThanOrEqual(19_000);
  });

  it('a Retry-After of a day is capped (60 s)', async () => {
    let n = 0;
    const h = harness({
      latencyMs: 2,
      action: () => (n++ === 0 ? { kind: 'rate-limited' } : { kind: 'answer' }),
      rewriteHeaders: (headers) => (n === 1 ? { ...headers, 'Retry-After': '86400' } : headers),
    });
    const client = h.client({ retry: { maxElapsedMs: 120_000 }, maxQueueMs: 120_000 });
    await drive(h.clock, client.request('listAssets'));
    const [a, b] = h.fake.received;
    expect(b!.serverAt - a!.serverAt).toBeLessThanOrEqual(61_000);
  });
});

describe('background work never gives up on a shared budget', () => {
  it('a background call waits through more 429s than the retry budget; an interactive one stops and says others hold the budget', async () => {
    const h = harness({
      latencyMs: 2,
      action: (req) => (req.endpoint === 'listAssets' && h.fake.received.length <= 12 ? { kind: 'rate-limited' } : { kind: 'answer' }),
    });
    const client = h.client();
    const res = await drive(h.clock, client.request('listAssets', { priority: 'background' }));
    expect(res.status).toBe(200);
    expect(res.attempts).toBeGreaterThan(DEFAULT_RETRY_POLICY.maxAttempts);
    const interactive = await drive(
      h.clock,
      client.request('listAssets').catch((e: unknown) => e),
    );
    expect(interactive).toMatchObject({ status: 200 });
  });

  it('an interactive call keeps its bounded retries', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }) });
    const client = h.client();
    const error = await drive(
      h.clock,
      client.request('listAssets').catch((e: unknown) => e),
    );
    expect(isPartnerError(error) && error.code).toBe('RATE_LIMITED');
    expect(h.fake.received).toHaveLength(DEFAULT_RETRY_POLICY.maxAttempts);
  });

  it('a background call stops only when nothing went through for anyone for the stall limit', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }) });
    const client = h.client({ stallLimitMs: 20_000 });
    const error = await drive(
      h.clock,
      client.request('listAssets', { priority: 'background' }).catch((e: unknown) => e),
    );
    expect(isPartnerError(error) && error.code).toBe('RATE_LIMITED');
    expect((error as Error).message).toMatch(/no request of this budget has gone through for anyone/);
    expect(h.fake.received.length).toBeGreaterThan(6);
  });

  it('a budget left idle past the stall limit before a background call started does not fail that call on its first 429', async () => {
    let n = 0;
    // Another consumer holds the budget for the call's first two tries, then it is free.
    const h = harness({ latencyMs: 2, action: () => (n++ < 2 ? { kind: 'rate-limited' } : { kind: 'answer' }) });
    const client = h.client({ stallLimitMs: 20_000 });
    client.budgetSnapshot(); // the Budget view makes every bucket when a session opens
    await h.clock.advance(25_000); // nobody uses listAssets meanwhile
    const result = await drive(h.clock, client.request('listAssets', { priority: 'background' }));
    expect(result.status).toBe(200);
    expect(result.attempts).toBe(3);
  });

  it('a background call started after a long idle still stops when nothing goes through for the stall limit', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }) });
    const client = h.client({ stallLimitMs: 20_000 });
    client.budgetSnapshot();
    await h.clock.advance(25_000);
    const started = h.clock.now();
    const error = await drive(
      h.clock,
      client.request('listAssets', { priority: 'background' }).catch((e: unknown) => e),
    );
    expect(isPartnerError(error) && error.code).toBe('RATE_LIMITED');
    expect((error as Error).message).toMatch(/no request of this budget has gone through for anyone/);
    expect(h.clock.now() - started).toBeGreaterThanOrEqual(20_000);
    expect(h.clock.now() - started).toBeLessThan(40_000);
  });

  it('reads a stall limit given as a function each time: a setting changed while it waits applies to it', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }) });
    let limitMs = 600_000;
    const client = h.client({ stallLimitMs: () => limitMs });
    const started = h.clock.now();
    const waiting = client.request('listAssets', { priority: 'background' }).catch((e: unknown) => e);
    await h.clock.advance(30_000);
    expect(h.fake.received.length).toBeGreaterThan(6); // still waiting through 429s
    limitMs = 40_000;
    const error = await drive(h.clock, waiting);
    expect(isPartnerError(error) && error.code).toBe('RATE_LIMITED');
    expect(h.clock.now() - started).toBeLessThan(60_000);
  });

  it('a crowd shows in the bucket snapshot as consumers sharing it', async () => {
    const h = harness({ latencyMs: 2 });
    // Another consumer spends 15 of the 20 each second.
    let stop = false;
    const crowd = (): void => {
      if (stop) return;
      for (let i = 0; i < 3; i++) h.fake.foreign('v', 'listAssets');
      h.clock.setTimeout(crowd, 200);
    };
    crowd();
    const client = h.client();
    await runFor(h.clock, h.clock.now() + 3_000, 1, () => client.request('listAssets'));
    const h2 = client.budgetSnapshot().find((b) => b.endpoint === 'listAssets')!;
    stop = true;
    expect(h2.consumers).toBeGreaterThan(1);
  });
});

describe('an interactive call that meets a crowd', () => {
  it('fails after its bounded retries saying the budget is taken by others', async () => {
    let crowded = false;
    const h = harness({ latencyMs: 2, action: (req) => (crowded && req.endpoint === 'listAssets' ? { kind: 'rate-limited' } : { kind: 'answer' }) });
    let stop = false;
    const crowd = (): void => {
      if (stop) return;
      for (let i = 0; i < 3; i++) h.fake.foreign('v', 'listAssets');
      h.clock.setTimeout(crowd, 200);
    };
    crowd();
    const client = h.client();
    await runFor(h.clock, h.clock.now() + 3_000, 1, () => client.request('listAssets'));
    crowded = true;
    const error = await drive(
      h.clock,
      client.request('listAssets').catch((e: unknown) => e),
    );
    stop = true;
    expect(isPartnerError(error) && error.code).toBe('RATE_LIMITED');
    expect((error as Error).message).toMatch(/taken by other consumers of vendor v \(about \d+ others? share it\)/);
  });
});

describe('fair-share estimator and AIMD pacing', () => {
  const LIMIT = 20;
  const t0 = 1_000_000;

  it('alone: never slowed, one consumer', () => {
    const s = new FairShare(() => LIMIT, t0);
    for (let i = 0; i < 100; i++) s.answered({ at: t0 + i * 50, refused: false, remaining: 19 - (i % 20), aloneFloor: 19 - (i % 20), phase: (i % 20) / 20 });
    expect(s.consumers(t0 + 5_000)).toBe(1);
    expect(s.rate(t0 + 5_000)).toBe(LIMIT);
    expect(s.earliest(t0 + 5_000)).toBe(t0 + 5_000);
  });

  it('three others at our pace: estimates about four consumers and paces near limit/4, spread over the second', () => {
    const s = new FairShare(() => LIMIT, t0);
    // We send 5/s; at each answer others have spent 3x what we did in the second so far.
    for (let i = 0; i < 40; i++) {
      const phase = ((i % 5) + 0.5) / 5;
      const at = t0 + i * 200;
      s.sent(at);
      const oursSoFar = (i % 5) + 1;
      s.answered({ at, refused: false, remaining: LIMIT - 4 * oursSoFar, aloneFloor: LIMIT - oursSoFar, phase });
    }
    const now = t0 + 7_801;
    expect(s.consumers(now)).toBeGreaterThan(3);
    expect(s.consumers(now)).toBeLessThan(6);
    expect(s.rate(now)).toBeLessThan(LIMIT / 2);
    // Spread: the next request waits a whole gap after the last one rather than going at once.
    expect(s.earliest(now)).toBeGreaterThan(now);
  });

  it('a 429 halves the pace, at most once a second; it grows back additively, then whole once others are gone', () => {
    const s = new FairShare(() => LIMIT, t0);
    // Three others at the very start of the second: a fleet that starts together.
    s.answered({ at: t0, refused: false, remaining: 16, aloneFloor: 19, phase: 0.05 });
    s.answered({ at: t0 + 10, refused: false, remaining: 15, aloneFloor: 18, phase: 0.06 });
    expect(s.active(t0 + 10)).toBe(true);
    const r0 = s.rate(t0 + 10);
    expect(r0).toBeLessThanOrEqual(LIMIT / 4); // three others seen at once: at most a quarter to start with
    s.answered({ at: t0 + 1_100, refused: true, remaining: 0, aloneFloor: null, phase: null });
    expect(s.rate(t0 + 1_100)).toBeCloseTo(r0 * 0.5, 5);
    s.answered({ at: t0 + 1_200, refused: true, remaining: 0, aloneFloor: null, phase: null });
    expect(s.rate(t0 + 1_200)).toBeCloseTo(r0 * 0.5, 5); // same event
    const cut = s.rate(t0 + 1_200);
    s.answered({ at: t0 + 3_200, refused: false, remaining: 15, aloneFloor: 15, phase: 0.5 });
    const grown = s.rate(t0 + 3_200);
    expect(grown).toBeGreaterThan(cut);
    // Others gone quiet (Remaining as if alone): it takes back the room they left, never more than the limit.
    expect(grown).toBeLessThanOrEqual(LIMIT);
    expect(s.rate(t0 + 20_000)).toBe(LIMIT);
  });

  it('a first 429 after a few of ours went through: paces at about what we got, at once (a fleet that starts together)', () => {
    const s = new FairShare(() => LIMIT, t0);
    // Two of ours went through, then the second's budget was gone: others spent the other 18.
    s.answered({ at: t0, refused: false, remaining: 19, aloneFloor: 19, phase: 0.01 });
    s.answered({ at: t0 + 5, refused: false, remaining: 3, aloneFloor: 18, phase: 0.02 });
    s.answered({ at: t0 + 10, refused: true, remaining: 0, aloneFloor: null, phase: null });
    expect(s.active(t0 + 10)).toBe(true);
    expect(s.rate(t0 + 10)).toBeLessThanOrEqual(2); // not half the limit, nor the whole of it
  });

  it('a second projected close to the limit (under the cut) holds the pace instead of increasing it', () => {
    const s = new FairShare(() => LIMIT, t0);
    s.answered({ at: t0, refused: false, remaining: 16, aloneFloor: 19, phase: 0.5 });
    s.answered({ at: t0 + 10, refused: false, remaining: 15, aloneFloor: 18, phase: 0.51 });
    const r0 = s.rate(t0 + 10);
    // 11 of 20 spent by 0.556 of the second: about 99% of the limit over the whole second.
    s.answered({ at: t0 + 1_100, refused: false, remaining: 8, aloneFloor: 8, phase: 0.556 });
    expect(s.rate(t0 + 1_100)).toBe(r0);
    // A calm second after it: additive increase again.
    s.answered({ at: t0 + 2_200, refused: false, remaining: 15, aloneFloor: 15, phase: 0.6 });
    expect(s.rate(t0 + 2_200)).toBeGreaterThan(r0);
  });

  it('one answer showing many others at once paces at once (a fleet that starts together); a clean answer after one of ours clears it', () => {
    const s = new FairShare(() => LIMIT, t0);
    // Our first request was the 16th of the second: 15 others went just before it.
    s.answered({ at: t0, refused: false, remaining: 4, aloneFloor: 19, phase: 0.34 });
    expect(s.active(t0)).toBe(true);
    expect(s.rate(t0)).toBeLessThanOrEqual(LIMIT / 16);
    // Nobody else after our next one in the same window: it was not a crowd after all.
    s.answered({ at: t0 + 50, refused: false, remaining: 18, aloneFloor: 18, phase: 0.39 });
    expect(s.active(t0 + 60)).toBe(false);
    expect(s.rate(t0 + 60)).toBe(LIMIT);
  });

  it('others spread over the second (a steady competitor): the first pace is what they leave, not limit / (1 + their requests)', () => {
    const s = new FairShare(() => LIMIT, t0);
    // 3 requests of others by half the second: about 6/s of the 20.
    s.answered({ at: t0, refused: false, remaining: 16, aloneFloor: 19, phase: 0.48 });
    expect(s.rate(t0)).toBeGreaterThan(LIMIT / 2);
    expect(s.rate(t0)).toBeLessThan(LIMIT - 6);
  });

  it('a request that would find the budget of the server second gone waits for the next second, spread over one interval', () => {
    const s = new FairShare(() => LIMIT, t0);
    s.sent(t0 - 2);
    s.answered({ at: t0, refused: false, remaining: 10, aloneFloor: 19, phase: 0.1 });
    s.sent(t0 + 15);
    s.answered({ at: t0 + 20, refused: false, remaining: 6, aloneFloor: 18, phase: 0.12 });
    const interval = 1000 / s.rate(t0 + 20);
    const paced = t0 + 15 + interval;
    // At the fleet's pace, 6 left at 0.12 of the second are gone long before our next turn.
    const secondEnds = t0 + 20 + 880;
    expect(paced).toBeLessThan(secondEnds);
    const at = s.earliest(t0 + 20);
    expect(at).toBeGreaterThan(secondEnds);
    expect(at).toBeLessThanOrEqual(secondEnds + 10 + interval);
    // Plenty left: the pace alone decides.
    s.answered({ at: t0 + 30, refused: false, remaining: 17, aloneFloor: 17, phase: 0.13 });
    expect(s.earliest(t0 + 30)).toBeCloseTo(t0 + 15 + 1000 / s.rate(t0 + 30), 6);
  });

  it('a consumer that leaves a whole-second budget: its room is taken back in one decision, not over several', () => {
    const s = new FairShare(() => LIMIT, t0);
    // Each second we send at our pace, evenly; the others spend `others` a second, evenly; the budget
    // comes back whole at each second.
    const second = (k: number, others: number): void => serverSecond(s, { t0, limit: LIMIT }, k, others);
    for (let k = 0; k < 20; k++) second(k, 15); // settles near the limit: about 4/s of ours
    second(20, 5); // two of the others finished: this second's projection falls to about half the limit
    const before = s.rate(t0 + 21_000);
    second(21, 5); // its decision, early in the next second
    // Before: half of our part of the room per decision (x1.55 here); now all of it at once (x2).
    expect(s.rate(t0 + 22_000)).toBeGreaterThan(before * 1.8);
    expect(s.rate(t0 + 22_000)).toBeLessThanOrEqual(before * 2 + 1e-9);
  });

  it('the last copy of a fleet: a whole decision without others takes all the room at once, not our part of it', () => {
    const s = new FairShare(() => LIMIT, t0);
    const second = (k: number, others: number): void => serverSecond(s, { t0, limit: LIMIT }, k, others);
    for (let k = 0; k < 20; k++) second(k, 15); // about 4/s of ours beside 15/s of others
    const shared = s.rate(t0 + 20_000);
    for (let k = 20; k < 22; k++) second(k, 0); // the others finished
    // Still pacing (others were seen within the memory), but at nearly the whole limit within two decisions.
    expect(s.active(t0 + 22_000)).toBe(true);
    expect(shared).toBeLessThan(LIMIT / 3);
    expect(s.rate(t0 + 22_000)).toBeGreaterThan(LIMIT * 0.85);
  });

  it('the last copy, its answers all early in their seconds (nothing to project a second from): others gone, the whole room all the same', () => {
    const s = new FairShare(() => LIMIT, t0);
    const second = (k: number, others: number): void => serverSecond(s, { t0, limit: LIMIT }, k, others);
    for (let k = 0; k < 20; k++) second(k, 15);
    const shared = s.rate(t0 + 20_000);
    // The others finished. Ours go at the start of each second (where deferred requests go), none at a phase a
    // second's use can be projected from.
    for (let k = 20; k < 23; k++) {
      [0.1, 0.2, 0.3].forEach((phase, j) => {
        const at = t0 + k * 1000 + phase * 1000;
        s.sent(at - 5);
        s.answered({ at, refused: false, remaining: LIMIT - 1 - j, aloneFloor: LIMIT - 1 - j, phase });
      });
    }
    expect(shared).toBeLessThan(LIMIT / 3);
    expect(s.rate(t0 + 23_000)).toBeGreaterThan(LIMIT * 0.85);
  });

  it('resumed at a share (a budget store failed): paces at it at once, steady, and alone again only after the memory', () => {
    const s = new FairShare(() => LIMIT, t0);
    s.resume(t0, 2.5);
    expect(s.active(t0)).toBe(true);
    expect(s.phase(t0)).toBe('steady');
    expect(s.rate(t0)).toBe(2.5);
    s.sent(t0);
    expect(s.earliest(t0 + 1)).toBeCloseTo(t0 + 400, 6);
    // A share above the limit is the limit; nobody seen for the memory's length: the whole limit again.
    expect(s.rate(t0 + 15_001)).toBe(LIMIT);
    s.resume(t0 + 20_000, 50);
    expect(s.rate(t0 + 20_000)).toBe(LIMIT);
  });

  it('a fleet that starts together: five of ours among twenty count as about four consumers, not sixteen', () => {
    const s = new FairShare(() => LIMIT, t0);
    // Four copies send back to back from 0.2 of the second: three of the others' requests per one of ours.
    for (let k = 1; k <= 5; k++) {
      const at = t0 + 200 + 10 * k;
      s.sent(at - 2);
      s.answered({ at, refused: false, remaining: LIMIT - 4 * k, aloneFloor: LIMIT - k, phase: (200 + 10 * k) / 1000 });
    }
    // Counting each of the others' 15 requests as one consumer paced at 20/16 = 1.25/s.
    expect(s.rate(t0 + 260)).toBeGreaterThanOrEqual(LIMIT / 4 - 0.5);
    expect(s.rate(t0 + 260)).toBeLessThanOrEqual(LIMIT / 4 + 0.5);
  });

  it('a crowd aims a little above the limit: a second projected at the limit grows the pace; one steady competitor does not', () => {
    // `ours` requests a second, evenly to 0.9 of it; each answer shows the second used at exactly the
    // limit's pace, one slot left at 0.9 (the rest of the second is for the requests that wait).
    const atTheLimit = (ours: number): FairShare => {
      const s = new FairShare(() => LIMIT, t0);
      for (let i = 0; i < 12 * ours; i++) {
        const j = i % ours;
        const phase = (0.9 * (j + 1)) / ours;
        const at = t0 + Math.floor(i / ours) * 1000 + phase * 1000;
        s.sent(at - 2);
        s.answered({ at, refused: false, remaining: LIMIT - 1 - Math.round(LIMIT * phase), aloneFloor: LIMIT - (j + 1), phase });
      }
      return s;
    };
    // Ours 5 of the 20: a crowd. Aiming at the limit cut the pace under a quarter at every second.
    const crowd = atTheLimit(5);
    expect(crowd.consumers(t0 + 11_950)).toBeGreaterThan(3);
    expect(crowd.rate(t0 + 11_950)).toBeGreaterThan(LIMIT / 4);
    // Ours 12 of the 20, beside one steady consumer: the pace does not grow past what it leaves.
    const beside = atTheLimit(12);
    expect(beside.consumers(t0 + 11_950)).toBeLessThan(2);
    expect(beside.rate(t0 + 11_950)).toBeLessThanOrEqual(12.5);
  });

  it('one garbled Remaining is not a crowd', () => {
    const s = new FairShare(() => LIMIT, t0);
    s.answered({ at: t0, refused: false, remaining: 0, aloneFloor: 19, phase: 0.1 });
    s.answered({ at: t0 + 50, refused: false, remaining: 18, aloneFloor: 18, phase: 0.15 });
    expect(s.active(t0 + 60)).toBe(false);
    expect(s.rate(t0 + 60)).toBe(LIMIT);
  });
});

describe.each<FakeRefill>(['whole-second', 'continuous'])('four copies sharing one budget through headers alone (%s)', (refill) => {
  it('converge to about limit/4 each: nobody gives up, few 429s, fair', async () => {
    const h = harness({ refill, latencyMs: () => 2 + random() * 6 });
    const random = seededRandom(refill === 'continuous' ? 41 : 42);
    // Each copy is its own process: its own registry, nothing shared but the server's answers.
    const copies = Array.from(
      { length: 4 },
      (_, i) =>
        new PartnerClient({
          baseUrl: FAKE_BASE_URL,
          vendor: 'v',
          tokens: [`token-${i}`],
          fetch: h.fake.fetch,
          clock: h.clock,
          budgets: new BudgetRegistry({ clock: h.clock }),
          random: seededRandom(100 + i),
        }),
    );
    const got = [0, 0, 0, 0];
    const seconds = 60;
    const { failed } = await runFor(h.clock, h.clock.now() + seconds * 1000, 4, async (i) => {
      await copies[i]!.request('listAssets', { priority: 'background' });
      got[i]!++;
    });
    expect(failed).toEqual([]);
    const total = got.reduce((a, b) => a + b, 0);
    const jain = total ** 2 / (4 * got.reduce((a, b) => a + b * b, 0));
    const refused = h.fake.count(429);
    expect(jain).toBeGreaterThan(0.9);
    expect(refused / (total + refused)).toBeLessThan(0.02);
    expect(total / seconds).toBeGreaterThan(20 * 0.8);
  });
});
