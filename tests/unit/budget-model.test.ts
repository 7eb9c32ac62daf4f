import { describe, expect, it } from 'vitest';
import type { RateLimitHeaders } from '../../shared/rate-limit';
import type { PartnerError } from '../../shared/errors';
import { HeaderModel } from '../../electron/client/header-model';
import type { Ticket } from '../../electron/client/header-model';
import { RecentSends } from '../../electron/client/recent-sends';
import { RefillBound } from '../../electron/client/refill-bound';
import { ServerClock } from '../../electron/client/server-clock';
import { seededRandom } from '../../electron/client/testing/harness';
import { ManualClock, answerAttempt } from '../../electron/client/testing';
import { SlotPacer } from '../../electron/client/slot-pacer';
import { BudgetBucket } from '../../electron/client/budget-bucket';
import type { FleetSlotStore } from '../../electron/client/fleet-slot-store';

const rate = (remaining: number | null, limit: number | null = 20, reset: number | null = 0): RateLimitHeaders => ({ limit, remaining, reset, problems: [] });

describe('RefillBound (continuous model, lower bound)', () => {
  it('never promises more than a true leaky bucket holds, whatever the order of consumption and answers', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = seededRandom(seed);
      const N = 1 + Math.floor(random() * 50);
      const bound = new RefillBound(N, 0);
      let allowance = N; // the server's, in slots
      let at = 0;
      const pending: { id: number; consumed: boolean }[] = [];
      let id = 0;
      for (let step = 0; step < 2_000; step++) {
        const dt = random() * (200 / N);
        allowance = Math.min(N, allowance + (N * dt) / 1000);
        at += dt;
        const roll = random();
        if (roll < 0.4 && bound.value(at, N) >= 1 - 1e-9) {
          bound.add(++id);
          pending.push({ id, consumed: false });
        } else if (roll < 0.7) {
          const p = pending.find((x) => !x.consumed && random() < 0.5);
          if (p) {
            expect(allowance, `seed ${seed}: a request was let go that the server refuses`).toBeGreaterThanOrEqual(1 - 1e-9);
            allowance -= 1;
            p.consumed = true;
          }
        } else {
          const i = pending.findIndex((x) => x.consumed);
          if (i >= 0) bound.settle(pending.splice(i, 1)[0]!.id, at, N);
        }
        const unconsumed = pending.filter((x) => !x.consumed).length;
        expect(bound.value(at, N)).toBeLessThanOrEqual(allowance - unconsumed + 1e-9);
      }
    }
  });

  it('earliest() is when the value reaches the need, and Infinity when only answers can help', () => {
    const b = new RefillBound(0, 1_000);
    expect(b.earliest(1, 1_000, 20)).toBe(1_050);
    expect(b.value(1_050, 20)).toBeCloseTo(1);
    for (let i = 0; i < 20; i++) b.add(i);
    expect(b.earliest(1, 5_000, 20)).toBe(Infinity);
    b.refund(0);
    expect(b.earliest(1, 5_000, 20)).toBe(5_000);
  });
});

describe('RecentSends (whole-second model, own requests)', () => {
  it('keeps at most N of our requests in any server second, whatever its alignment and the latencies', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const N = 1 + Math.floor(random() * 30);
      const offset = random() * 1000; // where the server's seconds fall
      const recent = new RecentSends();
      let at = 0;
      const inFlight: { id: number; processedAt: number | null }[] = [];
      const processed: number[] = [];
      let id = 0;
      for (let step = 0; step < 4_000; step++) {
        at += random() * 8;
        if (random() < 0.5 && recent.room(at, N) >= 1) {
          recent.add(++id);
          inFlight.push({ id, processedAt: null });
        }
        for (const r of inFlight) if (r.processedAt === null && random() < 0.3) r.processedAt = at;
        const done = inFlight.filter((r) => r.processedAt !== null && random() < 0.3);
        for (const r of done) {
          recent.settle(r.id, at);
          processed.push(r.processedAt!);
          inFlight.splice(inFlight.indexOf(r), 1);
        }
      }
      const perSecond = new Map<number, number>();
      for (const p of processed) {
        const s = Math.floor((p + offset) / 1000);
        perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
      }
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(N);
    }
  });

  it("with Date, frees room as soon as the answer's server second surely ended", () => {
    const r = new RecentSends((second) => second + 1_000 + 20); // server clock = local clock, 20 ms guard
    r.add(1);
    r.settle(1, 10_900, 10_000); // answered at 10.900 s, processed in server second 10
    expect(r.room(11_019, 1)).toBe(0);
    expect(r.room(11_020, 1)).toBe(1);
    r.add(2);
    r.settle(2, 11_030, null); // no Date: a whole second after the answer
    expect(r.earliest(1, 11_031, 1)).toBe(12_032);
  });

  it('frees room one second (plus slack) after an answer, Infinity while all are in flight', () => {
    const r = new RecentSends();
    r.add(1);
    r.add(2);
    expect(r.earliest(1, 0, 2)).toBe(Infinity);
    r.settle(1, 10);
    expect(r.earliest(1, 10, 2)).toBe(1_012);
    expect(r.room(1_011, 2)).toBe(0);
    expect(r.room(1_012, 2)).toBe(1);
  });
});

