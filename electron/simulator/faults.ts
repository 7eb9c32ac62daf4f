/**
 * Fault injection: latency, 5xx errors, dropped connections and garbled rate-limit headers.
 * Every random choice goes through the injected random(), so a seeded random replays a run.
 */
import { z } from 'zod';
import { RATE_LIMIT_HEADERS } from '../../shared/rate-limit';
import type { FaultConfig } from './types';

export const NO_FAULTS: FaultConfig = { latencyMs: 0, jitterMs: 0, errorRate: 0, dropRate: 0, garbleRate: 0 };

const ms = z.number().min(0).max(60_000);
const rate = z.number().min(0).max(1);

export const faultPatchSchema = z.object({ latencyMs: ms, jitterMs: ms, errorRate: rate, dropRate: rate, garbleRate: rate }).partial().strict();

/** Issues of a zod error as one readable line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
}

/** The patch applied to the current config; throws RangeError naming every bad field. */
export function applyFaultPatch(current: FaultConfig, patch: unknown): FaultConfig {
  const parsed = faultPatchSchema.safeParse(patch ?? {});
  if (!parsed.success) throw new RangeError(`bad faults: ${describeIssues(parsed.error)}`);
  const next = { ...current };
  for (const [k, v] of Object.entries(parsed.data) as [keyof FaultConfig, number | undefined][]) {
    if (v !== undefined) next[k] = v;
  }
  return next;
}

/** Delay before answering: latencyMs plus uniform 0..jitterMs (random drawn only when jitter is on). */
export function delayFor(f: FaultConfig, random: () => number): number {
  return f.latencyMs + (f.jitterMs > 0 ? random() * f.jitterMs : 0);
}

/** Whether a fault with this rate hits (random drawn only when the rate is above 0). */
export function hits(rateValue: number, random: () => number): boolean {
  return rateValue > 0 && random() < rateValue;
}

export type HeaderBag = Record<string, string | string[]>;

export const GARBLE_KINDS = ['missing', 'non-numeric', 'negative', 'huge', 'repeated'] as const;
export type GarbleKind = (typeof GARBLE_KINDS)[number];

const HEADER_NAMES = [RATE_LIMIT_HEADERS.limit, RATE_LIMIT_HEADERS.remaining, RATE_LIMIT_HEADERS.reset];

/**
 * Spoils the rate-limit headers in `headers` in one of five ways. Every way leaves at least one
 * header that a tolerant parser must report as unknown or contradictory.
 */
export function garbleHeaders(headers: HeaderBag, random: () => number): GarbleKind {
  const kind = GARBLE_KINDS[Math.min(GARBLE_KINDS.length - 1, Math.floor(random() * GARBLE_KINDS.length))]!;
  const name = HEADER_NAMES[Math.min(2, Math.floor(random() * 3))]!;
  const current = String(headers[name] ?? '0');
  switch (kind) {
    case 'missing':
      for (const n of HEADER_NAMES) delete headers[n];
      break;
    case 'non-numeric':
      headers[name] = 'soon';
      break;
    case 'negative':
      headers[name] = '-1';
      break;
    case 'huge':
      headers[name] = '18446744073709551616';
      break;
    case 'repeated':
      headers[name] = [current, String(Number(current) + 1)];
      break;
  }
  return kind;
}
