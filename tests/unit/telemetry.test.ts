import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock';
import type { BudgetSample } from '../../shared/rate-limit';
import { budgetAggregateSchema, logDetailSchema, logEntrySchema } from '../../shared/bridge/schemas';
import { createTelemetry } from '../../electron/telemetry';
import type { BudgetEventPayload, RequestLogEventPayload } from '../../electron/telemetry';
import { RingBuffer } from '../../shared/ring-buffer';
import { BudgetHistory } from '../../electron/telemetry/budget-history';
import { maskToken, redactText } from '../../electron/profiles/mask-token';
import { HeldTime } from '../../electron/telemetry/held-time';

/** A fake clock whose timers run only when the test advances time. */
function fakeClock(start = 1_700_000_000_000): Clock & { advance(ms: number): void; pending(): number } {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const runDue = () => {
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
      if (!due) return;
      timers.delete(due[0]);
      due[1].fn();
    }
  };
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return id;
    },
    clearTimeout(handle) {
      timers.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      while (now < end) {
        now += 1;
        runDue();
      }
    },
    pending: () => timers.size,
  };
}

function sample(partial: Partial<BudgetSample> & { at: number }): BudgetSample {
  return {
    vendor: 'demo',
    endpoint: 'listAssets',
    status: 200,
    limit: 20,
    remaining: 19,
    reset: 0,
    latencyMs: 5,
    waitedMs: 0,
    attempt: 1,
    headerProblems: [],
    ...partial,
  };
}

