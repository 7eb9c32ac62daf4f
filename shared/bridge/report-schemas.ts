/**
 * The Usage report over the bridge (issue 12 §2): the `usageReport` call. The report itself is built
 * by shared/usage-report.ts from the stored usage rows; the CLI prints the same object.
 */
import { z } from 'zod';

export const usageReportRequestSchema = z
  .object({
    /** Default: the connected profile. */
    profileId: z.string().min(1).max(200).optional(),
    /** Default: the profile's vendor. */
    vendor: z.string().min(1).max(200).optional(),
    fromMs: z.number().int().nonnegative(),
    /** Exclusive. */
    toMs: z.number().int().positive(),
    /** IANA time zone that days and hours of day are counted in (the viewer's); default UTC. */
    timeZone: z.string().min(1).max(100).optional(),
  })
  .refine((r) => r.toMs > r.fromMs, { message: 'toMs must be after fromMs', path: ['toMs'] })
  .refine((r) => r.toMs - r.fromMs <= 400 * 86_400_000, { message: 'A report covers at most 400 days', path: ['toMs'] });

/**
 * One endpoint on one day. Use is a share of the limit (0..1). Mean use: of the whole budget, this app's
 * and the other consumers' (shared/usage-report.ts budgetUseOf), as the Budget view reads it; peak use: the highest
 * 1 - Remaining/Limit of an answer, null when no answer carried the headers.
 */
export const reportDaySchema = z.object({
  day: z.string(),
  endpoint: z.string(),
  requests: z.number(),
  meanUse: z.number().nullable(),
  /** This app's part of meanUse (per second with requests, the share of the limit the server served it); null for the older measure. */
  meanUseOurs: z.number().nullable(),
  /** The mean use is the older per-answer measure (mean of 1 - Remaining/Limit): the day was stored before the per-second one. */
  meanUseOlder: z.boolean(),
  peakUse: z.number().nullable(),
  /** Our 429 answers. */
  throttled: z.number(),
  /** Of our 429s, those other consumers' use explains (per stored bucket: at most their requests). */
  throttledByOthers: z.number(),
  /** Requests of other consumers, inferred from Remaining. */
  othersRequests: z.number(),
  /** No answer or a 5xx. */
  failures: z.number(),
  /** Mean wait for budget per request (ms). */
  waitMeanMs: z.number().nullable(),
  /** 95th percentile of the per-bucket mean wait, weighted by requests (ms): the stored rows keep sums only. */
  waitP95Ms: z.number().nullable(),
  /** Share of the time (stored buckets with traffic) requests spent held back for budget, 0..1: per bucket its waits over its length, capped at 1 (an upper estimate: overlapping waits each count). */
  heldBackShare: z.number().nullable(),
});

/** Use by hour of day (0..23, in the report's time zone) for one endpoint. */
export const reportHeatCellSchema = z.object({
  endpoint: z.string(),
  hour: z.number().int().min(0).max(23),
  requests: z.number(),
  meanUse: z.number().nullable(),
  meanUseOurs: z.number().nullable(),
  /** As in a day: the older per-answer measure. */
  meanUseOlder: z.boolean(),
  peakUse: z.number().nullable(),
  throttled: z.number(),
});

export const busyMinuteSchema = z.object({
  startMs: z.number(),
  /** Every endpoint's requests in that minute. */
  requests: z.number(),
  throttled: z.number(),
  peakUse: z.number().nullable(),
  /** The endpoint with most requests in it. */
  topEndpoint: z.string(),
});

export const usageReportSchema = z.object({
  profileId: z.string().nullable(),
  profileName: z.string().nullable(),
  vendor: z.string().nullable(),
  fromMs: z.number(),
  toMs: z.number(),
  timeZone: z.string(),
  /** Endpoints with traffic in the period, in the catalog's order. */
  endpoints: z.array(z.string()),
  days: z.array(reportDaySchema),
  heatMap: z.array(reportHeatCellSchema),
  busiestMinutes: z.array(busyMinuteSchema),
  /** Start of the part read from per-hour rows (older than the per-minute retention), else null. */
  hourlyBeforeMs: z.number().nullable(),
  /**
   * In a zone whose offset is not whole hours (Asia/Kolkata: 30), the minute past the local hour at
   * which the per-hour rows start: the history keeps whole UTC hours, so before hourlyBeforeMs each
   * row counts in the day and hour of day its hour starts in, and days run from that minute to that
   * minute. null when the per-hour rows align with local hours, or none are read.
   */
  hourlyEdgeMinute: z.number().int().nullable().default(null),
  /** Why there is nothing to read (no store), else null. */
  problem: z.string().nullable(),
});

export type UsageReportRequest = z.output<typeof usageReportRequestSchema>;
export type UsageReport = z.output<typeof usageReportSchema>;
export type ReportDay = z.output<typeof reportDaySchema>;
export type ReportHeatCell = z.output<typeof reportHeatCellSchema>;
export type BusyMinute = z.output<typeof busyMinuteSchema>;

export const reportCalls = {
  usageReport: { request: usageReportRequestSchema, response: usageReportSchema },
} as const;
