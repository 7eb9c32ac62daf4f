/** Retries: 429 pauses the whole bucket with backoff, unknown outcomes are resent only where safe. */
import { describe, expect, it } from 'vitest';
import { ManualClock, answerAttempt, drive, errorOf, harness } from '../../electron/client/testing';
import type { FakeAction, FakeRequest } from '../../electron/client/testing';
import { BudgetBucket } from '../../electron/client/budget-bucket';
import { ServerClock } from '../../electron/client/server-clock';
import { UNKNOWN_OUTCOME_HINT } from '../../electron/client/classify';

const RATE_LIMITED_BODY = { name: 'Too Many Requests', message: 'Rate limit exceeded.', code: 0, status: 429 };

/** The first `n` requests (optionally of one endpoint) get `action`, the rest are answered. */
function firstN(n: number, action: FakeAction, endpoint?: string): (req: FakeRequest) => FakeAction {
  let seen = 0;
  return (req) => ((endpoint === undefined || req.endpoint === endpoint) && seen++ < n ? action : { kind: 'answer' });
}

describe('429: the whole bucket pauses', () => {
  it('holds the refused request and every other request of the bucket until Reset plus jitter', async () => {
    const h = harness({ latencyMs: 2, action: firstN(1, { kind: 'rate-limited' }) });
    const client = h.client(); // random 0.5: jitter = 0.5 * 250 ms
    const a = client.request('listAssets');
    await h.clock.advance(5); // the 429 is in: paused until ~2 + 1000 + 125
    const b = client.request('listAssets');
    const c = client.request('listAssets', { priority: 'background' });
    const other = client.request('purchaseInfo', { query: { purchase_id: 'p' } }); // another bucket: not paused
    await h.clock.advance(20);
    expect(h.fake.received.map((r) => r.endpoint)).toEqual(['listAssets', 'purchaseInfo']);
    expect(client.budgetSnapshot().find((s) => s.endpoint === 'listAssets')!.pausedUntil).toBeGreaterThan(h.clock.now() + 1_000);
    await h.clock.advance(1_070); // ~1095: still paused
    expect(h.fake.received.filter((r) => r.endpoint === 'listAssets')).toHaveLength(1);
    await h.clock.advance(60); // ~1155: pause over
    expect(h.fake.received.filter((r) => r.endpoint === 'listAssets')).toHaveLength(4);
    expect((await a).attempts).toBe(2);
    await Promise.all([b, c, other]);
  });

  it('holds requests that were already waiting in the queue, not only new ones', async () => {
    const clock = new ManualClock();
    const bucket = new BudgetBucket('http://x', 'v', 'assetHistory', 10, clock, new ServerClock());
    const owner = {};
    const first = await Promise.all(Array.from({ length: 10 }, () => bucket.acquire({ priority: 'interactive', owner })));
    let granted = 0;
    const waiting = [bucket.acquire({ priority: 'interactive', owner }), bucket.acquire({ priority: 'background', owner })];
    for (const w of waiting) void w.then(() => granted++);
    bucket.pauseUntil(clock.now() + 5_000);
    // Answers free the budget, but the pause holds the queue.
    for (const ticket of first)
      bucket.settle(
        answerAttempt({ ticket, at: clock.now(), status: 200, rate: { limit: 10, remaining: 9, reset: 0, problems: [] }, endpoint: 'assetHistory' }),
        () => 0,
      );
    await clock.advance(4_900);
    expect(granted).toBe(0);
    await clock.advance(200);
    expect(granted).toBe(2);
  });

  it('treats Reset 0 as "under a second", never "now": waits for the next server second, at least 250 ms', async () => {
    for (const phase of [100, 900]) {
      const h = harness({
        latencyMs: 2,
        action: firstN(1, { kind: 'rate-limited' }, 'listAssets'),
        rewriteHeaders: (headers) => ({ ...headers, 'X-Rate-Limit-Reset': '0' }),
      });
      const client = h.client({ random: () => 0 });
      // Teach the client where the server's seconds fall: a request either side of a boundary.
      await drive(h.clock, client.request('categories'));
      await h.clock.advance(1_000 - (h.clock.now() % 1_000) + 1);
      await drive(h.clock, client.request('categories'));
      await h.clock.advance(phase - (h.clock.now() % 1_000));
      await drive(h.clock, client.request('listAssets'));
      const [refused, retry] = h.fake.records.filter((r) => r.endpoint === 'listAssets');
      expect(retry!.serverAt - refused!.serverAt).toBeGreaterThanOrEqual(250);
      expect(Math.floor(retry!.serverAt / 1000)).toBeGreaterThan(Math.floor(refused!.serverAt / 1000));
    }
  });

  it('backs off exponentially with full jitter on 429s in a row, up to the cap', async () => {
    const h = harness({ latencyMs: 2, action: firstN(5, { kind: 'rate-limited' }) });
    const client = h.client({ random: () => 0.999, retry: { baseMs: 200, capMs: 1_000, maxAttempts: 10 } });
    expect((await drive(h.clock, client.request('listAssets'))).attempts).toBe(6);
    const at = h.fake.records.map((r) => r.serverAt);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    const expected = [200, 400, 800, 1_000, 1_000].map((j) => 1_000 + 0.999 * j); // Reset 1 s + jitter ceiling
    gaps.forEach((gap, i) => {
      expect(gap).toBeGreaterThanOrEqual(expected[i]!);
      expect(gap).toBeLessThan(expected[i]! + 25);
    });
  });

  it("hands each attempt's sample to the request's own listener, and no other request's", async () => {
    const h = harness({ latencyMs: 2, action: firstN(1, { kind: 'rate-limited' }) });
    const client = h.client();
    const own: [string, number, number][] = [];
    const everyone: string[] = [];
    client.onSample((s) => everyone.push(s.endpoint));
    const mine = client.request('listAssets', { onSample: (s) => own.push([s.endpoint, s.status, s.attempt]) });
    const other = client.request('listAssets');
    const third = client.request('categories');
    await drive(h.clock, Promise.all([mine, other, third]));
    expect(own).toEqual([
      ['listAssets', 429, 1],
      ['listAssets', 200, 2],
    ]);
    expect(everyone).toHaveLength(4);
  });

  it('gives up after maxAttempts with RATE_LIMITED carrying the 429 body', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }) });
    const client = h.client({ retry: { maxAttempts: 3 } });
    const attempts: number[] = [];
    client.onSample((s) => attempts.push(s.attempt));
    const p = errorOf(client.request('listAssets'));
    await h.clock.runUntil(() => h.fake.received.length === 3);
    await h.clock.advance(10);
    const e = await p;
    expect(e.code).toBe('RATE_LIMITED');
    expect(e.data.status).toBe(429);
    expect(e.data.body).toEqual(RATE_LIMITED_BODY);
    expect(e.data.retryable).toBe(true);
    expect(attempts).toEqual([1, 2, 3]);
    await h.clock.advance(60_000);
    expect(h.fake.received).toHaveLength(3);
  });

  it('gives up when the next wait would pass maxElapsedMs, without waiting for nothing', async () => {
    const h = harness({ latencyMs: 2, action: () => ({ kind: 'rate-limited' }) });
    const client = h.client({ random: () => 0, retry: { maxAttempts: 100, maxElapsedMs: 2_500 } });
    const start = h.clock.now();
    let doneAt = 0;
    const p = errorOf(client.request('listAssets')).finally(() => (doneAt = h.clock.now()));
    await h.clock.runUntil(() => doneAt > 0);
    expect((await p).code).toBe('RATE_LIMITED');
    expect(h.fake.received).toHaveLength(3); // at ~0, ~1000, ~2000; the next would start after 2500
    expect(doneAt - start).toBeLessThan(2_100);
  });
});

