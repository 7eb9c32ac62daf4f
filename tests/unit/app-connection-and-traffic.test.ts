import { describe, expect, it } from 'vitest';
import { connectionSchema } from '../../shared/bridge/schemas';
import type { EndpointId } from '../../shared/endpoints';
import type { BudgetSample } from '../../shared/rate-limit';
import { ConnectionTracker } from '../../electron/app/connection-state';
import type { ConnectionView } from '../../electron/app/connection-state';
import { DemoTraffic } from '../../electron/app/demo-traffic';
import type { TimerClock } from '../../electron/telemetry';

function fakeClock(start = 1_700_000_000_000): TimerClock & { advance(ms: number): void; pending(): number } {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimeout(fn, ms) {
      timers.set(++seq, { at: now + Math.max(0, ms), fn });
      return seq;
    },
    clearTimeout: (h) => void timers.delete(h as number),
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!next) break;
        timers.delete(next[0]);
        now = Math.max(now, next[1].at);
        next[1].fn();
      }
      now = end;
    },
    pending: () => timers.size,
  };
}

const sample = (status: number, at: number): BudgetSample => ({
  vendor: 'demo',
  endpoint: 'categories',
  at,
  status,
  limit: 20,
  remaining: 10,
  reset: 0,
  latencyMs: 3,
  waitedMs: 0,
  attempt: 1,
  headerProblems: [],
});

describe('ConnectionTracker', () => {
  const target = { profileId: 'demo', vendor: 'demo', baseUrl: 'http://127.0.0.1:1', demo: true };

  it('goes connecting -> connected -> degraded -> connected, announcing changes only', () => {
    const clock = fakeClock();
    const seen: ConnectionView[] = [];
    const t = new ConnectionTracker({ clock, onChange: (v) => seen.push(v), windowMs: 10_000 });
    t.setTarget(target);
    expect(t.current().state).toBe('connecting');
    for (let i = 0; i < 5; i++) t.record(sample(200, clock.now()));
    t.record(sample(429, clock.now()));
    t.record(sample(429, clock.now()));
    t.record(sample(200, clock.now()));
    expect(t.current().state).toBe('degraded');
    clock.advance(9_000);
    expect(t.current().state).toBe('degraded');
    clock.advance(1_001);
    expect(t.current().state).toBe('connected');
    expect(seen.map((v) => v.state)).toEqual(['connecting', 'connected', 'degraded', 'connected']);
    for (const v of seen) expect(connectionSchema.safeParse(v).success).toBe(true);
    t.dispose();
    expect(clock.pending()).toBe(0);
  });

  it('is offline when nothing answers, degraded on a lone failure after answers, and ignores other vendors', () => {
    const clock = fakeClock();
    const seen: string[] = [];
    const t = new ConnectionTracker({ clock, onChange: (v) => seen.push(v.state) });
    t.setTarget(target);
    t.record(sample(0, clock.now()));
    expect(t.current()).toMatchObject({ state: 'offline', message: expect.stringContaining('No answer') });
    t.record(sample(200, clock.now()));
    expect(t.current().state).toBe('connected');
    t.record(sample(0, clock.now()));
    expect(t.current().state).toBe('degraded');
    t.record(sample(0, clock.now()));
    expect(t.current().state).toBe('offline');
    t.record({ ...sample(200, clock.now()), vendor: 'acme' });
    expect(t.current().state).toBe('offline');
    t.record(sample(503, clock.now()));
    expect(t.current()).toMatchObject({ state: 'degraded', message: expect.stringContaining('503') });
    t.setTarget(null);
    expect(t.current()).toMatchObject({ state: 'offline', profileId: null, demo: false });
    t.dispose();
  });
});

describe('ConnectionTracker causes', () => {
  const target = { profileId: 'demo', vendor: 'demo', baseUrl: 'http://127.0.0.1:1', demo: true };

  it('names why it is degraded, so that 429s alone (a shared budget) can be told from a fault', () => {
    const clock = fakeClock();
    const seen: ConnectionView[] = [];
    const t = new ConnectionTracker({ clock, onChange: (v) => seen.push(v), windowMs: 10_000 });
    t.setTarget(target);
    t.record(sample(200, clock.now()));
    expect(t.current()).toMatchObject({ state: 'connected', causes: [] });
    t.record(sample(429, clock.now()));
    expect(t.current()).toMatchObject({ state: 'degraded', causes: ['rate-limited'] });
    clock.advance(4_000);
    t.record(sample(503, clock.now()));
    expect(t.current()).toMatchObject({ state: 'degraded', causes: ['rate-limited', 'server-error'], message: expect.stringContaining('503') });
    // A later 429 does not hide the 5xx that is still recent.
    t.record(sample(429, clock.now()));
    expect(t.current().causes).toEqual(['rate-limited', 'server-error']);
    clock.advance(10_001);
    expect(t.current()).toMatchObject({ state: 'connected', causes: [] });
    t.record(sample(503, clock.now()));
    clock.advance(9_000);
    t.record(sample(429, clock.now()));
    clock.advance(1_001); // the 5xx leaves the window, the 429 stays
    expect(t.current()).toMatchObject({ state: 'degraded', causes: ['rate-limited'] });
    t.record(sample(401, clock.now()));
    expect(t.current()).toMatchObject({ state: 'degraded', causes: ['unauthorized', 'rate-limited'] });
    for (const v of seen) expect(connectionSchema.safeParse(v).success).toBe(true);
    t.dispose();
  });
});

