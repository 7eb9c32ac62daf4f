/**
 * Demo traffic: the app's OWN client sends realistic requests to chosen endpoints at share x limit
 * per second, so that anyone can watch it pace and back off live against the built-in simulator.
 * Open loop (requests start on schedule, not after the previous answer), but never more than one
 * second's worth waiting per endpoint: asking for more than the limit shows pacing, not a growing queue.
 * Background priority, so a click in the dashboard still goes first.
 */
import { setMaxListeners } from 'node:events';
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import type { Clock } from '../../shared/clock';
import { readAssetPage, readPurchase, readSearch } from '../../shared/service-map/read';
import { historyRequest, listRequest, purchaseRequest, registerRequest, searchRequest, validateRequest } from '../../shared/service-map/requests';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import type { Id } from '../../shared/service-map/values';
import { DemoPurchases } from './demo-purchases';
import type { DemoPurchase, DemoPurchaseAction } from './demo-purchases';

export interface DemoTrafficPlan {
  share: number;
  endpoints: EndpointId[];
}

/** The part of PartnerClient that demo traffic uses. */
export interface DemoTrafficClient {
  request(
    endpoint: EndpointId,
    options?: { query?: Record<string, string | number | undefined>; body?: unknown; signal?: AbortSignal; priority?: 'interactive' | 'background' },
  ): Promise<{ status: number; body: unknown }>;
}

export interface DemoTrafficOptions {
  client: DemoTrafficClient;
  clock: Clock;
  random?: () => number;
  /** How the service is called and read (default: the simulator's dialect). */
  map?: ServiceMap;
  tickMs?: number;
}

/** One signal for every demo request in flight (hundreds may listen to it: no leak warning). */
function sharedAbort(): AbortController {
  const controller = new AbortController();
  setMaxListeners(Number.POSITIVE_INFINITY, controller.signal);
  return controller;
}

const SEARCH_WORDS = ['castle', 'forest', 'neon', 'crimson', 'model', 'texture', 'sound', 'ui', 'font', 'shader', 'galaxy', 'stone'];
const MAX_KNOWN = 500;
/** Share of purchase actions sent on purpose to a cancelled purchase (409): a few conflicts, as real traffic has. */
export const CONFLICT_SHARE = 0.03;

export class DemoTraffic {
  private current: DemoTrafficPlan = { share: 0, endpoints: [] };
  private timer: unknown = null;
  private lastTick = 0;
  private readonly due = new Map<EndpointId, number>();
  private readonly outstanding = new Map<EndpointId, number>();
  private abort = sharedAbort();
  private readonly random: () => number;
  private readonly tickMs: number;
  private readonly assetIds: Id[] = [];
  private readonly map: ServiceMap;
  private readonly purchases = new DemoPurchases();
  private seq = 0;
  /** One seeding request at a time, however many requests wait for an id. */
  private seedingAssets: Promise<void> | null = null;
  private readonly seeding = new Map<'registered' | 'validated', Promise<void>>();
  /** Requests sent and answers by outcome, for tests and the status line. */
  readonly counts = { sent: 0, ok: 0, failed: 0 };

  constructor(private readonly options: DemoTrafficOptions) {
    this.random = options.random ?? Math.random;
    this.tickMs = options.tickMs ?? 50;
    this.map = options.map ?? DEFAULT_SERVICE_MAP;
  }

  plan(): DemoTrafficPlan {
    return { share: this.current.share, endpoints: [...this.current.endpoints] };
  }

  /** Replaces the plan; share 0 or no endpoint stops. */
  setPlan(plan: DemoTrafficPlan): void {
    const endpoints = [...new Set(plan.endpoints)];
    this.current = { share: plan.share, endpoints };
    if (plan.share <= 0 || endpoints.length === 0) {
      this.stop();
      this.current = { share: 0, endpoints: [] };
      return;
    }
    for (const e of [...this.due.keys()]) if (!endpoints.includes(e)) this.due.delete(e);
    if (this.timer === null) {
      this.lastTick = this.options.clock.now();
      this.schedule();
    }
  }

  /** Stops scheduling and cancels the demo requests in flight. */
  stop(): void {
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    this.abort = sharedAbort();
    this.due.clear();
    this.current = { share: 0, endpoints: [] };
  }

  private schedule(): void {
    this.timer = this.options.clock.setTimeout(() => this.tick(), this.tickMs);
  }

  private tick(): void {
    this.timer = null;
    const now = this.options.clock.now();
    const dt = Math.min(1000, Math.max(0, now - this.lastTick));
    this.lastTick = now;
    for (const endpoint of this.current.endpoints) {
      const limit = ENDPOINTS[endpoint].limit;
      const cap = Math.max(2, Math.ceil(limit * Math.min(1, this.current.share)));
      let due = (this.due.get(endpoint) ?? 0) + (this.current.share * limit * dt) / 1000;
      while (due >= 1 && (this.outstanding.get(endpoint) ?? 0) < cap) {
        due -= 1;
        this.fire(endpoint);
      }
      // A full queue does not build a backlog to burst later.
      this.due.set(endpoint, Math.min(due, 1));
    }
    if (this.current.endpoints.length > 0) this.schedule();
  }

  private fire(endpoint: EndpointId): void {
    this.outstanding.set(endpoint, (this.outstanding.get(endpoint) ?? 0) + 1);
    this.counts.sent += 1;
    const signal = this.abort.signal;
    void this.send(endpoint, signal)
      .then(() => (this.counts.ok += 1))
      .catch(() => (this.counts.failed += 1))
      .finally(() => this.outstanding.set(endpoint, Math.max(0, (this.outstanding.get(endpoint) ?? 1) - 1)));
  }

