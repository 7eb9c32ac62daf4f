/** Data shapes that cross the bridge (besides shared/catalog.ts and shared/rate-limit.ts). */
import { z } from 'zod';
import { ENDPOINT_IDS } from '../endpoints';
import { ERROR_CODES } from '../errors';
import { SIM_DIALECTS } from '../sim-dialects';
import { assetSchema, categorySchema, historyEntrySchema, purchaseSchema } from '../catalog';
import { readInfoShape } from '../service-map/bridge';
import { serviceMapSchema } from '../service-map/schema';
import { secondFieldsShape } from '../second-fields';
import { usageHistorySettingsSchema } from './usage-schemas';
import { alertSettingsSchema } from './alert-schemas';
import { budgetStoreInputSchema } from '../budget-store-url';
import { GIVE_UP_AFTER_MINUTES } from '../background-work';
import { exactIdSchema } from '../ids';

/** missing / warnings / raw: what a map-read answer could not read. */
export const readInfo = readInfoShape;

export const endpointIdSchema = z.enum(ENDPOINT_IDS);
export const errorDataSchema = z.object({
  code: z.enum(ERROR_CODES),
  message: z.string(),
  status: z.number().optional(),
  endpoint: z.string().optional(),
  retryable: z.boolean(),
  hint: z.string().optional(),
  body: z.unknown().optional(),
});

const cursorSchema = exactIdSchema;

export const pageSchema = z.object({
  items: z.array(assetSchema),
  /** Cursor to pass as lastId for the next page; null at the end. */
  cursor: cursorSchema.nullable(),
  done: z.boolean(),
  total: z.number().nullable(),
  ...readInfo,
});

export const searchResultSchema = z.object({ items: z.array(assetSchema), total: z.number().nullable(), ...readInfo });
export const categoriesSchema = z.object({ items: z.array(categorySchema), ...readInfo });
export const historySchema = z.object({ assetId: cursorSchema, items: z.array(historyEntrySchema), ...readInfo });

export const urlResultSchema = z.object({ purchaseId: z.string(), url: z.string(), expiresAt: z.string().nullable(), ...readInfo });
/** A purchase made in this session, with its last known state. */
export const sessionPurchaseSchema = z.object({
  purchase: purchaseSchema,
  assetTitle: z.string().nullable(),
  updatedAt: z.number(),
});

export const downloadFormatSchema = z.enum(['jsonl', 'csv']);
export const downloadProgressSchema = z.object({
  state: z.enum(['idle', 'running', 'paused', 'done', 'failed', 'cancelled']),
  format: downloadFormatSchema,
  outPath: z.string().nullable(),
  pages: z.number(),
  items: z.number(),
  requests: z.number(),
  requestsPerSecond: z.number(),
  waitedMs: z.number(),
  rateLimited: z.number(),
  total: z.number().nullable(),
  etaSeconds: z.number().nullable(),
  bytes: z.number(),
  error: errorDataSchema.nullable(),
  /** Waiting for a budget other consumers use too: a state, not a failure ("sharing /assets/list with about 7 other consumers"). */
  sharing: z.object({ endpoint: z.string(), consumers: z.number(), message: z.string() }).nullable().default(null),
  /** An unfinished download of the shown profile's catalog left on disk by a quit or a disconnect: offered to resume. */
  interrupted: z.object({ format: downloadFormatSchema, outPath: z.string(), pages: z.number(), items: z.number() }).nullable().default(null),
  /** The profile whose download these figures are; null: no download (asked for a profile: none of its own). */
  profileId: z.string().nullable().default(null),
  /** Another profile's download is running (one runs at a time): shown as such; only that profile pauses or cancels it. */
  otherProfile: z.object({ id: z.string(), name: z.string() }).nullable().default(null),
});

export const tokenPresentationSchema = z.object({
  /** Header that carries the token; default Authorization. */
  header: z
    .string()
    .min(1)
    .regex(/^[A-Za-z0-9-]+$/, 'a header name: letters, digits and dashes'),
  /** Scheme before the token (e.g. Bearer); null sends the bare token. */
  scheme: z.string().nullable(),
});

