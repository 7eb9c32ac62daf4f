/**
 * The service map: how each endpoint of one Partner service is called and how its answers are
 * read. The specification shows no payloads, so every name here is a setting; the defaults are the
 * built-in simulator's dialect (DEFAULT_SERVICE_MAP). JSON-exportable and importable (parseServiceMap).
 * Paths are shared/service-map/path.ts's (`data[].attributes.title`, `a|b` alternatives).
 */
import { z } from 'zod';
import { isPath, unsafeSegment } from './field-path';

export const SERVICE_MAP_VERSION = 1;

/** `__proto__`, `constructor`, `prototype` would reach the process's prototypes when a body is built. */
const UNSAFE_MESSAGE = 'must not use __proto__, constructor or prototype as a field name';
const path = z
  .string()
  .trim()
  .max(300)
  .superRefine((p, ctx) => {
    if (unsafeSegment(p) !== null) ctx.addIssue({ code: 'custom', message: UNSAFE_MESSAGE });
    else if (!isPath(p)) ctx.addIssue({ code: 'custom', message: 'not a field path (e.g. items, meta.total, data[].attributes.title)' });
  });
/** null: not in this service's answers (or "the answer itself" where said). */
const optionalPath = path.nullable();
const name = z
  .string()
  .trim()
  .min(1, 'a name is required')
  .max(400)
  .refine((n) => unsafeSegment(n) === null, UNSAFE_MESSAGE)
  // '.' alone names no field: a body would be sent without it.
  .refine((n) => /[^.\s|]/.test(n), 'names no field');

/**
 * Names one request would write twice, or cannot write: the second value overwrites the first (a registration whose
 * reference takes the asset id's place buys whatever the service makes of "pc-…"), or nothing is sent. `a|b`
 * alternatives are for the search fields, which detection may leave undecided; elsewhere a name is one name.
 */
function nameClashes(m: {
  register: { assetIdField: string; referenceField: string | null };
  search: { textField: string; categoryField: string | null; limitField: string | null };
  history: { assetIdField: string };
  purchaseId: Record<string, { name: string }>;
}): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const overlap = (a: string, b: string): boolean => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
  const { assetIdField, referenceField } = m.register;
  if (referenceField !== null && overlap(assetIdField, referenceField))
    out.push({ path: ['register', 'referenceField'], message: "must not be the asset id's field or hold it (one would overwrite the other)" });
  const single: [(string | number)[], string | null][] = [
    [['register', 'assetIdField'], assetIdField],
    [['register', 'referenceField'], referenceField],
    [['history', 'assetIdField'], m.history.assetIdField],
    ...Object.entries(m.purchaseId).map(([k, p]): [(string | number)[], string] => [['purchaseId', k, 'name'], p.name]),
  ];
  for (const [path, n] of single) {
    if (n !== null && n.includes('|')) out.push({ path, message: 'is one name: `a|b` alternatives are for the search fields only' });
  }
  const text = m.search.textField.split('|');
  for (const [key, field] of [
    ['categoryField', m.search.categoryField],
    ['limitField', m.search.limitField],
  ] as const) {
    if (field !== null && field.split('|').some((f) => text.includes(f)))
      out.push({ path: ['search', key], message: 'must not share a name with the search text' });
  }
  return out;
}

/** Where a purchase id (or another argument) goes: a query parameter or a JSON body field. */
export const placementSchema = z.object({ in: z.enum(['query', 'body']), name });
export type Placement = z.output<typeof placementSchema>;

export const CANONICAL_STATES = ['registered', 'validated', 'cancelled', 'other'] as const;
export type CanonicalState = (typeof CANONICAL_STATES)[number];
/** Purchase operations on an existing purchase: what a state may allow. */
export const PURCHASE_ACTIONS = ['purchaseInfo', 'validatePurchase', 'downloadUrl', 'viewUrl', 'cancelPurchase'] as const;
export type PurchaseAction = (typeof PURCHASE_ACTIONS)[number];

export const stateWordSchema = z.object({
  /** The service's word, compared case-insensitively. */
  word: name,
  state: z.enum(CANONICAL_STATES),
  actions: z.array(z.enum(PURCHASE_ACTIONS)),
});
export type StateWord = z.output<typeof stateWordSchema>;

