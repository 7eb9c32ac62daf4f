/** Builds a fake service, a manual clock and clients on them, for the client's unit tests. */
import { BudgetRegistry } from '../budget-registry';
import { PartnerClient } from '../partner-client';
import type { ClientOptions } from '../types';
import type { FakePartnerOptions } from './fake-partner';
import { FakePartner } from './fake-partner';
import { ManualClock } from './manual-clock';

/** A small seeded generator (mulberry32): the same seed replays the same run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Harness {
  clock: ManualClock;
  fake: FakePartner;
  registry: BudgetRegistry;
  /** A client of vendor 'v' on the fake (shares `registry` unless another is given). */
  client(options?: Partial<ClientOptions>): PartnerClient;
}

export const FAKE_BASE_URL = 'http://partner.test';

export function harness(options: Partial<Omit<FakePartnerOptions, 'clock'>> & { startMs?: number } = {}): Harness {
  const clock = new ManualClock(options.startMs ?? Date.UTC(2025, 0, 1, 12, 0, 0, 337));
  const fake = new FakePartner({ refill: 'whole-second', ...options, clock });
  const registry = new BudgetRegistry({ clock });
  return {
    clock,
    fake,
    registry,
    client: (o = {}) =>
      new PartnerClient({
        baseUrl: FAKE_BASE_URL,
        vendor: 'v',
        tokens: ['token-a', 'token-b'],
        fetch: fake.fetch,
        clock,
        budgets: registry,
        random: () => 0.5,
        ...o,
      }),
  };
}

/** Runs `loops` callers that each repeat `call` until the clock passes `untilMs` (or `loopDone` says so); resolves when all stop. */
export async function runFor(
  clock: ManualClock,
  untilMs: number,
  loops: number,
  call: (loop: number) => Promise<unknown>,
  loopDone: (loop: number) => boolean = () => false,
): Promise<{ ok: number; failed: unknown[] }> {
  const result = { ok: 0, failed: [] as unknown[] };
  const runners = Array.from({ length: loops }, async (_, i) => {
    while (clock.now() < untilMs && !loopDone(i)) {
      try {
        await call(i);
        result.ok++;
      } catch (e) {
        result.failed.push(e);
      }
    }
  });
  let finished = false;
  const all = Promise.all(runners).then(() => {
    finished = true;
  });
  await clock.runUntil(() => finished, untilMs - clock.now() + 120_000);
  await all;
  return result;
}

/** Runs the clock until `promise` settles, then returns (or throws) its outcome. */
export async function drive<T>(clock: ManualClock, promise: Promise<T>, limitMs = 600_000): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await clock.runUntil(() => settled, limitMs);
  return promise;
}