describe('ServerClock (where the server seconds fall)', () => {
  it('never puts a server second earlier than it is, and learns it to within tens of ms', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const random = seededRandom(seed);
      const d = (random() - 0.5) * 10_000; // server - local
      const clock = new ServerClock();
      let at = 1_700_000_000_000;
      for (let i = 0; i < 200; i++) {
        at += random() * 60;
        const up = random() * 5;
        const down = random() * 5;
        const serverAt = at + up + d;
        clock.observe(at, at + up + down, Math.floor(serverAt / 1000) * 1000);
        expect(clock.offsetLow(at + up + down)!).toBeLessThanOrEqual(d + 1e-6);
      }
      expect(d - clock.offsetLow(at)!).toBeLessThan(30);
      // "The server surely reached second S" is never before it truly does.
      const s = Math.ceil((at + d) / 1000) * 1000;
      expect(clock.surelyReached(s, at)! + d).toBeGreaterThanOrEqual(s);
    }
  });

  it('starts over when the server clock steps (a contradicting Date)', () => {
    const clock = new ServerClock();
    clock.observe(10_000, 10_002, 10_000);
    expect(clock.offsetLow(10_002)).toBeCloseTo(-2);
    clock.observe(20_000, 20_002, 15_000); // server stepped back by 5 s
    expect(clock.offsetLow(20_002)!).toBeLessThanOrEqual(-5_000 + 1);
  });
});