export const TIME_FORMATS = ['iso', 'epoch-s', 'epoch-ms', 'auto'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];

/** Headers the client writes itself: never a map's idempotency header. */
const RESERVED_HEADERS = new Set(['authorization', 'accept', 'content-type', 'content-length', 'host', 'cookie', 'connection', 'transfer-encoding']);

export const serviceMapSchema = z
  .object({
    version: z.literal(SERVICE_MAP_VERSION),
    list: z
      .object({
        /** The items' array; null: a top-level array or the body's first array property. */
        items: optionalPath,
        /** Query parameter of the page size; null: the service's page size is unknown (none sent). */
        pageSizeParam: name.nullable(),
        pageSizeMax: z.number().int().min(1).max(10_000),
        /** Query parameter that carries the cursor (the spec's `last_id`). */
        cursorParam: name,
        /** Body path of the next cursor; null: the last item's id. A null value there ends the catalog. */
        cursor: optionalPath,
        /** Body path of "more pages follow" (false ends the catalog). */
        hasMore: optionalPath,
        total: optionalPath,
      })
      // One query parameter cannot be both: the first page would send the page size as its cursor, and
      // the service would answer the items after it, a page short, with nothing to tell.
      .refine((l) => l.pageSizeParam === null || l.pageSizeParam !== l.cursorParam, {
        message: "the page-size parameter cannot have the cursor parameter's name",
        path: ['pageSizeParam'],
      }),
    search: z.object({
      textField: name,
      /** null: the service takes no category filter. */
      categoryField: name.nullable(),
      /** How a category id is sent: as text, or as a number where the service numbers its categories. */
      categoryType: z.enum(['string', 'number']).default('string'),
      limitField: name.nullable(),
      items: optionalPath,
      total: optionalPath,
    }),
    categories: z.object({ items: optionalPath }),
    history: z.object({ assetIdField: name, points: optionalPath }),
    register: z.object({
      assetIdField: name,
      /** Field that carries the client's reference; null: the service takes none. */
      referenceField: name.nullable(),
    }),
    /** How the purchase id is sent to each purchase endpoint. */
    purchaseId: z.object({
      purchaseInfo: placementSchema,
      downloadUrl: placementSchema,
      viewUrl: placementSchema,
      cancelPurchase: placementSchema,
    }),
    /** Validate takes the purchase's id or the asset's id, in this place. */
    validate: placementSchema.extend({ takes: z.enum(['purchase', 'asset']) }),
    /** Finding purchases by the registration's reference (purchase info); null: the service has no such lookup. */
    lookupByReference: placementSchema.extend({ items: optionalPath }).nullable(),
    /**
     * Header that carries the registration's client reference as an idempotency key (the IETF httpapi
     * draft's and Stripe's name by default); null: none sent. Defaulted so that maps saved before it still load.
     */
    idempotencyHeader: z
      .string()
      .trim()
      .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'not an HTTP header name')
      .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), 'a header the client sets itself')
      .nullable()
      .default('Idempotency-Key'),
    asset: z.object({
      id: path,
      title: optionalPath,
      category: optionalPath,
      price: optionalPath,
      priceUnit: z.enum(['major', 'minor']),
      /** Path of the currency code (a string, or an object with a code); null: fixedCurrency. */
      currency: optionalPath,
      fixedCurrency: z.string().trim().max(10).nullable(),
    }),
    category: z.object({ id: path, name: optionalPath, count: optionalPath }),
    historyPoint: z.object({ time: path, timeFormat: z.enum(TIME_FORMATS), value: optionalPath, event: optionalPath }),
    /** `at`: where the purchase object is in an answer (null: the answer itself). */
    purchase: z.object({ at: optionalPath, id: path, state: optionalPath, asset: optionalPath, reference: optionalPath }),
    url: z.object({
      at: optionalPath,
      url: path,
      expiry: optionalPath,
      /** An absolute time (ISO or epoch), or seconds from now (`expires_in`). */
      expiryKind: z.enum(['time', 'seconds']),
    }),
    states: z.array(stateWordSchema).max(50),
    /** Request names learned from the service's own 400 (e.g. `register.assetIdField`), not guessed: shown as such. */
    learned: z.array(z.string().trim().min(1).max(100)).max(50).optional(),
  })
  .superRefine((m, ctx) => {
    for (const problem of nameClashes(m)) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });
