/** Public types of the simulator. */
import type { EndpointId } from '../../shared/endpoints';
import type { SimDialect } from '../../shared/sim-dialects';
import type { RefillModel } from './budget';

export type { RefillModel } from './budget';

export interface VendorToken {
  vendor: string;
  token: string;
}

export interface FaultConfig {
  /** Fixed added latency, ms. */
  latencyMs: number;
  /** Plus uniform random 0..jitterMs. */
  jitterMs: number;
  /** Share 0..1 of budgeted requests answered 500 or 503 (JSON error body, headers, budget used, action not run). */
  errorRate: number;
  /** Share 0..1 of budgeted requests whose connection is destroyed with no answer, AFTER the action ran. */
  dropRate: number;
  /** Share 0..1 of budgeted responses with missing or garbled X-Rate-Limit-* headers. */
  garbleRate: number;
}

/** Another consumer of that vendor's budget for one endpoint, in-process. */
export interface CompetitorConfig {
  vendor: string;
  endpoint: EndpointId;
  rps: number;
}

export interface SimulatorOptions {
  port?: number;
  host?: string;
  refill?: RefillModel;
  catalogSize?: number;
  seed?: number;
  tokens?: VendorToken[];
  faults?: Partial<FaultConfig>;
  competitors?: CompetitorConfig[];
  /** Payload dialect (default 'default', the built-in demo's shapes); the service behind it is the same. */
  dialect?: SimDialect;
  /** Honour an Idempotency-Key header on registration (replay the first answer; 409 while it is in flight). Default off. */
  idempotencyKeys?: boolean;
  /** Epoch ms; default Date.now. Tests inject a controllable clock. */
  clock?: () => number;
  /** 0 <= x < 1; default Math.random. Faults use it. */
  random?: () => number;
}

/**
 * One line of the request tally. vendor null: no valid token (401) or never authenticated (404 route,
 * 405, 406); endpoint null: unknown route. status 0: connection dropped by the drop fault (no answer).
 * competitor true: a slot taken (or refused) by an in-process competing consumer.
 */
export interface Counter {
  vendor: string | null;
  endpoint: EndpointId | null;
  status: number;
  count: number;
  competitor?: true;
}

export interface VendorSummary {
  vendor: string;
  tokenCount: number;
}

export interface SimulatorState {
  refill: RefillModel;
  dialect: SimDialect;
  faults: FaultConfig;
  competitors: CompetitorConfig[];
  catalogSize: number;
  seed: number;
  /** Vendors and how many tokens each holds (the tokens themselves are not served over HTTP). */
  vendors: VendorSummary[];
  counters: Counter[];
}

export interface SimulatorControl {
  state(): SimulatorState;
  setRefill(model: RefillModel): void;
  /** Switches the payload dialect (RangeError on an unknown name); catalog, purchases and budgets stay. */
  setDialect(name: SimDialect): void;
  /** Validates the patch (throws RangeError on bad values) and returns the whole new config. */
  setFaults(patch: Partial<FaultConfig>): FaultConfig;
  /** Replaces the competing consumers; throws RangeError on an unknown vendor or bad rps. */
  setCompetitors(list: CompetitorConfig[]): void;
  resetBudgets(): void;
  /** Budgets, purchases and counters. */
  resetAll(): void;
  counters(): Counter[];
}

export interface RunningSimulator {
  /** 'http://127.0.0.1:PORT', no trailing slash: the partner API's base URL. */
  url: string;
  port: number;
  tokens: VendorToken[];
  control: SimulatorControl;
  /** Closes the listener, every socket (keep-alive too), pending latency timers and competitor timers. Idempotent. */
  stop(): Promise<void>;
}