describe('HeaderModel', () => {
  const second = 1_736_000_000_000; // a whole second, epoch ms
  function model(limit = 20): { m: HeaderModel; clock: ServerClock } {
    const clock = new ServerClock();
    return { m: new HeaderModel({ limit, now: second, serverClock: clock, guardMs: 20 }), clock };
  }

  it('lets N go at once, then waits for answers (requests in flight count as spent)', () => {
    const { m } = model(20);
    const tickets = Array.from({ length: 20 }, () => {
      expect(m.earliest(second)).toBe(second);
      return m.send(second);
    });
    expect(tickets).toHaveLength(20);
    expect(m.earliest(second)).toBe(Infinity);
    expect(m.available(second)).toBe(0);
    expect(m.inFlightCount).toBe(20);
  });

  it('whole-second: Remaining 0 within a server second waits until that second surely ended', () => {
    const { m } = model(20);
    let t = second + 100;
    for (let i = 19; i >= 0; i--) {
      const ticket = m.send(t);
      t += 2;
      m.answered(ticket, { receivedAt: t, status: 200, rate: rate(i), dateMs: second });
    }
    const next = m.earliest(t);
    expect(next).toBeGreaterThanOrEqual(second + 1_000 + 20);
    expect(next).toBeLessThan(second + 1_000 + 200);
  });

  it('after a used-up second, the first request is a probe; its Remaining re-bases the rest', () => {
    const { m } = model(20);
    // Two answers either side of a boundary teach the model where the server's seconds fall.
    const before = m.send(second - 4);
    m.answered(before, { receivedAt: second - 2, status: 200, rate: rate(19), dateMs: second - 1_000 });
    const after = m.send(second + 1);
    m.answered(after, { receivedAt: second + 3, status: 200, rate: rate(19), dateMs: second });
    let t = second + 100;
    for (let i = 18; i >= 0; i--) {
      const ticket = m.send(t);
      t += i >= 10 ? 2 : 80; // half early in the second, half spread over it
      m.answered(ticket, { receivedAt: t, status: 200, rate: rate(i), dateMs: second });
    }
    const at = m.earliest(t);
    expect(at).toBeGreaterThanOrEqual(second + 1_000 + 20);
    expect(at).toBeLessThan(second + 1_100);
    // Whole-second would allow 20 now, continuous only the refill since the last answer (~2.1).
    expect(m.available(at)).toBe(2);
    const probe = m.send(at);
    m.answered(probe, { receivedAt: at + 2, status: 200, rate: rate(19), dateMs: second + 1_000 });
    // The probe's Remaining re-bases the server bounds; the last second's requests no longer count
    // (their Date says that second is over), so the rest may go at once.
    expect(m.available(at + 2)).toBeGreaterThanOrEqual(18);
  });

  it('follows the headers when Remaining falls faster than our own requests explain', () => {
    const { m } = model(20);
    let t = second + 100;
    const a = m.send(t);
    m.answered(a, { receivedAt: (t += 2), status: 200, rate: rate(15), dateMs: second });
    expect(m.margin(t)).toBe(0);
    const b = m.send(t);
    m.answered(b, { receivedAt: (t += 2), status: 200, rate: rate(10), dateMs: second }); // 4 others took slots
    expect(m.margin(t)).toBe(1);
    expect(m.available(t)).toBe(9); // 10 left, one held back
  });

  it('never goes past the documented limit on its own count, whatever Remaining says', () => {
    const { m } = model(20);
    const t = second;
    let sent = 0;
    while (m.earliest(t) === t) {
      const ticket = m.send(t);
      sent++;
      m.answered(ticket, { receivedAt: t, status: 200, rate: rate(19, 1_000), dateMs: null });
    }
    expect(sent).toBe(20);
  });

  it('adopts a lower Limit only when two answers in a row agree, and never a higher one', () => {
    const { m } = model(20);
    const answer = (limit: number | null): void => m.answered(m.send(second), { receivedAt: second, status: 200, rate: rate(5, limit), dateMs: null });
    answer(8);
    expect(m.limit).toBe(20);
    answer(8);
    expect(m.limit).toBe(8);
    answer(50);
    expect(m.limit).toBe(20);
  });

  it('gives the slot back when nothing reached the server; keeps an abandoned one counted for a while', () => {
    const { m } = model(2);
    m.failed(m.send(second), second, 'no');
    expect(m.available(second)).toBe(2);
    m.failed(m.send(second), second, 'maybe-later');
    m.send(second);
    expect(m.earliest(second)).toBe(second + 1_000); // when the abandoned one is taken as consumed
  });

  it('counts 429s in a row and forgets them on any other answer', () => {
    const { m } = model(20);
    m.answered(m.send(second), { receivedAt: second, status: 429, rate: rate(0, 20, 1), dateMs: second });
    m.answered(m.send(second), { receivedAt: second, status: 429, rate: rate(0, 20, 1), dateMs: second });
    expect(m.rateLimitStreak).toBe(2);
    m.answered(m.send(second + 2_000), { receivedAt: second + 2_000, status: 200, rate: rate(19), dateMs: second + 2_000 });
    expect(m.rateLimitStreak).toBe(0);
  });
});

