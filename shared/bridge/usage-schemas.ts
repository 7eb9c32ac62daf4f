/**
 * Usage history over the bridge (issue 12 §1): the `usageHistory` call and the history's settings.
 * The answer is at the stored level that fits the range (seconds, minutes or hours), grouped into at
 * most ~500 points per endpoint.
 */
import { z } from 'zod';
import { ENDPOINT_IDS } from '../endpoints';

const endpointIdSchema = z.enum(ENDPOINT_IDS);

const DAY_MS = 86_400_000;

/** Sizes and retention of the stored history; read when the app opens the store. */
export const usageHistorySettingsSchema = z.object({
  /** Per-second rows are kept this long (ms); default 1 h. */
  secondRetentionMs: z.number().int().min(60_000).max(DAY_MS).optional(),
  /** Per-minute rows: default 14 days. */
  minuteRetentionMs: z
    .number()
    .int()
    .min(3_600_000)
    .max(90 * DAY_MS)
    .optional(),
  /** Per-hour rows: default 400 days. */
  hourRetentionMs: z
    .number()
    .int()
    .min(DAY_MS)
    .max(3650 * DAY_MS)
    .optional(),
  /** Off: nothing is recorded (what is stored stays readable). */
  enabled: z.boolean().optional(),
});

export const usageHistoryRequestSchema = z
  .object({
    /** Default: the connected profile. */
    profileId: z.string().min(1).max(200).optional(),
    /** Default: the connected profile's vendor. */
    vendor: z.string().min(1).max(200).optional(),
    /** Default: every endpoint. */
    endpoints: z.array(endpointIdSchema).max(50).optional(),
    fromMs: z.number().int().nonnegative(),
    /** Exclusive. */
    toMs: z.number().int().positive(),
  })
  .refine((r) => r.toMs > r.fromMs, { message: 'toMs must be after fromMs', path: ['toMs'] });

export const usageLevelSchema = z.enum(['second', 'minute', 'hour']);

/** One endpoint's figures over one point of the answer (`bucketMs` long, from `startMs`). */
export const usagePointSchema = z.object({
  endpoint: z.string(),
  startMs: z.number(),
  requests: z.number(),
  /** 429 answers. */
  throttled: z.number(),
  /** No answer or a 5xx. */
  failures: z.number(),
  lowestRemaining: z.number().nullable(),
  /**
   * Mean use of the limit (0..1): per second with requests, the share of the limit served (answered, not
   * 429), averaged over those seconds (shared/usage-report.ts meanUseOf): this app's use only (summaries add the others', budgetUseOf); null without requests.
   */
  meanUse: z.number().nullable(),
  /** meanUse is the older per-answer measure (mean of 1 - Remaining/Limit): the point was stored before the per-second one. */
  meanUseOlder: z.boolean(),
  /** Seconds with requests in the point: what meanUse is averaged over (use over the whole point: meanUse x activeSeconds / its length). */
  activeSeconds: z.number(),
  /** Seconds' worth of the whole budget used (ours and others'), summed over the point's stored rows, each capped at its own seconds (shared/usage-report.ts rowBudgetSeconds). */
  budgetSeconds: z.number(),
  /** Highest 1 - Remaining/Limit of an answer (0..1); null when no answer carried the headers. */
  peakUse: z.number().nullable(),
  waitedMs: z.number(),
  /** Requests of other consumers, inferred from Remaining. */
  foreignRequests: z.number(),
  latencyP50: z.number().nullable(),
  latencyP95: z.number().nullable(),
});

export const usageHistorySchema = z.object({
  profileId: z.string().nullable(),
  vendor: z.string().nullable(),
  level: usageLevelSchema,
  /** Length of one point (a multiple of the level's bucket). */
  bucketMs: z.number(),
  fromMs: z.number(),
  toMs: z.number(),
  /** Points with traffic only, by time then endpoint; an empty list means no history for the range. */
  points: z.array(usagePointSchema),
  /** Why there is nothing to read (the store could not be opened), else null. */
  problem: z.string().nullable(),
});

export type UsageHistoryRequest = z.output<typeof usageHistoryRequestSchema>;
export type UsageHistory = z.output<typeof usageHistorySchema>;
export type UsagePoint = z.output<typeof usagePointSchema>;
export type UsageHistorySettings = z.output<typeof usageHistorySettingsSchema>;

export const usageCalls = {
  usageHistory: { request: usageHistoryRequestSchema, response: usageHistorySchema },
} as const;
