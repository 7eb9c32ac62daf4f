/** Makes a BenchClient of each kind; Partner Console's own is the app's PartnerClient, unchanged. */
import { PartnerClient } from '../../electron/client';
import { isPartnerError } from '../../shared/errors';
import { bottleneckClient, naiveClient, retryOnlyClient } from './baselines';
import type { BenchClient, BenchClientKind } from './bench-client';

export function partnerConsoleClient(baseUrl: string, vendor: string, tokens: string[]): BenchClient {
  const client = new PartnerClient({ baseUrl, vendor, tokens });
  return {
    name: 'partner-console',
    async request(endpoint, call) {
      const t0 = performance.now();
      try {
        const res = await client.request(endpoint, { query: call.query, body: call.body, token: call.token });
        return { status: res.status, waitedMs: Math.max(0, performance.now() - t0 - res.sample.latencyMs), body: res.body };
      } catch (e) {
        return { status: isPartnerError(e) ? (e.data.status ?? 0) : 0, waitedMs: performance.now() - t0 };
      }
    },
    close: () => client.close(),
  };
}

export function makeBenchClient(kind: BenchClientKind, baseUrl: string, vendor: string, tokens: string[]): BenchClient {
  switch (kind) {
    case 'partner-console':
      return partnerConsoleClient(baseUrl, vendor, tokens);
    case 'naive':
      return naiveClient(baseUrl);
    case 'retry-only':
      return retryOnlyClient(baseUrl);
    case 'bottleneck':
      return bottleneckClient(baseUrl);
  }
}