describe('RingBuffer', () => {
  it('keeps at most its capacity, oldest first, and counts what it let go', () => {
    const ring = new RingBuffer<number>(3);
    for (let i = 1; i <= 7; i++) ring.push(i);
    expect(ring.size).toBe(3);
    expect(ring.toArray()).toEqual([5, 6, 7]);
    expect(ring.evicted).toBe(4);
    expect(ring.last()).toBe(7);
    expect(ring.at(0)).toBe(5);
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});

describe('telemetry batching', () => {
  it('emits at most ~20 budget and requestLog events per second whatever the rate, and the aggregates sum exactly', () => {
    const clock = fakeClock();
    const t = createTelemetry({ clock, batchIntervalMs: 50 });
    const budget: { at: number; p: BudgetEventPayload }[] = [];
    const logs: { at: number; p: RequestLogEventPayload }[] = [];
    t.onBudget((p) => budget.push({ at: clock.now(), p }));
    t.onRequestLog((p) => logs.push({ at: clock.now(), p }));
    const endpoints = ['listAssets', 'searchAssets', 'purchaseInfo'] as const;
    let sent = 0;
    let waited = 0;
    let latency = 0;
    // 3 seconds at 5 samples per millisecond (5000 per second) over 3 endpoints and 2 vendors.
    for (let ms = 0; ms < 3000; ms++) {
      for (let k = 0; k < 5; k++) {
        const s = sample({
          at: clock.now(),
          vendor: k % 2 ? 'demo' : 'acme',
          endpoint: endpoints[(ms + k) % 3]!,
          status: k === 4 ? 429 : 200,
          waitedMs: k,
          latencyMs: 10 + k,
          remaining: k === 4 ? 0 : 10,
        });
        t.record(s);
        sent += 1;
        waited += s.waitedMs;
        latency += s.latencyMs;
      }
      clock.advance(1);
    }
    clock.advance(100);
    for (const stream of [budget.map((b) => b.at), logs.map((l) => l.at)]) {
      // No 1-second window holds more than 21 events (20 per second, both ends of the window counted).
      for (const start of stream) expect(stream.filter((at) => at >= start && at <= start + 1000).length).toBeLessThanOrEqual(21);
      expect(stream.length).toBeGreaterThanOrEqual(50);
    }
    const aggregates = budget.flatMap((b) => b.p.aggregates);
    for (const a of aggregates) expect(budgetAggregateSchema.safeParse(a).success).toBe(true);
    expect(aggregates.reduce((n, a) => n + a.requests, 0)).toBe(sent);
    expect(aggregates.reduce((n, a) => n + a.rateLimited, 0)).toBe(sent / 5);
    expect(aggregates.reduce((n, a) => n + a.waitedMs, 0)).toBe(waited);
    expect(aggregates.reduce((n, a) => n + a.latencyMsSum, 0)).toBe(latency);
    expect(Math.max(...aggregates.map((a) => a.latencyMsMax))).toBe(14);
    // One aggregate per (vendor, endpoint, second) per event, numbered 1, 2, ...
    budget.forEach((b, i) => expect(b.p.seq).toBe(i + 1));
    for (const b of budget) {
      const keys = b.p.aggregates.map((a) => `${a.vendor}/${a.endpoint}/${a.from}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
    // The log stream carries every entry the bounded log still had, and says how many it let go.
    const entries = logs.flatMap((l) => l.p.entries);
    const lastDropped = logs.at(-1)!.p.dropped;
    expect(lastDropped).toBe(sent - 5000);
    expect(entries.length + lastDropped).toBeGreaterThanOrEqual(sent);
    for (const e of entries.slice(0, 5)) expect(logEntrySchema.safeParse(e).success).toBe(true);
    t.dispose();
    expect(clock.pending()).toBe(0);
  });

  it('sends a change after a quiet period on the next tick, and nothing when nothing happened', () => {
    const clock = fakeClock();
    const t = createTelemetry({ clock });
    let events = 0;
    t.onBudget(() => (events += 1));
    clock.advance(500);
    expect(events).toBe(0);
    t.record(sample({ at: clock.now() }));
    clock.advance(1);
    expect(events).toBe(1);
    t.dispose();
  });
});

describe('budget history', () => {
  it('keeps one aggregate per second per bucket, bounded to the configured seconds', () => {
    const history = new BudgetHistory({ seconds: 10, rawSamples: 7 });
    const start = 1_700_000_000_000;
    for (let i = 0; i < 100; i++) {
      history.add(sample({ at: start + i * 500 }), { foreignUse: 0, heldMs: 0 });
      history.add(sample({ at: start + i * 500, endpoint: 'categories' }), { foreignUse: i === 99 ? 2 : 0, heldMs: 0 });
    }
    const all = history.since(0, start + 50_000);
    expect(all.filter((a) => a.endpoint === 'listAssets')).toHaveLength(10);
    expect(all.filter((a) => a.endpoint === 'categories')).toHaveLength(10);
    for (const a of all) expect(a.requests).toBe(2);
    expect(all.find((a) => a.endpoint === 'categories' && a.foreignUse === 2)).toBeDefined();
    expect(history.recentSamples()).toHaveLength(7);
    // sinceMs filters by the end of the second.
    expect(history.since(start + 48_000, start + 50_000).filter((a) => a.endpoint === 'listAssets')).toHaveLength(2);
  });

  it('answers budgetHistory through the telemetry facade', () => {
    const clock = fakeClock();
    const t = createTelemetry({ clock });
    t.record(sample({ at: clock.now() - 5000 }));
    t.record(sample({ at: clock.now() }));
    expect(t.budgetHistory(0).aggregates).toHaveLength(2);
    expect(t.budgetHistory(clock.now() - 1000).aggregates).toHaveLength(1);
    t.dispose();
  });
});

describe('foreign-use detection', () => {
  const run = (samples: BudgetSample[], inFlight?: () => number) => {
    const clock = fakeClock();
    const t = createTelemetry({ clock, ...(inFlight ? { inFlight } : {}) });
    for (const s of samples) t.record(s);
    const total = t.budgetHistory(0).aggregates.reduce((n, a) => n + a.foreignUse, 0);
    t.dispose();
    return total;
  };
  const t0 = 1_700_000_000_000;

  it('finds no foreign use in our own sequential traffic, across refills and 429s', () => {
    const samples: BudgetSample[] = [];
    // Whole-second model: 25 requests per second against a limit of 20, for 3 seconds.
    for (let sec = 0; sec < 3; sec++) {
      for (let i = 0; i < 25; i++) {
        const at = t0 + sec * 1000 + i * 30 + 10;
        const used = i + 1;
        samples.push(sample({ at, latencyMs: 5, status: used > 20 ? 429 : 200, remaining: Math.max(0, 20 - used), reset: used >= 20 ? 1 : 0 }));
      }
    }
    expect(run(samples)).toBe(0);
  });

  it('finds no foreign use when our concurrent answers overtake each other', () => {
    // Five requests sent together; the server counted them in order 1..5 but they came back 5,3,1,4,2.
    const order = [5, 3, 1, 4, 2];
    const samples = order.map((k, i) => sample({ at: t0 + 20 + i, latencyMs: 20 + i, remaining: 20 - k }));
    expect(run(samples)).toBe(0);
  });

  it('counts requests still in flight as ours', () => {
    // Two answers 10 ms apart, Remaining fell by 4: three more of ours are in flight.
    const samples = [sample({ at: t0 + 10, remaining: 15 }), sample({ at: t0 + 20, latencyMs: 5, remaining: 11 })];
    expect(run(samples, () => 3)).toBe(0);
    expect(run(samples)).toBe(3);
  });

  it('reports slots that Remaining fell by beyond our own requests', () => {
    // Sequential, 50 ms apart in one second; another consumer takes 2 slots before each of our requests after the first.
    const samples = [0, 1, 2, 3].map((i) => sample({ at: t0 + 10 + i * 50, latencyMs: 5, remaining: 19 - i - 2 * i }));
    expect(run(samples)).toBe(6);
    // A 429 that our own count cannot explain: Remaining 10 then refused within the same second.
    expect(run([sample({ at: t0 + 10, remaining: 10 }), sample({ at: t0 + 60, latencyMs: 5, status: 429, remaining: 0 })])).toBe(10);
  });

  it('still detects right after a whole second has refilled the budget', () => {
    // Remaining 0, then more than a second later Remaining 9: the budget was full (20), we took 1: 10 foreign.
    expect(run([sample({ at: t0 + 10, remaining: 0 }), sample({ at: t0 + 1500, latencyMs: 5, remaining: 9 })])).toBe(10);
    // Without a full second in between a refill cannot be ruled out, so nothing is claimed.
    expect(run([sample({ at: t0 + 10, remaining: 0 }), sample({ at: t0 + 900, latencyMs: 5, remaining: 9 })])).toBe(0);
  });

  it('uses the continuous refill only when the model is known to be continuous', () => {
    const samples = [sample({ at: t0 + 10, remaining: 5 }), sample({ at: t0 + 515, latencyMs: 5, remaining: 3 })];
    const clock = fakeClock();
    const continuous = createTelemetry({ clock, refillModel: () => 'continuous' });
    for (const s of samples) continuous.record(s);
    // 500 ms at 20/s refills 10: from about 5.5 to 15.5, we took 1, about 3.5 left: about 11, less the readings' error (about 1).
    expect(continuous.budgetHistory(0).aggregates.reduce((n, a) => n + a.foreignUse, 0)).toBeCloseTo(10, 0);
    continuous.dispose();
    expect(run(samples)).toBe(1);
  });

  it('ignores responses with unreadable headers and answers that never came (as anchors), but counts them as ours', () => {
    const samples = [
      sample({ at: t0 + 10, remaining: 15 }),
      sample({ at: t0 + 20, latencyMs: 5, remaining: 3, headerProblems: ['X-Rate-Limit-Remaining garbled'] }),
      sample({ at: t0 + 30, latencyMs: 5, status: 0, remaining: null, limit: null }),
      sample({ at: t0 + 40, latencyMs: 5, remaining: 12 }),
    ];
    expect(run(samples)).toBe(0);
  });
});

describe('request log', () => {
  it('is bounded, says how many it let go, and filters', () => {
    const clock = fakeClock();
    const t = createTelemetry({ clock, log: { capacity: 100, detailCapacity: 10 } });
    for (let i = 0; i < 250; i++) t.record(sample({ at: clock.now() + i, endpoint: i % 2 ? 'categories' : 'listAssets', status: i % 5 === 0 ? 429 : 200 }));
    const all = t.requestLog({ endpoint: null, status: null, limit: 5000 });
    expect(all.entries).toHaveLength(100);
    expect(all.dropped).toBe(150);
    expect(all.entries[0]!.id).toBe(151);
    expect(all.entries.at(-1)!.id).toBe(250);
    const limited = t.requestLog({ endpoint: 'listAssets', status: 429, limit: 3 });
    expect(limited.entries.map((e) => e.id)).toEqual([221, 231, 241]); // i = 220, 230, 240
    for (const e of limited.entries) expect(e).toMatchObject({ endpoint: 'listAssets', status: 429, errorCode: 'RATE_LIMITED' });
    // Details are kept for the newest entries only; older ones still answer, without headers.
    const old = t.requestDetail(151)!;
    expect(logDetailSchema.safeParse(old).success).toBe(true);
    expect(old.requestHeaders).toEqual({});
    expect(t.requestDetail(3)).toBeNull();
    t.dispose();
  });
});

describe('token masking', () => {
  it('shows at most the first 4 and last 2 characters, less of short tokens', () => {
    expect(maskToken('demo-token-1')).toBe('demo…-1');
    expect(maskToken('abcdef')).toBe('ab…f');
    expect(maskToken('abc')).toBe('a…');
    expect(maskToken('')).toBe('…');
    expect(redactText('a demo-token-1 b demo-token-12', ['demo-token-1', 'demo-token-12'])).toBe('a demo…-1 b demo…12');
  });

  it('masks tokens in recorded headers, query values and bodies, and joins exchanges to samples', async () => {
    const clock = fakeClock();
    const token = 'secret-token-xyz';
    const t = createTelemetry({ clock, maskContext: () => ({ tokens: [token], tokenHeaders: new Set(['x-partner-key']) }) });
    const big = JSON.stringify({ items: Array.from({ length: 500 }, (_, i) => ({ id: i, title: `asset ${i}` })), echo: token });
    const inner = (async (input: string | URL | Request) =>
      new Response(String(input).includes('categories') ? `{"echo":"${token}"}` : big, {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-rate-limit-limit': '20', 'x-rate-limit-remaining': '17', 'x-rate-limit-reset': '0' },
      })) as typeof fetch;
    const recording = t.wrapFetch(inner);
    const response = await recording(`http://127.0.0.1:1/api/assets/list?per-page=100&key=${token}`, {
      method: 'GET',
      headers: { Authorization: `Bearer ${token}`, 'X-Partner-Key': token, Accept: 'application/json' },
    });
    // The caller's body is intact whatever the recorder read.
    expect(await response.text()).toBe(big);
    await new Promise((r) => setTimeout(r, 10));
    t.record(sample({ at: clock.now(), endpoint: 'listAssets', remaining: 17 }));
    const [entry] = t.requestLog({ endpoint: null, status: null, limit: 10 }).entries;
    expect(entry!.path).toBe('/api/assets/list?per-page=100&key=secr…yz');
    const detail = t.requestDetail(entry!.id)!;
    expect(detail.requestHeaders.authorization).toBe('Bearer secr…yz');
    expect(detail.requestHeaders['x-partner-key']).toBe('secr…yz');
    expect(detail.requestHeaders.accept).toBe('application/json');
    expect(detail.responseHeaders['x-rate-limit-remaining']).toBe('17');
    expect(detail.responseBody!.length).toBeLessThan(4200);
    expect(detail.responseBody).toContain('cut at 4096');
    expect(JSON.stringify(detail)).not.toContain(token);
    expect(JSON.stringify(t.requestLog({ endpoint: null, status: null, limit: 10 }))).not.toContain(token);
    t.dispose();
  });

  it('records failures with no response as status 0', async () => {
    const clock = fakeClock();
    const t = createTelemetry({ clock });
    const failing = t.wrapFetch((async () => {
      throw new TypeError('fetch failed');
    }) as typeof fetch);
    await expect(failing('http://127.0.0.1:1/assets/categories')).rejects.toThrow('fetch failed');
    t.record(sample({ at: clock.now(), endpoint: 'categories', status: 0, limit: null, remaining: null, reset: null }));
    const [entry] = t.requestLog({ endpoint: null, status: null, limit: 10 }).entries;
    expect(entry).toMatchObject({ status: 0, errorCode: 'NETWORK', path: '/assets/categories', method: 'GET' });
    expect(t.requestDetail(entry!.id)!.headerProblems.join(' ')).toContain('fetch failed');
    t.dispose();
  });
});

describe('exchange matching', () => {
  it('joins each sample to its own exchange when answers overtake each other', async () => {
    const { ExchangeMatcher, endpointOfExchange } = await import('../../electron/telemetry/exchange-matcher');
    expect(endpointOfExchange('GET', 'https://x.example/api/v2/assets/list?per-page=5')).toBe('listAssets');
    expect(endpointOfExchange('POST', 'https://x.example/assets/list')).toBeNull();
    expect(endpointOfExchange('DELETE', 'http://h/purchase/cancel?purchase_id=p')).toBe('cancelPurchase');
    const m = new ExchangeMatcher();
    const ex = (remaining: string, status = 200) => ({
      method: 'GET',
      url: 'http://h/assets/categories',
      requestHeaders: {},
      requestBody: null,
      status,
      responseHeaders: { 'x-rate-limit-remaining': remaining },
      responseBody: { text: remaining },
      error: null,
      startedAt: 0,
      endedAt: 1,
    });
    m.add(ex('9'));
    m.add(ex('8'));
    m.add(ex('0', 429));
    // The client reports them in another order.
    expect(m.take(sample({ at: 2, endpoint: 'categories', status: 429, remaining: 0 }))?.responseBody.text).toBe('0');
    expect(m.take(sample({ at: 2, endpoint: 'categories', remaining: 8 }))?.responseBody.text).toBe('8');
    expect(m.take(sample({ at: 2, endpoint: 'categories', remaining: 9 }))?.responseBody.text).toBe('9');
    // Nothing left: no detail rather than another request's.
    expect(m.take(sample({ at: 2, endpoint: 'categories' }))).toBeNull();
    m.add(ex('5', 500));
    expect(m.take(sample({ at: 2, endpoint: 'categories', status: 200 }))).toBeNull();
  });
});

describe('HeldTime with several vendors connected', () => {
  it('forgets one vendor on clear(vendor): another connected vendor keeps its covered waits', () => {
    const held = new HeldTime();
    // Both vendors: a request sent at 1000 after waiting 500 ms.
    for (const vendor of ['demo', 'acme']) expect(held.observe(sample({ vendor, at: 1005, latencyMs: 5, waitedMs: 500 }))).toBe(500);
    held.clear('demo'); // demo's profile reopened against another server
    // The same wait again: new for demo, already counted for acme.
    expect(held.observe(sample({ vendor: 'demo', at: 1005, latencyMs: 5, waitedMs: 500 }))).toBe(500);
    expect(held.observe(sample({ vendor: 'acme', at: 1005, latencyMs: 5, waitedMs: 500 }))).toBe(0);
  });
});