describe('SlotPacer', () => {
  const second = 1_736_000_000_000;
  /** An answer of `status` to a request sent on ticket `id`. */
  const answer = (id: number, status: number) =>
    answerAttempt({ ticket: { id, seq: id, sentAt: second }, at: second, status, rate: rate(status === 429 ? 0 : 3, 20, 1), dateMs: second });

  it("a 429 on a budget store's slot is told to the store once; one on headers alone is not the store's", async () => {
    const told: boolean[] = [];
    const store = { reserve: async (_key: string, _limit: number, refused = false) => (told.push(refused), { waitMs: 0, graceMs: 20 }) } as FleetSlotStore;
    const p = new SlotPacer('key', 'listAssets', () => 20, new ManualClock(second));
    const request = { priority: 'interactive' as const, owner: {}, slots: { store: () => store, sleep: async () => {}, closed: () => false } };
    p.settle(answer(1, 429));
    expect(p.coordination).toBe('headers');
    await p.reserve(request);
    expect(told.pop()).toBe(false);
    expect(p.coordination).toBe('store');
    p.settle(answer(2, 200));
    await p.reserve(request);
    expect(told.pop()).toBe(false);
    p.settle(answer(3, 429));
    p.settle(answer(4, 429));
    await p.reserve(request);
    expect(told.pop()).toBe(true);
    await p.reserve(request);
    expect(told.pop()).toBe(false);
  });

  it('tells the store its own pace, and leaves the fair share its deferral where the store ran under the limit (others outside it)', async () => {
    const paces: (number | undefined)[] = [];
    let paced = true;
    const store = {
      reserve: async (_key: string, _limit: number, _refused?: boolean, pace?: number) => (
        paces.push(pace),
        { waitMs: 0, graceMs: 20, ...(paced ? { paced } : {}) }
      ),
    } as FleetSlotStore;
    const p = new SlotPacer(
      'key',
      'listAssets',
      () => 20,
      new ManualClock(second),
      undefined,
      () => 7.5,
    );
    const request = { priority: 'interactive' as const, owner: {}, slots: { store: () => store, sleep: async () => {}, closed: () => false } };
    await p.reserve(request);
    expect(paces).toEqual([7.5]);
    expect(p.coordination).toBe('storeBesideOthers');
    paced = false;
    await p.reserve(request);
    expect(p.coordination).toBe('store');
  });

  it("fails at once, RATE_LIMITED with nothing sent, when the fleet's slot is further off than the call waits", async () => {
    const store = { reserve: async () => ({ waitMs: 30_000, graceMs: 20 }) } as unknown as FleetSlotStore;
    const slept: number[] = [];
    const slots = { store: () => store, sleep: async (ms: number) => void slept.push(ms), closed: () => false };
    const p = new SlotPacer('key', 'listAssets', () => 20, new ManualClock(second));
    await expect(p.reserve({ priority: 'interactive', owner: {}, maxWaitMs: 10_000, slots })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('30 s'),
    });
    expect(slept).toEqual([]);
    // Within the bound, or with none, it waits for the slot.
    await p.reserve({ priority: 'interactive', owner: {}, maxWaitMs: 40_000, slots });
    await p.reserve({ priority: 'background', owner: {}, slots });
    expect(slept).toEqual([30_000, 30_000]);
  });
});

describe('BudgetBucket, slots traded for being late', () => {
  it("keeps the call's one bound on its wait: a second slot further off than what is left fails it, nothing sent", async () => {
    const clock = new ManualClock(1_736_000_000_000);
    const bucket = new BudgetBucket('http://x', 'v', 'listAssets', 20, clock, new ServerClock());
    const store = {
      reserve: async () => ({ waitMs: 8000, graceMs: 20 }),
      status: () => ({ state: 'connected', where: 'redis://t' }),
    } as unknown as FleetSlotStore;
    // The process wakes 50 ms late (busy): its slot is past its grace and traded for the next one, 8 s on.
    const slots = { store: () => store, sleep: (ms: number) => clock.advance(ms + 50), closed: () => false };
    const start = clock.now();
    const outcome = bucket.acquire({ priority: 'interactive', owner: {}, maxWaitMs: 10_000, slots }).then(
      (t) => ({ sentAfter: t.sentAt - start }),
      (e: PartnerError) => ({ code: e.code, after: clock.now() - start }),
    );
    expect(await outcome).toEqual({ code: 'RATE_LIMITED', after: 8050 });
  });
});

describe('HeaderModel snapshot figures', () => {
  it("reports the server's Remaining less our sends, and lets it come back with time", () => {
    const second = 1_736_000_000_000;
    const m = new HeaderModel({ limit: 20, now: second, serverClock: new ServerClock(), guardMs: 20 });
    expect(m.serverRemaining(second)).toBeNull();
    const a = m.send(second + 10);
    m.answered(a, { receivedAt: second + 12, status: 200, rate: rate(3), dateMs: second });
    m.send(second + 12);
    expect(m.serverRemaining(second + 12)).toBe(2);
    expect(m.serverRemaining(second + 5_000)).toBe(19); // refilled; the one in flight still counts
  });

  it('reports when the latest answer with rate headers said the budget is full again (Reset 0: under a second)', () => {
    const m = new HeaderModel({ limit: 20, now: 0, serverClock: new ServerClock() });
    expect(m.resetAt()).toBeNull();
    m.answered(m.send(0), { receivedAt: 100, status: 200, rate: rate(5, 20, 3), dateMs: null });
    expect(m.resetAt()).toBe(3_100);
    m.answered(m.send(200), { receivedAt: 250, status: 200, rate: rate(4, 20, 0), dateMs: null });
    expect(m.resetAt()).toBe(1_250);
    // An answer without rate headers says nothing about Reset; one with others but no Reset says it is unknown.
    m.answered(m.send(300), { receivedAt: 350, status: 200, rate: rate(null, null, null), dateMs: null });
    expect(m.resetAt()).toBe(1_250);
    m.answered(m.send(400), { receivedAt: 450, status: 200, rate: rate(3, 20, null), dateMs: null });
    expect(m.resetAt()).toBeNull();
  });
});