/** A profile as the renderer sees it: tokens only as ids and masked forms. */
export const profileViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string(),
  baseUrl: z.string(),
  demo: z.boolean(),
  /** lost: the vault cannot open it any more (a memory-only token from before a restart): it must be entered again. */
  /** publicText: the token itself, sent only for the built-in demo's public tokens (main decides); a real token never crosses. */
  tokens: z.array(z.object({ id: z.string(), masked: z.string(), lost: z.boolean().optional(), publicText: z.string().optional() })),
  tokenPresentation: tokenPresentationSchema,
  /** The profile form's two names, read from the profile's service map (the one source of payload names). */
  pageSizeParam: z.string(),
  idField: z.string(),
  /** The fleet's budget store (redis://host:port/db), credentials masked; absent: none, headers only. */
  budgetStore: z.string().optional(),
});

export const profileInputSchema = z.object({
  /** Absent: a new profile. */
  id: z.string().optional(),
  name: z.string().trim().min(1, 'a name is required').max(80),
  vendor: z.string().trim().min(1, 'a vendor is required').max(80),
  baseUrl: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }),
  /** Tokens to add (plain text goes main-ward only, never back). */
  addTokens: z.array(z.string().trim().min(1).max(4096)).default([]),
  /** Token ids to remove. */
  removeTokenIds: z.array(z.string()).default([]),
  /**
   * Absent keeps the profile's (a new one: Authorization: Bearer), as the two names below keep the map's: a save
   * names what it changes, so that one from a script, or a form opened before the service taught a name, does not
   * put older values back.
   */
  tokenPresentation: tokenPresentationSchema.optional(),
  /** Written into the profile's service map where they differ from it (unless a map is given); absent: kept. */
  pageSizeParam: z.string().trim().min(1).max(64).optional(),
  idField: z.string().trim().min(1).max(64).optional(),
  /** A service map to store with the profile (import); absent: the profile keeps its own. */
  serviceMap: serviceMapSchema.optional(),
  /** redis://host:port/db (or rediss://) to share the vendor's budget with a fleet; '' removes it; absent keeps it. */
  budgetStore: budgetStoreInputSchema.optional(),
});

export const connectionTestSchema = z.object({
  ok: z.boolean(),
  status: z.number(),
  latencyMs: z.number(),
  limit: z.number().nullable(),
  remaining: z.number().nullable(),
  reset: z.number().nullable(),
  error: errorDataSchema.nullable(),
});

export const settingsSchema = z.object({
  theme: z.enum(['system', 'light', 'dark']),
  downloadDir: z.string(),
  /** Page size used by the Assets table. */
  pageSize: z.number().int().min(1).max(100),
  /** Request timeout per attempt. */
  timeoutMs: z.number().int().min(1000).max(120_000),
  /** Response-size cap in MiB (default 64): a bigger answer fails with RESPONSE_TOO_LARGE. */
  maxResponseMiB: z.number().int().min(1).max(4096).optional(),
  /** Background work (downloads, background pages) gives up after this long without any success for anyone (default: shared/background-work.ts). */
  giveUpAfterMinutes: z.number().int().min(GIVE_UP_AFTER_MINUTES.min).max(GIVE_UP_AFTER_MINUTES.max).optional(),
  /** Usage history: retention per level, on or off (shared/bridge/usage-schemas.ts). */
  usageHistory: usageHistorySettingsSchema.optional(),
  /** Alerts: quiet mode (shared/bridge/alert-schemas.ts). */
  alerts: alertSettingsSchema.optional(),
});

/** One endpoint's bucket as the client models it now. */
export const bucketViewSchema = z.object({
  endpoint: endpointIdSchema,
  limit: z.number(),
  /** Last Remaining the server reported, less what we sent since; null before the first response. */
  remaining: z.number().nullable(),
  /** Epoch ms until which the bucket is paused after a 429; null when not paused. */
  pausedUntil: z.number().nullable(),
  /** Epoch ms when the server says the budget is full again; null when unknown. */
  resetAt: z.number().nullable(),
  queued: z.number(),
  inFlight: z.number(),
});

/**
 * Number of the budget event (1, 2, ...) of this main process; budgetHistory says the last one its
 * answer includes, so a page joins history and live events without losing or counting anything twice.
 */
export const budgetSeqSchema = z.number().int().nonnegative().default(0);

/** Samples aggregated per (vendor, endpoint) and server second (from = the second, to = from + 1000); the figures: shared/second-fields.ts. */
export const budgetAggregateSchema = z.object({
  vendor: z.string(),
  endpoint: endpointIdSchema,
  from: z.number(),
  to: z.number(),
  ...secondFieldsShape,
});