describe('DemoTraffic', () => {
  /** A client that answers after `latencyMs` on the fake clock, and counts requests per endpoint. */
  function fakeClient(clock: ReturnType<typeof fakeClock>, latencyMs: number) {
    const counts = new Map<EndpointId, number>();
    let inFlight = 0;
    let maxInFlight = 0;
    const client = {
      request(endpoint: EndpointId, options?: { signal?: AbortSignal }) {
        counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
          const handle = clock.setTimeout(() => {
            inFlight -= 1;
            resolve({ status: 200, body: endpoint === 'registerPurchase' ? { id: `p_${Math.random()}` } : { items: [{ id: 1001 }, { id: 1005 }] } });
          }, latencyMs);
          options?.signal?.addEventListener('abort', () => {
            clock.clearTimeout(handle);
            inFlight -= 1;
            reject(new Error('aborted'));
          });
        });
      },
    };
    return { client, counts, maxInFlight: () => maxInFlight, inFlight: () => inFlight };
  }
  const flush = () => new Promise((r) => setImmediate(r));

  it('asks for share x limit per second on each chosen endpoint, and stops cleanly', async () => {
    const clock = fakeClock();
    const fake = fakeClient(clock, 5);
    const traffic = new DemoTraffic({ client: fake.client, clock, random: () => 0.5 });
    traffic.setPlan({ share: 0.5, endpoints: ['categories', 'searchAssets', 'categories'] });
    expect(traffic.plan()).toEqual({ share: 0.5, endpoints: ['categories', 'searchAssets'] });
    for (let i = 0; i < 200; i++) {
      clock.advance(10);
      await flush();
    }
    // 2 seconds at 0.5 x 20/s = 20 each (one tick of rounding either way).
    expect(fake.counts.get('categories')).toBeGreaterThanOrEqual(19);
    expect(fake.counts.get('categories')).toBeLessThanOrEqual(21);
    expect(fake.counts.get('searchAssets')).toBeGreaterThanOrEqual(19);
    expect(fake.counts.get('listAssets')).toBeUndefined();
    traffic.setPlan({ share: 0, endpoints: ['categories'] });
    expect(traffic.plan()).toEqual({ share: 0, endpoints: [] });
    expect(clock.pending()).toBe(0);
  });

  it('never lets more than a second of requests wait when the client is slower than asked', async () => {
    const clock = fakeClock();
    const fake = fakeClient(clock, 5_000); // answers take 5 s: the queue fills
    const traffic = new DemoTraffic({ client: fake.client, clock });
    traffic.setPlan({ share: 2, endpoints: ['listAssets'] });
    for (let i = 0; i < 300; i++) {
      clock.advance(10);
      await flush();
    }
    expect(fake.maxInFlight()).toBeLessThanOrEqual(20);
    traffic.stop();
    await flush();
    expect(fake.inFlight()).toBe(0); // stop aborts what was in flight
    expect(clock.pending()).toBe(0);
  });

  it('registers a few purchases to act on and reuses them', async () => {
    const clock = fakeClock();
    const fake = fakeClient(clock, 2);
    const traffic = new DemoTraffic({ client: fake.client, clock });
    traffic.setPlan({ share: 0.2, endpoints: ['purchaseInfo', 'viewUrl'] });
    for (let i = 0; i < 300; i++) {
      clock.advance(10);
      await flush();
    }
    traffic.stop();
    expect(fake.counts.get('purchaseInfo')).toBeGreaterThanOrEqual(25);
    expect(fake.counts.get('registerPurchase')).toBeGreaterThanOrEqual(1);
    expect(fake.counts.get('registerPurchase')).toBeLessThanOrEqual(6);
    expect(fake.counts.get('listAssets')).toBe(1);
  });

  it("acts on purchases in a state that allows the action (the simulator's state machine), with a few conflicts kept", async () => {
    const clock = fakeClock();
    const allowed: Record<string, string[]> = {
      validatePurchase: ['registered'],
      cancelPurchase: ['registered', 'validated'],
      downloadUrl: ['validated'],
      viewUrl: ['registered', 'validated'],
    };
    const states = new Map<string, string>();
    const tally = { answers: 0, conflicts: 0 };
    const client = {
      async request(endpoint: EndpointId, options?: { query?: Record<string, unknown>; body?: unknown }) {
        await new Promise<void>((r) => clock.setTimeout(r, 3));
        tally.answers += 1;
        if (endpoint === 'listAssets') return { status: 200, body: { items: [{ id: 1001 }, { id: 1005 }] } };
        if (endpoint === 'registerPurchase') {
          const id = `p_${states.size + 1}`;
          states.set(id, 'registered');
          return { status: 200, body: { id, asset_id: 1001, state: 'registered' } };
        }
        const id = String(options?.query?.purchase_id ?? (options?.body as { purchase_id?: string } | undefined)?.purchase_id);
        const state = states.get(id);
        const ok = endpoint === 'purchaseInfo' ? state !== undefined : state !== undefined && allowed[endpoint]!.includes(state);
        if (!ok) {
          tally.conflicts += 1;
          throw new Error(`409 ${endpoint} on ${id} (${state})`);
        }
        if (endpoint === 'validatePurchase') states.set(id, 'validated');
        if (endpoint === 'cancelPurchase') states.set(id, 'cancelled');
        return { status: 200, body: { id, state: states.get(id) } };
      },
    };
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const traffic = new DemoTraffic({ client, clock, random });
    traffic.setPlan({ share: 0.2, endpoints: ['purchaseInfo', 'registerPurchase', 'validatePurchase', 'downloadUrl', 'viewUrl', 'cancelPurchase'] });
    for (let i = 0; i < 500; i++) {
      clock.advance(10);
      await flush();
    }
    traffic.stop();
    expect(tally.answers).toBeGreaterThan(250);
    expect(tally.conflicts / tally.answers).toBeLessThan(0.06);
    expect(tally.conflicts).toBeGreaterThan(0); // the few conflicts of real traffic
  });
});
