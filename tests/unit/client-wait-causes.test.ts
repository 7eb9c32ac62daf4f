/**
 * Why held back (issue 22 §1): every attempt's wait is split by cause where the client waits, the
 * parts add up to the measured wait, and the cause a person would name dominates. On the manual
 * clock; the pacing decisions themselves are the fleet model's (its JSON stays identical).
 */
import { describe, expect, it } from 'vitest';
import { BudgetRegistry } from '../../electron/client/budget-registry';
import { PartnerClient } from '../../electron/client/partner-client';
import type { FakeAction, FakePartnerOptions, FakeRefill } from '../../electron/client/testing/fake-partner';
import { FAKE_BASE_URL, harness, runFor, seededRandom } from '../../electron/client/testing/harness';
import type { BudgetSample } from '../../shared/rate-limit';
import type { WaitCause, WaitCauses } from '../../shared/wait-causes';
import { addWaitCauses, emptyWaitCauses, rankedWaitCauses, waitCausesTotal } from '../../shared/wait-causes';

interface Run {
  samples: BudgetSample[];
  causes: WaitCauses;
  waitedMs: number;
}

/** `loops` background callers of one client on listAssets (limit 20) for `seconds`, beside a competitor at `competitorRps`. */
async function run(options: { refill: FakeRefill; loops: number; seconds: number; competitorRps?: number; fake?: Partial<FakePartnerOptions> }): Promise<Run> {
  const random = seededRandom(7);
  const h = harness({ refill: options.refill, latencyMs: () => 2 + random() * 6, ...options.fake });
  const client = h.client();
  const samples: BudgetSample[] = [];
  client.onSample((s) => samples.push(s));
  const start = h.clock.now();
  const rps = options.competitorRps ?? 0;
  if (rps > 0) {
    const take = (): void => {
      h.fake.foreign('v', 'listAssets');
      h.clock.setTimeout(take, 1000 / rps);
    };
    h.clock.setTimeout(take, 1000 / rps);
  }
  const { failed } = await runFor(h.clock, start + options.seconds * 1000, options.loops, () => client.request('listAssets', { priority: 'background' }));
  client.close();
  expect(failed).toEqual([]);
  return summed(samples);
}

function summed(samples: BudgetSample[]): Run {
  const causes = emptyWaitCauses();
  let waitedMs = 0;
  for (const s of samples) {
    addWaitCauses(causes, s.waitCauses);
    waitedMs += s.waitedMs;
  }
  return { samples, causes, waitedMs };
}

/** Every attempt's causes add up to its own wait (within 5%), and so do the totals. */
function expectAddsUp(r: Run): void {
  expect(r.samples.length).toBeGreaterThan(0);
  for (const s of r.samples) {
    expect(s.waitCauses, 'every attempt says why it waited').toBeDefined();
    expect(Math.abs(waitCausesTotal(s.waitCauses!) - s.waitedMs)).toBeLessThanOrEqual(0.05 * s.waitedMs + 0.01);
  }
  expect(r.waitedMs).toBeGreaterThan(0);
  expect(Math.abs(waitCausesTotal(r.causes) - r.waitedMs)).toBeLessThanOrEqual(0.05 * r.waitedMs);
}

function share(r: Run, cause: WaitCause): number {
  return r.causes[cause] / waitCausesTotal(r.causes);
}

describe('wait causes add up to the measured wait, and name what held the request', () => {
  it.each<FakeRefill>(['whole-second', 'continuous'])('beside a competitor at 8 of 20/s (%s): pacing for another consumer dominates', async (refill) => {
    const r = await run({ refill, loops: 4, seconds: 20, competitorRps: 8 });
    expectAddsUp(r);
    expect(rankedWaitCauses(r.causes)[0]).toBe('others');
    expect(share(r, 'others')).toBeGreaterThan(0.6);
    // The pacing's deferrals to the next server second are told apart from its spacing.
    expect(r.causes.window).toBeGreaterThan(0);
  });

  it.each<FakeRefill>(['whole-second', 'continuous'])("alone at full speed (%s): the budget used up or its window's end, never others", async (refill) => {
    const r = await run({ refill, loops: 4, seconds: 10 });
    expectAddsUp(r);
    expect(share(r, 'budget') + share(r, 'window')).toBeGreaterThan(0.99);
    expect(r.causes.others).toBe(0);
    expect(r.causes.pause).toBe(0);
  });

  it('no X-Rate-Limit headers, only Date: each second waits for the whole-second window to end', async () => {
    const strip = { 'X-Rate-Limit-Limit': undefined, 'X-Rate-Limit-Remaining': undefined, 'X-Rate-Limit-Reset': undefined };
    const r = await run({ refill: 'whole-second', loops: 2, seconds: 10, fake: { rewriteHeaders: (headers) => ({ ...headers, ...strip }) } });
    expectAddsUp(r);
    expect(rankedWaitCauses(r.causes)[0]).toBe('window');
    expect(share(r, 'window')).toBeGreaterThan(0.9);
  });

  it("every 10th answer a 429: the 429's pause dominates", async () => {
    let n = 0;
    const action = (): FakeAction => (++n % 10 === 0 ? { kind: 'rate-limited' } : { kind: 'answer' });
    const r = await run({ refill: 'continuous', loops: 2, seconds: 10, fake: { action } });
    expectAddsUp(r);
    expect(rankedWaitCauses(r.causes)[0]).toBe('pause');
    expect(r.samples.filter((s) => s.status === 429).length).toBeGreaterThan(0);
  });

  it('the limit of ours in flight: the next waits for an answer (own requests in flight)', async () => {
    const h = harness({ refill: 'continuous', latencyMs: 3000 });
    const client = h.client();
    const samples: BudgetSample[] = [];
    client.onSample((s) => samples.push(s));
    const calls = Array.from({ length: 21 }, () => client.request('listAssets', { priority: 'background' }));
    let done = false;
    void Promise.all(calls).then(() => (done = true));
    await h.clock.runUntil(() => done, 20_000);
    const r = summed(samples);
    expectAddsUp(r);
    const last = samples.find((s) => s.waitedMs > 0)!;
    expect(last.waitedMs).toBeGreaterThanOrEqual(3000);
    expect(rankedWaitCauses(last.waitCauses!)[0]).toBe('inFlight');
  });

  it('copies of the app with separate budgets (a crowd of 8, continuous): both pacing and window ends, adding up per copy', async () => {
    const random = seededRandom(42);
    const h = harness({ refill: 'continuous', latencyMs: () => 2 + random() * 6 });
    const clients = Array.from(
      { length: 8 },
      (_, i) =>
        new PartnerClient({
          baseUrl: FAKE_BASE_URL,
          vendor: 'v',
          tokens: [`t-${i}`],
          fetch: h.fake.fetch,
          clock: h.clock,
          budgets: new BudgetRegistry({ clock: h.clock }),
          random: seededRandom(100 + i),
        }),
    );
    const perCopy = clients.map(() => [] as BudgetSample[]);
    clients.forEach((c, i) => c.onSample((s) => perCopy[i]!.push(s)));
    await runFor(h.clock, h.clock.now() + 20_000, 8, (i) => clients[i]!.request('listAssets', { priority: 'background' }));
    for (const samples of perCopy) expectAddsUp(summed(samples));
    const all = summed(perCopy.flat());
    // Most of the wait; the rest is the budget bound and the pauses after the odd 429.
    expect(share(all, 'others') + share(all, 'window')).toBeGreaterThan(0.85);
  });
});
