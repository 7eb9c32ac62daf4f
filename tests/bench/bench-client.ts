/**
 * What every client in the benchmark looks like: Partner Console's own client and the three
 * baselines written for the comparison. A call resolves to its final status (never throws) and
 * how long it waited before the attempt that got that status was sent.
 */
import type { EndpointId } from '../../shared/endpoints';

export interface BenchCall {
  query?: Record<string, string | number>;
  body?: unknown;
  token: string;
}

export interface BenchOutcome {
  /** Final HTTP status; 0 when the client gave up without one. */
  status: number;
  /** From the call until its last attempt was sent: pacing, queueing and backoff together. */
  waitedMs: number;
  /** Parsed JSON body of the final answer, when there was one. */
  body?: unknown;
}

export interface BenchClient {
  readonly name: string;
  request(endpoint: EndpointId, call: BenchCall): Promise<BenchOutcome>;
  close(): void;
}

export type BenchClientKind = 'partner-console' | 'naive' | 'retry-only' | 'bottleneck';
export const BENCH_CLIENT_KINDS: BenchClientKind[] = ['partner-console', 'naive', 'retry-only', 'bottleneck'];
