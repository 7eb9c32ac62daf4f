/**
 * The bridge contract, in the style of GitHub Desktop's ipc-shared.ts: every call
 * (renderer -> main, returns a promise) and every event (main -> renderer, batched) with
 * zod schemas. The preload's `window.partner`, the IPC handlers, the WebSocket bridge and
 * the renderer's transport are all generated from these two maps.
 */
import { z } from 'zod';
import { purchaseSchema } from '../catalog';
import { cursorRequestSchema, exactIdRequestSchema } from '../ids';
import { budgetSampleSchema } from '../rate-limit';
import { purchaseReadShape, serviceMapCalls } from '../service-map/bridge';
import { confirmDuplicateSchema, ledgerCalls } from './ledger-schemas';
import { profileScoped } from './profile-scoped';
import * as s from './schemas';
import { usageCalls } from './usage-schemas';
import { reportCalls } from './report-schemas';
import { alertCalls, alertEvents } from './alert-schemas';
import { sessionCalls, sessionEvents } from './session-schemas';
import { harCalls } from './har-schemas';

const none = z.object({}).strict();
const ok = z.object({ ok: z.literal(true) });
const purchaseId = z.object({ purchaseId: z.string().trim().min(1, 'a purchase id is required').max(200) }).extend(profileScoped.shape);
const assetId = exactIdRequestSchema;
/** A purchase as read through the service map (missing fields, warnings, state kind and actions). */
const purchaseRead = purchaseSchema.extend(purchaseReadShape);

const call = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res) => ({ request, response });

export const calls = {
  // catalog
  listAssets: call(z.object({ lastId: cursorRequestSchema.nullable(), pageSize: z.number().int().min(1).max(100) }).extend(profileScoped.shape), s.pageSchema),
  searchAssets: call(
    z.object({ query: z.string().max(200), category: z.string().max(100).nullable(), limit: z.number().int().min(1).max(100) }).extend(profileScoped.shape),
    s.searchResultSchema,
  ),
  categories: call(none.extend(profileScoped.shape), s.categoriesSchema),
  assetHistory: call(z.object({ assetId }).extend(profileScoped.shape), s.historySchema),
  // whole-catalog download
  downloadStart: call(
    // replace: start over even where an interrupted download of this catalog waits (the person chose to).
    z.object({ format: s.downloadFormatSchema, resume: z.boolean(), replace: z.boolean().optional() }).extend(profileScoped.shape),
    s.downloadProgressSchema,
  ),
  // Pause and cancel name the profile whose download the page showed: another profile's is refused (CONFLICT).
  downloadPause: call(none.extend(profileScoped.shape), s.downloadProgressSchema),
  downloadResume: call(none.extend(profileScoped.shape), s.downloadProgressSchema),
  downloadCancel: call(z.object({ deleteFiles: z.boolean() }).extend(profileScoped.shape), s.downloadProgressSchema),
  // profileId: the shown profile, whose interrupted download (if any) the answer names.
  downloadStatus: call(z.object({ profileId: profileScoped.shape.profileId.optional() }).strict(), s.downloadProgressSchema),
  /** The file the download wrote: shown in the file manager or opened with its app (desktop only). */
  downloadReveal: call(z.object({ action: z.enum(['show', 'open']) }), ok),
  // purchases
  purchaseInfo: call(purchaseId, purchaseRead),
  registerPurchase: call(
    z.object({ assetId, assetTitle: z.string().max(300).nullable(), confirmDuplicate: confirmDuplicateSchema.optional() }).extend(profileScoped.shape),
    purchaseRead,
  ),
  /** assetId: for services whose validate takes the asset (the service map says); else looked up. */
  validatePurchase: call(purchaseId.extend({ assetId: assetId.optional() }), purchaseRead),
  downloadUrl: call(purchaseId, s.urlResultSchema),
  viewUrl: call(purchaseId, s.urlResultSchema),
  cancelPurchase: call(purchaseId, purchaseRead),
  /** Purchases registered with this client reference, where the service map configures a lookup. */
  findPurchases: call(
    z.object({ reference: z.string().trim().min(1).max(200) }).extend(profileScoped.shape),
    z.object({ items: z.array(purchaseRead), ...s.readInfo }),
  ),
  // the purchase ledger (every session's registrations; the guard against registering twice)
  ...ledgerCalls,
  /** Opens a download or view URL the user chose in the system browser (https only). */
  openExternal: call(z.object({ url: z.url({ protocol: /^https$/, error: 'only https URLs are opened' }) }), ok),
  // profiles and settings
  listProfiles: call(none, z.object({ items: z.array(s.profileViewSchema), activeId: z.string().nullable() })),
  saveProfile: call(s.profileInputSchema, s.profileViewSchema),
  removeProfile: call(z.object({ id: z.string().min(1) }), ok),
  selectProfile: call(z.object({ id: z.string().min(1) }), s.connectionSchema),
  testConnection: call(z.object({ id: z.string().min(1) }), s.connectionTestSchema),
  getSettings: call(none, s.settingsSchema),
  saveSettings: call(s.settingsSchema.partial(), s.settingsSchema),
  appInfo: call(none, s.appInfoSchema),
  connection: call(none, s.connectionSchema),
  // service map of a profile (how its answers are read)
  ...serviceMapCalls,
  // embedded simulator (demo) controls; null / NOT_FOUND when not connected to it
  simState: call(none, s.simStateSchema.nullable()),
  simSetRefill: call(z.object({ model: s.refillModelSchema }), s.simStateSchema),
  simSetDialect: call(z.object({ dialect: s.simDialectSchema }), s.simStateSchema),
  simSetFaults: call(s.faultConfigSchema.partial(), s.simStateSchema),
  simSetCompetitors: call(z.object({ competitors: z.array(s.competitorSchema).max(20) }), s.simStateSchema),
  simSetDemoTraffic: call(s.demoTrafficSchema, s.simStateSchema),
  simReset: call(none, s.simStateSchema),
  // telemetry
  budgetSnapshot: call(none, z.object({ vendor: z.string().nullable(), buckets: z.array(s.bucketViewSchema) })),
  /** Raw samples kept in main's ring buffers, for charts that open late. */
  budgetHistory: call(z.object({ sinceMs: z.number() }), z.object({ aggregates: z.array(s.budgetAggregateSchema), seq: s.budgetSeqSchema })),
  requestLog: call(
    z.object({ endpoint: s.endpointIdSchema.nullable(), status: z.number().int().nullable(), limit: z.number().int().min(1).max(5000) }),
    z.object({ entries: z.array(s.logEntrySchema), dropped: z.number() }),
  ),
  /** The span of the newest `limit` entries (what a requestLog read of that limit would hold), without the entries. */
  requestLogSpan: call(z.object({ limit: z.number().int().min(1).max(5000) }), s.logSpanSchema),
  requestDetail: call(z.object({ id: z.number().int() }), s.logDetailSchema),
  /** The Requests view's text search, run where the bodies are: ids of the entries whose metadata or masked bodies contain it. */
  searchRequestLog: call(z.object({ text: z.string().trim().min(1).max(200) }), s.logSearchSchema),
  /** Desktop only: the request as curl with the real token, written to the clipboard by main; the answer never holds the token. */
  copyCurlWithToken: call(z.object({ requestId: z.number().int() }), z.object({ ok: z.literal(true), tokenHeader: z.string() })),
  // usage history (the local store; survives restarts)
  ...usageCalls,
  ...reportCalls,
  // alerts (rules per profile, stored alerts)
  ...alertCalls,
  // several profiles connected at once; a fleet's shared budget store
  ...sessionCalls,
  // the request log as HAR 1.2, and its replay into the built-in simulator
  ...harCalls,
} as const;