export const logEntrySchema = z.object({
  id: z.number(),
  at: z.number(),
  vendor: z.string(),
  endpoint: endpointIdSchema,
  method: z.string(),
  /** Path and query, no token. */
  path: z.string(),
  status: z.number(),
  latencyMs: z.number(),
  waitedMs: z.number(),
  attempt: z.number(),
  limit: z.number().nullable(),
  remaining: z.number().nullable(),
  reset: z.number().nullable(),
  errorCode: z.enum(ERROR_CODES).nullable(),
});

export const logDetailSchema = logEntrySchema.extend({
  /** Tokens masked. */
  requestHeaders: z.record(z.string(), z.string()),
  requestBody: z.string().nullable(),
  /** The request body is only its start (bodies over a few KB are cut): it must not be sent again as if whole. */
  requestBodyCut: z.boolean(),
  responseHeaders: z.record(z.string(), z.string()),
  /** First few KB. */
  responseBody: z.string().nullable(),
  headerProblems: z.array(z.string()),
  /** Where the request went (scheme, host, port; never credentials); null when it was never sent. */
  origin: z.string().nullable(),
  /** Path and query exactly as sent, percent-encoding kept (Copy as curl sends it verbatim); `path` is for reading. */
  target: z.string(),
  /** False once the bounded log let this entry's headers and bodies go (or none were recorded): no command can be rebuilt. */
  detailKept: z.boolean(),
  /** The header that carried the token and its scheme word (names only), for Copy as curl; null: none the app knows. */
  tokenHeader: z.object({ header: z.string(), scheme: z.string().nullable() }).nullable(),
});

/** How far back the newest `limit` entries of main's log reach (the Requests view's span), without sending them. */
export const logSpanSchema = z.object({
  /** The oldest of them; null when the log is empty. */
  oldestAt: z.number().nullable(),
  /** How many there are (at most `limit`). */
  count: z.number().int(),
  /** Entries main's log keeps. */
  capacity: z.number().int(),
  /** Entries main's log let go so far. */
  dropped: z.number(),
});

/** Entries whose method, path, status, error code or bodies (masked) contain the text: their ids, newest first. */
export const logSearchSchema = z.object({
  ids: z.array(z.number()),
  /** Entries looked at (the whole bounded log), and how many of them still had their bodies. */
  scanned: z.number(),
  withBodies: z.number(),
});

export const refillModelSchema = z.enum(['continuous', 'whole-second']);
export const faultConfigSchema = z.object({
  latencyMs: z.number().min(0).max(10_000),
  jitterMs: z.number().min(0).max(10_000),
  errorRate: z.number().min(0).max(1),
  dropRate: z.number().min(0).max(1),
  garbleRate: z.number().min(0).max(1),
});
export const competitorSchema = z.object({ vendor: z.string(), endpoint: endpointIdSchema, rps: z.number().min(0).max(1000) });
export const demoTrafficSchema = z.object({
  /** Share of each endpoint's limit the app's own client asks for; 0 stops. */
  share: z.number().min(0).max(2),
  endpoints: z.array(endpointIdSchema),
});

export const simDialectSchema = z.enum(SIM_DIALECTS);

export const simStateSchema = z.object({
  url: z.string(),
  refill: refillModelSchema,
  dialect: simDialectSchema,
  faults: faultConfigSchema,
  competitors: z.array(competitorSchema),
  demoTraffic: demoTrafficSchema,
  catalogSize: z.number(),
});

export const connectionSchema = z.object({
  state: z.enum(['connecting', 'connected', 'degraded', 'offline']),
  profileId: z.string().nullable(),
  vendor: z.string().nullable(),
  baseUrl: z.string().nullable(),
  demo: z.boolean(),
  message: z.string().nullable(),
  /** Why it is degraded (empty otherwise): a 429 alone may only mean that another consumer shares the budget. */
  causes: z.array(z.enum(['rate-limited', 'server-error', 'no-answer', 'unauthorized'])).optional(),
});

export const appInfoSchema = z.object({
  shell: z.enum(['desktop', 'web']),
  version: z.string(),
  /** How tokens are kept at rest: the OS keychain, Electron's plain-text fallback, or memory only (web mode flags). */
  tokenStorage: z.enum(['os-encrypted', 'plaintext', 'memory']),
  settingsProblem: z.string().nullable(),
});
