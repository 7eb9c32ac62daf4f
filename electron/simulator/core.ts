/**
 * The simulator's state and its control surface, without any HTTP: catalog, purchases, budgets,
 * counters, faults, competitors, and the timers that must die with it.
 */
import { ENDPOINTS } from '../../shared/endpoints';
import type { EndpointId } from '../../shared/endpoints';
import { AssetCatalog } from './asset-catalog';
import { BudgetBook, REFILL_MODELS } from './budget';
import type { RefillModel } from './budget';
import { CompetitorRunner, checkCompetitors } from './competitors';
import { CounterBook } from './counters';
import { dialectNamed } from './dialects';
import type { Dialect } from './dialects';
import { NO_FAULTS, applyFaultPatch } from './faults';
import { IdempotencyBook } from './idempotency';
import { PurchaseBook } from './purchases';
import { DEFAULT_TOKENS, normaliseTokens } from './tokens';
import type { CompetitorConfig, FaultConfig, SimulatorControl, SimulatorOptions, SimulatorState, VendorToken } from './types';

export const DEFAULT_CATALOG_SIZE = 5000;
export const DEFAULT_SEED = 42;

export interface SimulatorCore {
  readonly clock: () => number;
  readonly random: () => number;
  readonly catalog: AssetCatalog;
  readonly purchases: PurchaseBook;
  /** Idempotency keys on registration (answers nothing unless the mode is on). */
  readonly idempotency: IdempotencyBook;
  readonly budgets: BudgetBook;
  readonly counters: CounterBook;
  readonly tokens: VendorToken[];
  readonly vendorByToken: ReadonlyMap<string, string>;
  readonly control: SimulatorControl;
  /** Current payload dialect. */
  dialect(): Dialect;
  /** Current faults (replaced as a whole on every change). */
  faults(): FaultConfig;
  /** A timer that stop() clears. */
  later(ms: number, fn: () => void): void;
  /** Start the competitors given in the options (after the server listens). */
  startCompetitors(): void;
  /** Clear every timer: competitors and pending delayed answers. */
  stopTimers(): void;
}

export function checkRefill(model: unknown): RefillModel {
  if (!REFILL_MODELS.includes(model as RefillModel)) {
    throw new RangeError(`refill model must be one of ${REFILL_MODELS.join(', ')}, got ${JSON.stringify(model)}`);
  }
  return model as RefillModel;
}

/** Builds the core from options; throws RangeError/TypeError with a clear message on bad options. */
export function createCore(options: SimulatorOptions = {}): SimulatorCore {
  const clock = options.clock ?? Date.now;
  const random = options.random ?? Math.random;
  if (typeof clock !== 'function' || typeof random !== 'function') throw new TypeError('clock and random must be functions');
  const catalog = new AssetCatalog(options.catalogSize ?? DEFAULT_CATALOG_SIZE, options.seed ?? DEFAULT_SEED);
  const budgets = new BudgetBook(checkRefill(options.refill ?? 'whole-second'));
  const tokens = normaliseTokens(options.tokens ?? DEFAULT_TOKENS);
  const vendorByToken = new Map(tokens.map((t) => [t.token, t.vendor]));
  const vendors = new Set(tokens.map((t) => t.vendor));
  let faults = applyFaultPatch(NO_FAULTS, options.faults ?? {});
  let dialect = dialectNamed(options.dialect ?? 'default');
  const initialCompetitors = checkCompetitors(options.competitors ?? [], vendors);
  const purchases = new PurchaseBook();
  const idempotency = new IdempotencyBook(options.idempotencyKeys === true);
  const counters = new CounterBook();
  const pending = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;

  const competitorTake = (vendor: string, endpoint: EndpointId): void => {
    const d = budgets.take(vendor, endpoint, ENDPOINTS[endpoint].limit, clock());
    counters.add(vendor, endpoint, d.allowed ? 200 : 429, true);
  };
  const competitors = new CompetitorRunner(competitorTake, clock);

  const control: SimulatorControl = {
    state(): SimulatorState {
      const byVendor = new Map<string, number>();
      for (const t of tokens) byVendor.set(t.vendor, (byVendor.get(t.vendor) ?? 0) + 1);
      return {
        refill: budgets.model,
        dialect: dialect.name,
        faults: { ...faults },
        competitors: competitors.list(),
        catalogSize: catalog.size,
        seed: catalog.seed,
        vendors: [...byVendor].map(([vendor, tokenCount]) => ({ vendor, tokenCount })),
        counters: counters.list(),
      };
    },
    setRefill(model: RefillModel): void {
      budgets.setModel(checkRefill(model));
    },
    setDialect(name) {
      dialect = dialectNamed(name);
    },
    setFaults(patch: Partial<FaultConfig>): FaultConfig {
      faults = applyFaultPatch(faults, patch);
      return { ...faults };
    },
    setCompetitors(list: CompetitorConfig[]): void {
      competitors.set(checkCompetitors(list, vendors));
    },
    resetBudgets(): void {
      budgets.reset();
    },
    resetAll(): void {
      budgets.reset();
      purchases.reset();
      idempotency.clear();
      counters.reset();
    },
    counters: () => counters.list(),
  };

  return {
    clock,
    random,
    catalog,
    purchases,
    idempotency,
    budgets,
    counters,
    tokens,
    vendorByToken,
    control,
    dialect: () => dialect,
    faults: () => faults,
    later(ms, fn) {
      if (stopped) return;
      const t = setTimeout(() => {
        pending.delete(t);
        fn();
      }, ms);
      pending.add(t);
    },
    startCompetitors() {
      competitors.set(initialCompetitors);
    },
    stopTimers() {
      stopped = true;
      competitors.close();
      for (const t of pending) clearTimeout(t);
      pending.clear();
    },
  };
}
