/**
 * DEV ONLY (`?fake` on the Vite dev server; compiled out of production builds): a bridge with made-up
 * data, to look at the UI before the services exist. Never used by tests or by default.
 */
import { createPartnerBridge } from '../../../shared/bridge/api';
import type { PartnerBridge } from '../../../shared/bridge/api';
import type { CallName, CallResult, EventName } from '../../../shared/bridge/contract';
import { ENDPOINT_IDS, ENDPOINTS } from '../../../shared/endpoints';
import type { EndpointId } from '../../../shared/endpoints';

type Listener = (payload: unknown) => void;

export function createFakeBridge(): PartnerBridge {
  const listeners = new Map<string, Set<Listener>>();
  const emit = (name: EventName, payload: unknown) => listeners.get(name)?.forEach((l) => l(payload));
  const assets = Array.from({ length: 240 }, (_, i) => ({
    id: i + 1,
    title: `Asset ${i + 1} ${['mountain', 'river', 'city', 'forest'][i % 4]} pack`,
    category: ['photos', 'audio', 'video', 'fonts'][i % 4]!,
    price: 5 + (i % 17) * 3.5,
    currency: 'USD',
    rating: 3 + (i % 20) / 10,
    downloads: i * 37,
    tags: ['demo'],
    created_at: '2024-01-02T10:00:00Z',
    updated_at: '2025-03-04T10:00:00Z',
  }));
  const purchases: { purchase: Record<string, unknown> & { id: string; asset_id: number; state: string }; assetTitle: string | null; updatedAt: number }[] = [];
  let demo = { share: 0, endpoints: [] as EndpointId[] };
  let competitors: { vendor: string; endpoint: EndpointId; rps: number }[] = [];
  let logId = 0;

  setInterval(() => {
    const now = Date.now();
    const aggregates = ENDPOINT_IDS.map((endpoint) => {
      const limit = ENDPOINTS[endpoint].limit;
      const on = demo.endpoints.includes(endpoint);
      const comp = competitors.find((c) => c.endpoint === endpoint)?.rps ?? 0;
      const requests = on ? Math.round((demo.share * limit) / 4 + Math.random()) : 0;
      const over = comp + demo.share * limit > limit && on;
      return {
        vendor: 'demo',
        endpoint,
        from: now - 250,
        to: now,
        requests,
        rateLimited: over && Math.random() < 0.3 ? 1 : 0,
        errors: 0,
        limit,
        remaining: Math.max(0, limit - requests * 3 - Math.round(comp / 4)),
        minRemaining: Math.max(0, limit - requests * 4 - Math.round(comp / 4)),
        reset: 0,
        waitedMs: over ? 120 : 0,
        latencyMsSum: requests * 12,
        latencyMsMax: 30,
        foreignUse: comp > 0 ? Math.round(comp / 4) : 0,
      };
    });
    emit('budget', { aggregates });
    const entries = aggregates
      .filter((a) => a.requests > 0)
      .map((a) => ({
        id: ++logId,
        at: now,
        vendor: 'demo',
        endpoint: a.endpoint,
        method: ENDPOINTS[a.endpoint].method,
        path: ENDPOINTS[a.endpoint].path,
        status: a.rateLimited ? 429 : 200,
        latencyMs: 12,
        waitedMs: a.waitedMs,
        attempt: 1,
        limit: a.limit,
        remaining: a.remaining,
        reset: 0,
        errorCode: null,
      }));
    if (entries.length) emit('requestLog', { entries, dropped: 0 });
  }, 250);

  const sim = () => ({
    url: 'http://127.0.0.1:4010',
    refill: 'whole-second',
    faults: { latencyMs: 0, jitterMs: 0, errorRate: 0, dropRate: 0, garbleRate: 0 },
    competitors,
    demoTraffic: demo,
    catalogSize: assets.length,
  });
  const purchase = (id: string, state: string) => {
    const p = purchases.find((x) => x.purchase.id === id);
    if (!p) throw { code: 'NOT_FOUND', message: 'Purchase not found.', retryable: false };
    p.purchase = { ...p.purchase, state };
    p.updatedAt = Date.now();
    return p.purchase;
  };

  const handlers: Partial<Record<CallName, (r: never) => unknown>> = {
    connection: () => ({ state: 'connected', profileId: 'demo', vendor: 'demo', baseUrl: 'http://127.0.0.1:4010', demo: true, message: null }),
    appInfo: () => ({ shell: 'web', version: '0.1.0-dev', tokenStorage: 'memory', settingsProblem: null }),
    getSettings: () => ({ theme: 'system', downloadDir: '/home/user/Downloads', pageSize: 20, timeoutMs: 15000 }),
    saveSettings: (r: Record<string, unknown>) => ({ theme: 'system', downloadDir: '/home/user/Downloads', pageSize: 20, timeoutMs: 15000, ...r }),
    listProfiles: () => ({
      activeId: 'demo',
      items: [
        {
          id: 'demo',
          name: 'Built-in simulator',
          vendor: 'demo',
          baseUrl: 'http://127.0.0.1:4010',
          demo: true,
          tokens: [{ id: 't1', masked: 'demo…en-1' }],
          tokenPresentation: { header: 'Authorization', scheme: 'Bearer' },
          pageSizeParam: 'per-page',
          idField: 'id',
        },
      ],
    }),
    testConnection: () => ({ ok: true, status: 200, latencyMs: 14, limit: 20, remaining: 19, reset: 0, error: null }),
    simState: () => sim(),
    simSetDemoTraffic: (r: typeof demo) => ((demo = r), sim()),
    simSetCompetitors: (r: { competitors: typeof competitors }) => ((competitors = r.competitors), sim()),
    simSetFaults: () => sim(),
    simSetRefill: () => sim(),
    simReset: () => sim(),
    categories: () => ({
      items: ['photos', 'audio', 'video', 'fonts'].map((id) => ({ id, name: id[0]!.toUpperCase() + id.slice(1), count: 60 })),
    }),
    listAssets: (r: { lastId: number | null; pageSize: number }) => {
      const start = r.lastId === null ? 0 : assets.findIndex((a) => a.id === r.lastId) + 1;
      const items = assets.slice(start, start + r.pageSize);
      const done = start + r.pageSize >= assets.length;
      return { items, cursor: done ? null : (items[items.length - 1]?.id ?? null), done, total: assets.length };
    },
    searchAssets: (r: { query: string; category: string | null; limit: number }) => {
      const m = assets.filter((a) => a.title.includes(r.query) && (!r.category || a.category === r.category));
      return { items: m.slice(0, r.limit), total: m.length };
    },
    assetHistory: (r: { assetId: number }) => ({
      assetId: r.assetId,
      items: [0, 1, 2, 3].map((i) => ({
        at: `202${i + 1}-0${i + 2}-01T00:00:00Z`,
        event: i === 0 ? 'created' : 'price_changed',
        price: 10 + i * 2.5,
        version: i + 1,
      })),
    }),
    ledgerList: () => ({
      items: purchases.map((p, i) => ({
        id: i + 1,
        vendor: 'demo',
        baseUrl: 'http://127.0.0.1:4010',
        profileId: 'demo',
        assetId: String(p.purchase.asset_id),
        assetTitle: p.assetTitle,
        reference: null,
        purchaseId: p.purchase.id,
        state: 'registered',
        purchaseState: p.purchase.state,
        purchaseStateKind: p.purchase.state,
        note: null,
        createdAt: p.updatedAt,
        updatedAt: p.updatedAt,
      })),
      more: false,
      states: [...new Set(purchases.map((p) => p.purchase.state))].map((purchaseState) => ({ state: 'registered' as const, purchaseState })),
      unresolved: 0,
      vendors: ['demo'],
      problem: null,
    }),
    registerPurchase: (r: { assetId: number; assetTitle: string | null }) => {
      const p = {
        purchase: { id: `p_${purchases.length + 1}`, asset_id: r.assetId, state: 'registered', price: 12, currency: 'USD' },
        assetTitle: r.assetTitle,
        updatedAt: Date.now(),
      };
      purchases.push(p);
      return p.purchase;
    },
    validatePurchase: (r: { purchaseId: string }) => purchase(r.purchaseId, 'validated'),
    cancelPurchase: (r: { purchaseId: string }) => purchase(r.purchaseId, 'cancelled'),
    purchaseInfo: (r: { purchaseId: string }) => purchases.find((p) => p.purchase.id === r.purchaseId)?.purchase,
    downloadUrl: (r: { purchaseId: string }) => ({
      purchaseId: r.purchaseId,
      url: `https://cdn.example.com/d/${r.purchaseId}?sig=abc`,
      expiresAt: new Date(Date.now() + 3600e3).toISOString(),
    }),
    viewUrl: (r: { purchaseId: string }) => ({ purchaseId: r.purchaseId, url: `https://cdn.example.com/v/${r.purchaseId}`, expiresAt: null }),
    openExternal: () => {
      throw { code: 'NOT_FOUND', message: 'Not available in browser mode.', retryable: false };
    },
    downloadStatus: () => ({
      state: 'idle',
      format: 'jsonl',
      outPath: null,
      pages: 0,
      items: 0,
      requests: 0,
      requestsPerSecond: 0,
      waitedMs: 0,
      rateLimited: 0,
      total: null,
      etaSeconds: null,
      bytes: 0,
      error: null,
      profileId: null,
      otherProfile: null,
    }),
    downloadStart: () => ({
      state: 'running',
      format: 'jsonl',
      outPath: '/home/user/Downloads/catalog-demo.jsonl',
      pages: 12,
      items: 1200,
      requests: 12,
      requestsPerSecond: 18.5,
      waitedMs: 340,
      rateLimited: 0,
      total: 5000,
      etaSeconds: 3,
      bytes: 512000,
      error: null,
      profileId: 'demo',
      otherProfile: null,
    }),
    budgetSnapshot: () => ({
      vendor: 'demo',
      buckets: ENDPOINT_IDS.map((endpoint) => ({
        endpoint,
        limit: ENDPOINTS[endpoint].limit,
        remaining: ENDPOINTS[endpoint].limit - 2,
        pausedUntil: null,
        resetAt: Date.now() + 400,
        queued: 0,
        inFlight: 0,
      })),
    }),
    budgetHistory: () => ({ aggregates: [] }),
    requestLog: () => ({ entries: [], dropped: 0 }),
    requestLogSpan: () => ({ oldestAt: null, count: 0, capacity: 5000, dropped: 0 }),
    requestDetail: (r: { id: number }) => ({
      id: r.id,
      at: Date.now(),
      vendor: 'demo',
      endpoint: 'listAssets',
      method: 'GET',
      path: '/assets/list?per-page=20',
      status: 200,
      latencyMs: 12,
      waitedMs: 0,
      attempt: 1,
      limit: 20,
      remaining: 19,
      reset: 0,
      errorCode: null,
      requestHeaders: { authorization: 'Bearer demo…en-1', accept: 'application/json' },
      requestBody: null,
      requestBodyCut: false,
      responseHeaders: { 'x-rate-limit-limit': '20', 'x-rate-limit-remaining': '19', 'x-rate-limit-reset': '0', 'content-type': 'application/json' },
      responseBody: '{"items":[],"last_id":null}',
      headerProblems: [],
      origin: 'http://127.0.0.1:4010',
      target: '/assets/list?per-page=20',
      detailKept: true,
      tokenHeader: { header: 'authorization', scheme: 'Bearer' },
    }),
    searchRequestLog: () => ({ ids: [], scanned: 0, withBodies: 0 }),
  };

  const invoke = async (name: CallName, request: unknown): Promise<CallResult<unknown>> => {
    await new Promise((r) => setTimeout(r, 120));
    const handler = handlers[name] as ((r: unknown) => unknown) | undefined;
    if (!handler) return { ok: false, error: { code: 'INTERNAL', message: `${name} is not faked`, retryable: false } };
    try {
      return { ok: true, value: handler(request) };
    } catch (e) {
      return { ok: false, error: e as never };
    }
  };
  const subscribe = (name: EventName, listener: Listener) => {
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };
  return createPartnerBridge(invoke, subscribe);
}
