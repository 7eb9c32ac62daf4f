/**
 * Three baselines written for the comparison, each a plausible client someone would write:
 * - naive: no pacing; on 429 retries at once, up to 3 times;
 * - retry-only: no pacing; on 429 waits X-Rate-Limit-Reset seconds (as the spec says), then retries;
 * - bottleneck: the Bottleneck limiter configured from the documented limits (a reservoir of N per
 *   second per endpoint), retrying a 429 after Reset.
 */
import Bottleneck from 'bottleneck';
import type { EndpointId } from '../../shared/endpoints';
import { ENDPOINTS } from '../../shared/endpoints';
import { parseRateLimitHeaders } from '../../shared/rate-limit';
import type { BenchCall, BenchClient, BenchOutcome } from './bench-client';

const MAX_RETRIES = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Attempt {
  status: number;
  resetSeconds: number;
  body?: unknown;
}

async function send(baseUrl: string, endpoint: EndpointId, call: BenchCall): Promise<Attempt> {
  const spec = ENDPOINTS[endpoint];
  const url = new URL(baseUrl + spec.path);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, String(v));
  try {
    const res = await fetch(url, {
      method: spec.method,
      headers: { authorization: `Bearer ${call.token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    const text = await res.text();
    const rl = parseRateLimitHeaders((n) => res.headers.get(n));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, resetSeconds: rl.reset ?? 1, body };
  } catch {
    return { status: 0, resetSeconds: 1 };
  }
}

/** Runs attempts until one is not a 429 or the retries are spent; `pause` decides the wait after a 429. */
async function withRetries(attempt: () => Promise<Attempt>, pause: (a: Attempt) => number): Promise<BenchOutcome> {
  const start = performance.now();
  let sentAt = start;
  let last: Attempt = { status: 0, resetSeconds: 0 };
  for (let i = 0; i <= MAX_RETRIES; i++) {
    sentAt = performance.now();
    last = await attempt();
    if (last.status !== 429) break;
    if (i < MAX_RETRIES) await sleep(pause(last));
  }
  return { status: last.status, waitedMs: sentAt - start, body: last.body };
}

export function naiveClient(baseUrl: string): BenchClient {
  return {
    name: 'naive',
    request: (endpoint, call) =>
      withRetries(
        () => send(baseUrl, endpoint, call),
        () => 0,
      ),
    close() {},
  };
}

export function retryOnlyClient(baseUrl: string): BenchClient {
  return {
    name: 'retry-only',
    request: (endpoint, call) =>
      withRetries(
        () => send(baseUrl, endpoint, call),
        (a) => a.resetSeconds * 1000,
      ),
    close() {},
  };
}

export function bottleneckClient(baseUrl: string): BenchClient {
  const limiters = new Map<EndpointId, Bottleneck>();
  const limiterFor = (endpoint: EndpointId) => {
    let limiter = limiters.get(endpoint);
    if (!limiter) {
      const n = ENDPOINTS[endpoint].limit;
      limiter = new Bottleneck({ reservoir: n, reservoirRefreshAmount: n, reservoirRefreshInterval: 1000 });
      limiters.set(endpoint, limiter);
    }
    return limiter;
  };
  return {
    name: 'bottleneck',
    request: (endpoint, call) => {
      const limiter = limiterFor(endpoint);
      return withRetries(
        () => limiter.schedule(() => send(baseUrl, endpoint, call)),
        (a) => a.resetSeconds * 1000,
      );
    },
    close() {
      for (const l of limiters.values()) void l.stop({ dropWaitingJobs: true });
    },
  };
}

/**
 * Bottleneck clustered through Redis (its ioredis datastore): every process of the fleet shares one
 * reservoir of N per second per endpoint; a 429 is retried after Reset, 3 times at most.
 */
export function bottleneckRedisClient(baseUrl: string, redisUrl: string, vendor: string): BenchClient {
  const url = new URL(redisUrl);
  const limiters = new Map<EndpointId, Bottleneck>();
  const limiterFor = (endpoint: EndpointId) => {
    let limiter = limiters.get(endpoint);
    if (!limiter) {
      const n = ENDPOINTS[endpoint].limit;
      limiter = new Bottleneck({
        id: `fleet-${vendor}-${endpoint}`,
        datastore: 'ioredis',
        clearDatastore: false,
        clientOptions: { host: url.hostname, port: Number(url.port) },
        reservoir: n,
        reservoirRefreshAmount: n,
        reservoirRefreshInterval: 1000,
      });
      limiters.set(endpoint, limiter);
    }
    return limiter;
  };
  return {
    name: 'bottleneck-redis',
    request: (endpoint, call) => {
      const limiter = limiterFor(endpoint);
      return withRetries(
        () => limiter.schedule(() => send(baseUrl, endpoint, call)),
        (a) => a.resetSeconds * 1000,
      );
    },
    close() {
      for (const l of limiters.values()) void l.disconnect(false);
    },
  };
}