export type ServiceMap = z.output<typeof serviceMapSchema>;

/**
 * The built-in simulator's dialect (and the spec's own parameter names). Its answers' arrays are
 * found where they are (null: a top-level array or the first array property), and the list's
 * cursor, has-more and total are looked for under their usual names, as before service maps.
 */
export const DEFAULT_SERVICE_MAP: ServiceMap = Object.freeze({
  version: SERVICE_MAP_VERSION,
  list: {
    items: null,
    pageSizeParam: 'per-page',
    pageSizeMax: 100,
    cursorParam: 'last_id',
    cursor: 'next_last_id|next_cursor|last_id|cursor',
    hasMore: 'has_more|hasMore',
    total: 'total|total_count|count',
  },
  search: { textField: 'query', categoryField: 'category', categoryType: 'string', limitField: 'limit', items: null, total: 'total' },
  categories: { items: null },
  history: { assetIdField: 'asset_id', points: null },
  register: { assetIdField: 'asset_id', referenceField: 'client_reference' },
  purchaseId: {
    purchaseInfo: { in: 'query', name: 'purchase_id' },
    downloadUrl: { in: 'query', name: 'purchase_id' },
    viewUrl: { in: 'query', name: 'purchase_id' },
    cancelPurchase: { in: 'query', name: 'purchase_id' },
  },
  validate: { in: 'body', name: 'purchase_id', takes: 'purchase' },
  lookupByReference: { in: 'query', name: 'client_reference', items: null },
  idempotencyHeader: 'Idempotency-Key',
  asset: { id: 'id', title: 'title', category: 'category', price: 'price', priceUnit: 'major', currency: 'currency', fixedCurrency: null },
  category: { id: 'id', name: 'name', count: 'count' },
  historyPoint: { time: 'at', timeFormat: 'iso', value: 'price', event: 'event' },
  purchase: { at: null, id: 'id', state: 'state', asset: 'asset_id', reference: 'client_reference' },
  url: { at: null, url: 'url', expiry: 'expires_at', expiryKind: 'time' },
  states: [
    { word: 'registered', state: 'registered', actions: ['purchaseInfo', 'validatePurchase', 'viewUrl', 'cancelPurchase'] },
    { word: 'validated', state: 'validated', actions: ['purchaseInfo', 'downloadUrl', 'viewUrl', 'cancelPurchase'] },
    { word: 'cancelled', state: 'cancelled', actions: ['purchaseInfo'] },
  ],
} satisfies ServiceMap) as ServiceMap;

/**
 * A map saved before a page-size parameter could not have the cursor's name, repaired rather than dropped
 * whole (its other names, shapes and states kept): it sends no page size, as a map that names none.
 */
export function withoutPageSizeClash(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const list = (value as { list?: unknown }).list;
  if (typeof list !== 'object' || list === null) return value;
  const { pageSizeParam, cursorParam } = list as { pageSizeParam?: unknown; cursorParam?: unknown };
  return typeof pageSizeParam === 'string' && pageSizeParam === cursorParam ? { ...value, list: { ...list, pageSizeParam: null } } : value;
}

export type MapParse = { ok: true; map: ServiceMap } | { ok: false; errors: string[] };

/** An imported map (a JSON text or a parsed value): the map, or every problem in words. Never throws. */
export function parseServiceMap(input: unknown): MapParse {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch (e) {
      return { ok: false, errors: [`Not JSON: ${e instanceof Error ? e.message : String(e)}`] };
    }
  }
  const parsed = serviceMapSchema.safeParse(value);
  if (parsed.success) return { ok: true, map: parsed.data };
  return { ok: false, errors: parsed.error.issues.slice(0, 20).map((i) => `${i.path.join('.') || '(map)'}: ${i.message}`) };
}