  private pick<T>(list: readonly T[]): T | undefined {
    return list.length === 0 ? undefined : list[Math.floor(this.random() * list.length)];
  }

  private remember<T>(list: T[], value: T): void {
    list.push(value);
    if (list.length > MAX_KNOWN) list.splice(0, list.length - MAX_KNOWN);
  }

  private learnAssets(items: readonly { id: Id }[]): void {
    for (const { id } of items.slice(0, 20)) if (!this.assetIds.includes(id)) this.remember(this.assetIds, id);
  }

  private learnPurchase(body: unknown, assetId: Id): DemoPurchase | undefined {
    const { id, asset_id } = readPurchase(body, this.map).value;
    return id === '' ? undefined : this.purchases.add(id, asset_id ?? assetId);
  }

  /** An asset id seen in a page; the first page is read when none is known yet. */
  private async assetId(signal: AbortSignal): Promise<Id | undefined> {
    if (this.assetIds.length === 0) {
      this.seedingAssets ??= this.listPage(signal, null).finally(() => (this.seedingAssets = null));
      await this.seedingAssets;
    }
    return this.pick(this.assetIds);
  }

  /** Registers (and for 'validated' validates) one purchase, one at a time however many requests wait for it. */
  private seed(state: 'registered' | 'validated', signal: AbortSignal): Promise<void> {
    let seeding = this.seeding.get(state);
    if (!seeding) {
      const make = async () => {
        const purchase = await this.register(signal);
        const toValidate = purchase && state === 'validated' ? this.purchases.claim(purchase, 'validatePurchase') : undefined;
        if (toValidate) await this.act('validatePurchase', toValidate, signal);
      };
      seeding = make().finally(() => this.seeding.delete(state));
      this.seeding.set(state, seeding);
    }
    return seeding;
  }

  /** A purchase the action is allowed on: a known one, else one registered (and validated) for it. */
  private async purchaseFor(action: DemoPurchaseAction, signal: AbortSignal): Promise<DemoPurchase | undefined> {
    if (this.random() < CONFLICT_SHARE) {
      const wrong = this.purchases.conflict(this.random);
      if (wrong) return wrong;
    }
    const known = this.purchases.take(action, this.random);
    if (known) return known;
    // Validate and cancel use a purchase up: each registers its own. URLs share one seeded purchase.
    if (action === 'validatePurchase' || action === 'cancelPurchase') {
      const own = await this.register(signal);
      return own ? this.purchases.claim(own, action) : undefined;
    }
    await this.seed(action === 'downloadUrl' ? 'validated' : 'registered', signal);
    return this.purchases.take(action, this.random);
  }

  private async act(action: DemoPurchaseAction, purchase: DemoPurchase, signal: AbortSignal): Promise<void> {
    const bg = { signal, priority: 'background' as const };
    const parts =
      action === 'validatePurchase'
        ? validateRequest(this.map, { purchaseId: purchase.id, assetId: purchase.assetId ?? this.pick(this.assetIds) ?? 0 })
        : purchaseRequest(this.map, action, purchase.id);
    try {
      await this.options.client.request(action, { ...parts, ...bg });
      this.purchases.settle(purchase, action, true);
    } catch (e) {
      this.purchases.settle(purchase, action, false);
      throw e;
    }
  }

  private async listPage(signal: AbortSignal, lastId: Id | null | undefined): Promise<void> {
    const res = await this.options.client.request('listAssets', { ...listRequest(this.map, 20, lastId ?? null), signal, priority: 'background' });
    this.learnAssets(readAssetPage(res.body, this.map).value.items);
  }

  private async register(signal: AbortSignal): Promise<DemoPurchase | undefined> {
    const assetId = await this.assetId(signal);
    if (assetId === undefined) return undefined;
    const res = await this.options.client.request('registerPurchase', {
      ...registerRequest(this.map, assetId, `demo-traffic-${++this.seq}`),
      signal,
      priority: 'background',
    });
    return this.learnPurchase(res.body, assetId);
  }

  private async send(endpoint: EndpointId, signal: AbortSignal): Promise<void> {
    const { client } = this.options;
    const bg = { signal, priority: 'background' as const };
    switch (endpoint) {
      case 'listAssets':
        // Now the first page, now a page further on, as someone paging through the table.
        return this.listPage(signal, this.random() < 0.3 ? null : this.pick(this.assetIds));
      case 'searchAssets': {
        const res = await client.request('searchAssets', { ...searchRequest(this.map, this.pick(SEARCH_WORDS) ?? 'castle', null, 20), ...bg });
        this.learnAssets(readSearch(res.body, this.map).value.items);
        return;
      }
      case 'assetHistory': {
        const assetId = await this.assetId(signal);
        if (assetId !== undefined) await client.request('assetHistory', { ...historyRequest(this.map, assetId), ...bg });
        return;
      }
      case 'categories':
        await client.request('categories', bg);
        return;
      case 'registerPurchase':
        await this.register(signal);
        return;
      case 'purchaseInfo': {
        if (this.purchases.any(this.random) === undefined) await this.seed('registered', signal);
        const purchase = this.purchases.any(this.random);
        if (purchase) await client.request('purchaseInfo', { ...purchaseRequest(this.map, 'purchaseInfo', purchase.id), ...bg });
        return;
      }
      case 'validatePurchase':
      case 'downloadUrl':
      case 'viewUrl':
      case 'cancelPurchase': {
        const purchase = await this.purchaseFor(endpoint, signal);
        if (purchase) await this.act(endpoint, purchase, signal);
        return;
      }
    }
  }
}