describe('BudgetBucket, the fleet store failing', () => {
  /**
   * One worker of ten on a fleet store at 2/s of 20 (the store holds each slot ~470 ms), its answers
   * showing Remaining high (a store that spaces the fleet evenly leaves it so: the headers alone see
   * nobody else). `store`: 'up', 'down' (fallback), 'gone' (the lease released: no store) or 'slow'
   * (no slot this once, still connected).
   */
  function worker() {
    const clock = new ManualClock(1_736_000_000_000);
    const bucket = new BudgetBucket('http://x', 'v', 'listAssets', 20, clock, new ServerClock());
    const state = { store: 'up' as 'up' | 'down' | 'gone' | 'slow', waitMs: 470 };
    const store = {
      reserve: async () => (state.store === 'up' ? { waitMs: state.waitMs, graceMs: 20 } : null),
      status: () => ({ state: state.store === 'down' ? 'fallback' : 'connected', where: 'redis://test' }),
    } as unknown as FleetSlotStore;
    const slots = { store: () => (state.store === 'gone' ? null : store), sleep: async () => {}, closed: () => false };
    const request = { priority: 'interactive' as const, owner: {}, slots };
    /** One request sent as soon as the bucket lets it and answered 30 ms later: how long it waited. */
    const send = async () => {
      const askedAt = clock.now();
      let ticket: Ticket | null = null;
      void bucket.acquire(request).then((t) => (ticket = t));
      while (ticket === null) await clock.advance(5);
      const sent: Ticket = ticket;
      await clock.advance(30);
      bucket.settle(answerAttempt({ ticket: sent, at: clock.now(), status: 200, rate: rate(18, 20, 1), dateMs: clock.now() }), () => 0);
      return sent.sentAt - askedAt;
    };
    const spacedByStore = async (n: number) => {
      for (let i = 0; i < n; i++) {
        await send();
        await clock.advance(470);
      }
    };
    return { clock, bucket, state, send, spacedByStore };
  }

  /** Five requests back to back: the mean time between them. */
  async function backToBack(w: ReturnType<typeof worker>): Promise<number> {
    const started = w.clock.now();
    for (let i = 0; i < 5; i++) await w.send();
    return (w.clock.now() - started) / 5;
  }

  // Alone at the whole limit it would be one every 50 ms or so, the ten workers together ten times the limit.
  it('in fallback: goes on at the share the store granted lately, not alone at the whole limit', async () => {
    const w = worker();
    await w.spacedByStore(8);
    w.state.store = 'down';
    expect(await backToBack(w)).toBeGreaterThanOrEqual(300);
    expect(w.bucket.snapshot().pace).toBeLessThanOrEqual(5);
  });

  it('released (the profile that held it disconnected, another goes on): the same', async () => {
    const w = worker();
    await w.spacedByStore(8);
    w.state.store = 'gone';
    expect(await backToBack(w)).toBeGreaterThanOrEqual(300);
  });

  it('after we were idle, or were never held back by it: nothing to hand on, so no wait alone', async () => {
    const idle = worker();
    await idle.spacedByStore(5);
    await idle.clock.advance(5_000); // the user reads the page
    idle.state.store = 'down';
    for (let i = 0; i < 4; i++) {
      expect(await idle.send()).toBeLessThan(100);
      await idle.clock.advance(1_000);
    }
    const unheld = worker();
    unheld.state.waitMs = 0;
    await unheld.spacedByStore(8);
    unheld.state.store = 'down';
    expect(await unheld.send()).toBeLessThan(100);
  });

  it('slow once (no slot, still connected): that request goes on the headers, and no share is forced on the rest', async () => {
    const w = worker();
    w.state.waitMs = 0;
    for (let i = 0; i < 24; i++) {
      w.state.store = i % 4 === 3 ? 'slow' : 'up';
      expect(await w.send()).toBeLessThan(100);
      await w.clock.advance(70); // 10/s of 20: room under every bound
    }
  });
});
