/**
 * Which server's estimate of others' use a sample goes to, and our requests in flight there
 * (foreign-servers.ts, as the app wires it): one server spelt two ways is one budget and one
 * estimate, and a first contact's requests (its session not pooled yet) count as in flight.
 */
import { describe, expect, it } from 'vitest';
import { harness } from '../../electron/client/testing';
import { foreignServers } from '../../electron/telemetry/foreign-servers';
import type { ServerProfile } from '../../electron/telemetry/foreign-servers';
import { ForeignUseDetector } from '../../electron/telemetry/foreign-use';
import type { BudgetSample } from '../../shared/rate-limit';
import { aloneSample } from '../helpers/foreign-use-model';

describe("the server of our samples, for the estimate of others' use", () => {
  it('two profiles spelling one server two ways share one estimate: alone together they read 0', () => {
    const profiles: ServerProfile[] = [
      { id: 'upper', vendor: 'demo', baseUrl: 'https://X.com/api/' },
      { id: 'lower', vendor: 'demo', baseUrl: 'https://x.com/api' },
    ];
    const origin = new WeakMap<BudgetSample, string>();
    const servers = foreignServers({ connected: () => profiles, savedBaseUrl: () => undefined, profileOf: (s) => origin.get(s), inFlightAt: () => 0 });
    const detector = new ForeignUseDetector({ refillModel: () => 'whole-second', ...servers });
    let found = 0;
    // The two take turns at 10/s on one budget of 10 per second, for 10 s.
    for (let k = 0; k < 100; k++) {
      const sample = aloneSample(k);
      origin.set(sample, k % 2 === 0 ? 'upper' : 'lower');
      found += detector.observe(sample);
    }
    expect(found).toBe(0);
  });

  it("a first contact's requests (no session pooled yet) are in flight at its server", async () => {
    const h = harness({ action: () => ({ kind: 'hang' }) });
    const client = h.client({ baseUrl: 'HTTP://Partner.test/' });
    const servers = foreignServers({
      connected: () => [],
      savedBaseUrl: () => 'HTTP://Partner.test/',
      profileOf: () => 'new-profile',
      inFlightAt: (server, vendor, endpoint) => h.registry.bucket(server, vendor, endpoint).snapshot().inFlight,
    });
    const pending = client.request('listAssets', { priority: 'background' }).catch(() => undefined);
    await h.clock.advance(50);
    expect(servers.inFlight('v', 'listAssets', 'http://partner.test')).toBe(1);
    expect(servers.serverOf({ vendor: 'v' } as BudgetSample)).toBe('http://partner.test');
    client.close();
    await h.clock.advance(60_000);
    await pending;
  });
});
