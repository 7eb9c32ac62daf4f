/**
 * The partner API's request pipeline, in the order the real service (Yii2 filters) checks:
 *   content negotiation (406) -> verb (405 + Allow) -> route (404) -> authentication (401)
 *   -> rate limiter (429) -> action (200, 400, 404, 409).
 * Nothing before the limiter carries rate-limit headers or uses budget. From the limiter on, every
 * answer carries the three headers, including 5xx from the error fault, and the Date header is
 * written from the very clock reading the budget check used.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENDPOINTS, ENDPOINT_LIST, findEndpoint } from '../../shared/endpoints';
import type { EndpointSpec } from '../../shared/endpoints';
import { RATE_LIMIT_HEADERS } from '../../shared/rate-limit';
import type { BodyInput } from './actions';
import type { SimulatorCore } from './core';
import { runInDialect } from './dialects';
import { delayFor, garbleHeaders, hits } from './faults';
import type { HeaderBag } from './faults';
import { acceptsJson, errorBody, readBody, sendJson } from './http-io';

/** Exactly the real service's 429 body. */
export const RATE_LIMITED_BODY = Object.freeze({ name: 'Too Many Requests', message: 'Rate limit exceeded.', code: 0, status: 429 });

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Methods served at a path, for 405's Allow header (empty: unknown route). */
function methodsAt(path: string): string[] {
  return ENDPOINT_LIST.filter((e) => e.path === path).map((e) => e.method);
}

export function createPartnerHandler(core: SimulatorCore): (req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string) => void {
  const { clock, random, counters } = core;

  /** An answer from before the limiter: no rate-limit headers, no budget. */
  function early(res: ServerResponse, endpoint: EndpointSpec | undefined, status: number, message: string, headers: HeaderBag = {}): void {
    counters.add(null, endpoint?.id ?? null, status);
    sendJson(res, status, errorBody(status, message), clock(), headers);
  }

  /** A bug of ours is a 500, never a crash. */
  function safely(res: ServerResponse, fn: () => void): void {
    try {
      fn();
    } catch (e) {
      counters.add(null, null, 500);
      sendJson(res, 500, errorBody(500, `Simulator bug: ${e instanceof Error ? e.message : String(e)}`), clock());
    }
  }

  function budgeted(req: IncomingMessage, res: ServerResponse, endpoint: EndpointSpec, vendor: string, query: URLSearchParams, body: BodyInput): void {
    const now = clock();
    const d = core.budgets.take(vendor, endpoint.id, endpoint.limit, now);
    const headers: HeaderBag = {
      [RATE_LIMIT_HEADERS.limit]: String(d.limit),
      [RATE_LIMIT_HEADERS.remaining]: String(d.remaining),
      [RATE_LIMIT_HEADERS.reset]: String(d.reset),
    };
    const faults = core.faults();
    let status: number;
    let payload: unknown;
    if (!d.allowed) {
      status = 429;
      payload = RATE_LIMITED_BODY;
    } else if (hits(faults.errorRate, random)) {
      // The slot is spent; the action does not run.
      status = random() < 0.5 ? 500 : 503;
      payload = errorBody(status, status === 500 ? 'Simulated internal server error.' : 'Simulated service unavailable.');
    } else {
      const request = body.kind === 'text' ? body.text : '';
      const keyed = endpoint.id === 'registerPurchase' ? core.idempotency.answerFor(req, vendor, request) : null;
      const r =
        keyed ?? runInDialect(core.dialect(), { vendor, endpoint: endpoint.id, query, body, nowMs: now, catalog: core.catalog, purchases: core.purchases });
      if (keyed === null && endpoint.id === 'registerPurchase') core.idempotency.settle(req, vendor, request, r);
      status = r.status;
      payload = r.body;
    }
    if (hits(faults.dropRate, random)) {
      // The action has run (a register created its purchase); the client never hears of it.
      counters.add(vendor, endpoint.id, 0);
      req.socket.destroy();
      return;
    }
    if (hits(faults.garbleRate, random)) garbleHeaders(headers, random);
    counters.add(vendor, endpoint.id, status);
    sendJson(res, status, payload, now, headers);
  }

  function handle(req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string): void {
    if (!acceptsJson(req.headers.accept)) return early(res, undefined, 406, 'None of your requested content types is supported.');
    const endpoint = findEndpoint(req.method ?? 'GET', path);
    if (!endpoint) {
      const allowed = methodsAt(path);
      if (allowed.length > 0) {
        return early(res, undefined, 405, `Method Not Allowed. This URL can only handle the following request methods: ${allowed.join(', ')}.`, {
          Allow: allowed.join(', '),
        });
      }
      return early(res, undefined, 404, 'Page not found.');
    }
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    const vendor = token === undefined ? undefined : core.vendorByToken.get(token);
    if (vendor === undefined) {
      return early(res, endpoint, 401, 'Your request was made with invalid credentials.', { 'WWW-Authenticate': 'Bearer realm="api"' });
    }
    const query = new URLSearchParams(rawQuery);
    if (endpoint.method !== 'POST') return budgeted(req, res, endpoint, vendor, query, { kind: 'none' });
    void readBody(req).then((b) => {
      if (!b.ok && b.reason === 'aborted') return; // the client left; nobody to answer, no slot used
      safely(res, () => budgeted(req, res, endpoint, vendor, query, b.ok ? { kind: 'text', text: b.text } : { kind: 'too-large' }));
    });
  }

  /** Entry point: optional latency, then the pipeline. */
  return (req, res, path, rawQuery) => {
    if (req.method === 'POST' && path === ENDPOINTS.registerPurchase.path) {
      core.idempotency.arrive(req, res, core.vendorByToken.get(BEARER.exec(req.headers.authorization ?? '')?.[1] ?? ''));
    }
    const run = (): void => safely(res, () => handle(req, res, path, rawQuery));
    const f = core.faults();
    if (f.latencyMs > 0 || f.jitterMs > 0) core.later(delayFor(f, random), run);
    else run();
  };
}