export const events = {
  /** Samples summed per (vendor, endpoint) per batch interval (<= ~20 messages/s). */
  budget: z.object({ aggregates: z.array(s.budgetAggregateSchema), seq: s.budgetSeqSchema }),
  /** New request log entries; `dropped` counts entries the bounded log let go so far. */
  requestLog: z.object({ entries: z.array(s.logEntrySchema), dropped: z.number() }),
  downloadProgress: s.downloadProgressSchema,
  connection: s.connectionSchema,
  ...alertEvents,
  ...sessionEvents,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type CallRequest<N extends CallName> = z.input<Calls[N]['request']>;
export type CallResponse<N extends CallName> = z.output<Calls[N]['response']>;
export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<N extends EventName> = z.output<Events[N]>;

export const CALL_NAMES = Object.keys(calls) as CallName[];
export const EVENT_NAMES = Object.keys(events) as EventName[];

/** What crosses the wire for a call: a value or plain error data, never a thrown object. */
export type CallResult<T> = { ok: true; value: T } | { ok: false; error: z.output<typeof s.errorDataSchema> };

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

/**
 * Calls that may act twice if sent again: a registration, a profile saved without an id (a second
 * copy), a browser tab opened. An answer lost with the connection is UNKNOWN_OUTCOME for these;
 * every other call is idempotent (a read, or it sets a state that a second call leaves as it is).
 */
export const NOT_IDEMPOTENT: ReadonlySet<CallName> = new Set<CallName>(['registerPurchase', 'saveProfile', 'openExternal']);

export function isIdempotent(name: CallName): boolean {
  return !NOT_IDEMPOTENT.has(name);
}

export { budgetSampleSchema };
