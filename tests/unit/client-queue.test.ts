/** Waiting for budget: priority, order, cancelling, timeouts, and close() leaving nothing behind. */
import { describe, expect, it } from 'vitest';
import { drive, errorOf, harness, settle } from '../../electron/client/testing';
import type { FakeAction } from '../../electron/client/testing';

/** Uses up assetHistory's 10 slots so that the next requests have to queue for about a second. */
async function fillHistoryBucket(h: ReturnType<typeof harness>, client: ReturnType<ReturnType<typeof harness>['client']>): Promise<void> {
  await drive(h.clock, Promise.all(Array.from({ length: 10 }, () => client.request('assetHistory', { body: { asset_id: 0 } }))));
}

describe('queue order', () => {
  it('interactive before background, first come first served within each', async () => {
    const h = harness();
    const client = h.client();
    await fillHistoryBucket(h, client);
    const order = ['bg-1', 'bg-2', 'click-1', 'bg-3', 'click-2'];
    const calls = order.map((tag) =>
      client.request('assetHistory', { body: { asset_id: tag }, priority: tag.startsWith('bg') ? 'background' : 'interactive' }),
    );
    await settle();
    expect(client.budgetSnapshot().find((b) => b.endpoint === 'assetHistory')!.queued).toBe(5);
    await drive(h.clock, Promise.all(calls));
    const sent = h.fake.received.slice(10).map((r) => (r.body as { asset_id: string }).asset_id);
    expect(sent).toEqual(['click-1', 'click-2', 'bg-1', 'bg-2', 'bg-3']);
  });
});

describe('cancelling', () => {
  it('aborting a queued request removes it from the queue: CANCELLED, never sent, no slot', async () => {
    const h = harness();
    const client = h.client();
    await fillHistoryBucket(h, client);
    const controller = new AbortController();
    const cancelled = errorOf(client.request('assetHistory', { body: { asset_id: 'x' }, signal: controller.signal }));
    const kept = client.request('assetHistory', { body: { asset_id: 'y' } });
    await h.clock.advance(100);
    controller.abort();
    expect((await cancelled).code).toBe('CANCELLED');
    expect(client.budgetSnapshot().find((b) => b.endpoint === 'assetHistory')!.queued).toBe(1);
    await drive(h.clock, kept);
    expect(h.fake.received.slice(10).map((r) => (r.body as { asset_id: string }).asset_id)).toEqual(['y']);
  });

  it('an already aborted signal: CANCELLED, nothing sent', async () => {
    const h = harness();
    const e = await errorOf(h.client().request('categories', { signal: AbortSignal.abort() }));
    expect(e.code).toBe('CANCELLED');
    expect(h.fake.received).toHaveLength(0);
  });

  it('aborting in flight: CANCELLED for a safe call, UNKNOWN_OUTCOME for a registration (it may have happened)', async () => {
    const h = harness({ action: () => ({ kind: 'hang' }) });
    const client = h.client();
    const c1 = new AbortController();
    const c2 = new AbortController();
    const read = errorOf(client.request('categories', { signal: c1.signal }));
    const register = errorOf(client.request('registerPurchase', { body: { asset_id: 1 }, signal: c2.signal }));
    await h.clock.advance(100);
    c1.abort();
    c2.abort();
    expect((await read).code).toBe('CANCELLED');
    const e = await register;
    expect(e.code).toBe('UNKNOWN_OUTCOME');
    expect(e.message).toMatch(/cancelled after it was sent/);
    expect(h.clock.pendingTimers).toBe(0);
  });

  it('aborting during a backoff wait cancels the retry', async () => {
    const h = harness({ action: () => ({ kind: 'answer', status: 503 }) });
    const client = h.client({ random: () => 1 });
    const controller = new AbortController();
    const p = errorOf(client.request('categories', { signal: controller.signal }));
    await h.clock.advance(50); // first attempt answered 503; waiting up to 250 ms before the retry
    controller.abort();
    expect((await p).code).toBe('CANCELLED');
    await h.clock.advance(10_000);
    expect(h.fake.received).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('every attempt has its own timeout (client default, or per call)', async () => {
    const h = harness({ action: () => ({ kind: 'hang' }) });
    const client = h.client({ timeoutMs: 1_000, retry: { maxAttempts: 2, baseMs: 100 } });
    const start = h.clock.now();
    let endedAt = 0;
    const e = await errorOf(
      drive(
        h.clock,
        client.request('categories').finally(() => (endedAt = h.clock.now())),
      ),
    );
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toMatch(/no answer within 1000 ms/);
    expect(endedAt - start).toBeGreaterThanOrEqual(2_000);
    expect(endedAt - start).toBeLessThan(2_200);
    const e2 = await errorOf(drive(h.clock, client.request('categories', { timeoutMs: 300 })));
    expect(e2.message).toMatch(/no answer within 300 ms/);
  });
});

describe('close()', () => {
  it('rejects queued and in-flight requests, cancels backoff waits, clears every timer', async () => {
    const actions: Record<string, FakeAction> = { categories: { kind: 'hang' }, viewUrl: { kind: 'answer', status: 500 } };
    const h = harness({ action: (req) => actions[req.endpoint] ?? { kind: 'answer' } });
    const client = h.client({ random: () => 1 });
    const other = h.client(); // same registry, another owner
    await fillHistoryBucket(h, client);
    const queued = errorOf(client.request('assetHistory', { body: { asset_id: 'q' } }));
    const othersQueued = other.request('assetHistory', { body: { asset_id: 'other' } });
    const inFlight = errorOf(client.request('categories'));
    const inBackoff = errorOf(client.request('viewUrl', { query: { purchase_id: 'p' } }));
    await h.clock.advance(20);
    client.close();
    expect((await queued).code).toBe('CANCELLED');
    expect((await inFlight).code).toBe('CANCELLED');
    expect((await inBackoff).code).toBe('CANCELLED');
    expect((await errorOf(client.request('categories'))).message).toMatch(/closed/);
    // The other client's request still runs; once it is done no timer is left anywhere.
    await drive(h.clock, othersQueued);
    await settle();
    expect(h.clock.pendingTimers).toBe(0);
    expect(h.registry.hasTimers).toBe(false);
    expect(h.fake.received.map((r) => (r.body as { asset_id?: string } | undefined)?.asset_id).filter((x) => x === 'q')).toEqual([]);
    other.close();
  });

  it('close() with nothing going on leaves no timer; calling it twice is fine', async () => {
    const h = harness();
    const client = h.client();
    await drive(h.clock, client.request('categories'));
    client.close();
    client.close();
    await settle();
    expect(h.clock.pendingTimers).toBe(0);
  });
});