describe('unknown outcome: resend only what is safe to resend', () => {
  it('registration after a dropped connection: UNKNOWN_OUTCOME at once, never resent', async () => {
    const h = harness({ action: () => ({ kind: 'drop' }) });
    const client = h.client();
    const p = errorOf(client.request('registerPurchase', { body: { asset_id: 7, client_reference: 'ref-1' } }));
    await h.clock.advance(100);
    const e = await p;
    expect(e.code).toBe('UNKNOWN_OUTCOME');
    expect(e.data.retryable).toBe(false);
    expect(e.data.hint).toMatch(/check/i);
    await h.clock.advance(60_000);
    expect(h.fake.received).toHaveLength(1);
  });

  it('registration after a 5xx or a timeout: UNKNOWN_OUTCOME, sent once', async () => {
    for (const action of [{ kind: 'answer', status: 503 }, { kind: 'hang' }] as FakeAction[]) {
      const h = harness({ action: () => action });
      const client = h.client({ timeoutMs: 1_000 });
      const p = errorOf(client.request('registerPurchase', { body: { asset_id: 7 } }));
      await h.clock.advance(1_100);
      const e = await p;
      expect(e.code).toBe('UNKNOWN_OUTCOME');
      expect(e.data.hint).toBe(UNKNOWN_OUTCOME_HINT);
      expect(e.data.retryable).toBe(false);
      expect(e.message).toMatch(/may or may not have acted/);
      if (action.kind === 'answer') expect(e.data.status).toBe(503);
      await h.clock.advance(60_000);
      expect(h.fake.received).toHaveLength(1);
    }
  });

  it('a safe request is resent with backoff after a drop, a 5xx and a timeout, and succeeds', async () => {
    const outcomes: FakeAction[] = [{ kind: 'drop' }, { kind: 'answer', status: 500 }, { kind: 'hang' }];
    let i = 0;
    const h = harness({ action: () => outcomes[i++] ?? { kind: 'answer' } });
    const client = h.client({ timeoutMs: 500 });
    const statuses: number[] = [];
    client.onSample((s) => statuses.push(s.status));
    const res = await drive(h.clock, client.request('purchaseInfo', { query: { purchase_id: 'p' } }));
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(4);
    expect(statuses).toEqual([0, 500, 0, 200]);
  });

  it('a safe request that keeps failing ends as SERVER_ERROR (with the body) or TIMEOUT after the retry budget', async () => {
    const h5 = harness({ action: () => ({ kind: 'answer', status: 500, body: { name: 'Internal Server Error', message: 'boom', code: 0, status: 500 } }) });
    const p5 = errorOf(h5.client({ retry: { maxAttempts: 3 } }).request('purchaseInfo', { query: { purchase_id: 'p' } }));
    await h5.clock.advance(30_000);
    const e5 = await p5;
    expect(e5.code).toBe('SERVER_ERROR');
    expect(e5.data.body).toMatchObject({ message: 'boom' });
    expect(h5.fake.received).toHaveLength(3);

    const ht = harness({ action: () => ({ kind: 'hang' }) });
    const pt = errorOf(ht.client({ timeoutMs: 200, retry: { maxAttempts: 2 } }).request('categories'));
    await ht.clock.advance(30_000);
    expect((await pt).code).toBe('TIMEOUT');
    expect(ht.fake.received).toHaveLength(2);
  });

  it('a timeout given as a function is read on each attempt: a changed setting applies to the next one', async () => {
    const h = harness({ action: () => ({ kind: 'hang' }) });
    let setting = 5_000;
    const client = h.client({ timeoutMs: () => setting, retry: { maxAttempts: 1 } });
    const first = errorOf(client.request('categories'));
    await h.clock.advance(4_000);
    expect(h.fake.received).toHaveLength(1);
    await h.clock.advance(1_100);
    const e1 = await first;
    expect(e1.code).toBe('TIMEOUT');
    expect(e1.message).toContain('5000 ms');

    setting = 300;
    const second = errorOf(client.request('categories'));
    await h.clock.advance(400);
    const e2 = await second;
    expect(e2.code).toBe('TIMEOUT');
    expect(e2.message).toContain('300 ms');

    setting = Number.NaN; // a bad value from the setting falls back to the default instead of failing
    const third = errorOf(client.request('categories'));
    await h.clock.advance(20_000);
    expect((await third).message).toContain('15000 ms');
  });

  it('a refused connection reached nothing: retried even for registration, then NETWORK; no slot spent', async () => {
    const h = harness({ action: firstN(2, { kind: 'refuse' }) });
    const res = h.client().request('registerPurchase', { body: { asset_id: 1 } });
    await h.clock.advance(10_000);
    expect((await res).attempts).toBe(3);
    expect(h.fake.received).toHaveLength(1);

    const h2 = harness({ action: () => ({ kind: 'refuse' }) });
    const client = h2.client({ retry: { maxAttempts: 4 } });
    const p = errorOf(client.request('registerPurchase', { body: { asset_id: 1 } }));
    await h2.clock.advance(30_000);
    const e = await p;
    expect(e.code).toBe('NETWORK');
    expect(e.message).toMatch(/ECONNREFUSED/);
    const bucket = client.budgetSnapshot().find((b) => b.endpoint === 'registerPurchase')!;
    expect(bucket.available).toBe(50);
    expect(bucket.inFlight).toBe(0);
  });
});
