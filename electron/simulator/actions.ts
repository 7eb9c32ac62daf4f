/**
 * The ten endpoints' actions: they run after the rate limiter let the request through, so every
 * answer here (200, 400, 404, 409) has used a slot of the budget.
 */
import { z } from 'zod';
import type { EndpointId } from '../../shared/endpoints';
import { DEFAULT_PAGE_SIZE_PARAM, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../../shared/catalog';
import type { AssetCatalog } from './asset-catalog';
import type { PurchaseAction, PurchaseBook, PurchaseOutcome } from './purchases';
import { describeIssues } from './faults';
import { errorBody } from './http-io';
import { mix32 } from './hash';

/** The request body as read: none (GET/DELETE), raw text (POST), or unreadable. */
export type BodyInput = { kind: 'none' } | { kind: 'text'; text: string } | { kind: 'too-large' };

export interface ActionContext {
  vendor: string;
  endpoint: EndpointId;
  query: URLSearchParams;
  body: BodyInput;
  nowMs: number;
  catalog: AssetCatalog;
  purchases: PurchaseBook;
}

export interface ActionResult {
  status: number;
  body: unknown;
}

/** How long a download or view URL stays valid. */
export const URL_LIFETIME_MS = 15 * 60 * 1000;

const ok = (body: unknown): ActionResult => ({ status: 200, body });
const fail = (status: number, message: string): ActionResult => ({ status, body: errorBody(status, message) });

class BadRequest extends Error {}

/** One query parameter: undefined when absent, 400 when repeated. */
function single(query: URLSearchParams, name: string): string | undefined {
  const all = query.getAll(name);
  if (all.length > 1) throw new BadRequest(`Parameter "${name}" is given more than once.`);
  return all[0];
}

function required(query: URLSearchParams, name: string): string {
  const v = single(query, name);
  if (v === undefined || v === '') throw new BadRequest(`Missing required parameter: ${name}`);
  return v;
}

const INTEGER = /^-?\d{1,16}$/;

function lastIdOf(query: URLSearchParams): number | null {
  const raw = single(query, 'last_id');
  if (raw === undefined) return null;
  // `?last_id=` and a bare `?last_id` both arrive as '': the spec's own example of a 400.
  if (raw === '') throw new BadRequest('Parameter "last_id" must not be empty.');
  if (!INTEGER.test(raw) || !Number.isSafeInteger(Number(raw))) throw new BadRequest('Parameter "last_id" must be an integer.');
  return Number(raw);
}

function pageSizeOf(query: URLSearchParams): number {
  const raw = single(query, DEFAULT_PAGE_SIZE_PARAM);
  if (raw === undefined) return PAGE_SIZE_DEFAULT;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= PAGE_SIZE_MIN && n <= PAGE_SIZE_MAX)) {
    throw new BadRequest(`Parameter "${DEFAULT_PAGE_SIZE_PARAM}" must be an integer from ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}.`);
  }
  return n;
}

const idSchema = z.union([
  z.number().int().nonnegative(),
  z
    .string()
    .regex(/^\d{1,16}$/, 'expected an integer')
    .transform(Number),
]);
const purchaseIdSchema = z.string().min(1).max(64);
const searchSchema = z.object({
  query: z.string().max(200),
  category: z.string().max(64).optional(),
  limit: z.number().int().min(1).max(100).optional(),
});
const historySchema = z.object({ asset_id: idSchema });
const registerSchema = z.object({ asset_id: idSchema, client_reference: z.string().min(1).max(128).optional() });
const validateSchema = z.object({ purchase_id: purchaseIdSchema });

/** The JSON body checked against a schema; an empty body is read as {}. */
function bodyOf<T>(body: BodyInput, schema: z.ZodType<T>): T {
  if (body.kind === 'too-large') throw new BadRequest('Request body is larger than 1 MiB.');
  let value: unknown = {};
  if (body.kind === 'text' && body.text.trim() !== '') {
    try {
      value = JSON.parse(body.text);
    } catch {
      throw new BadRequest('Request body is not valid JSON.');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new BadRequest('Request body must be a JSON object.');
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BadRequest(`Invalid request body: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

function outcome(o: PurchaseOutcome, then: (p: Extract<PurchaseOutcome, { ok: true }>['purchase']) => unknown = (p) => p): ActionResult {
  return o.ok ? ok(then(o.purchase)) : fail(o.status, o.message);
}

function signedUrl(base: string, purchaseId: string, assetId: number, expiresMs: number): string {
  const sig = mix32(mix32(expiresMs % 0x7fffffff) ^ assetId)
    .toString(16)
    .padStart(8, '0');
  return `${base}/${purchaseId}/${assetId}?expires=${Math.floor(expiresMs / 1000)}&sig=${sig}`;
}

function purchaseAction(ctx: ActionContext, action: PurchaseAction, purchaseId: string): ActionResult {
  const o = ctx.purchases.act(ctx.vendor, purchaseId, action, ctx.nowMs);
  if (action !== 'downloadUrl' && action !== 'viewUrl') return outcome(o);
  const expires = ctx.nowMs + URL_LIFETIME_MS;
  const base = action === 'downloadUrl' ? 'https://downloads.partner.example/d' : 'https://partner.example/view';
  return outcome(o, (p) => ({ purchase_id: p.id, url: signedUrl(base, p.id, p.asset_id, expires), expires_at: new Date(expires).toISOString() }));
}

function run(ctx: ActionContext): ActionResult {
  const { catalog, query } = ctx;
  switch (ctx.endpoint) {
    case 'listAssets':
      return ok(catalog.page(lastIdOf(query), pageSizeOf(query)));
    case 'categories':
      return ok({ items: catalog.categories() });
    case 'searchAssets': {
      const b = bodyOf(ctx.body, searchSchema);
      if (b.category !== undefined && !catalog.isCategory(b.category)) throw new BadRequest(`Unknown category "${b.category}".`);
      return ok(catalog.search(b.query, b.category, b.limit ?? PAGE_SIZE_DEFAULT));
    }
    case 'assetHistory': {
      const b = bodyOf(ctx.body, historySchema);
      const items = catalog.history(b.asset_id);
      return items ? ok({ asset_id: b.asset_id, items }) : fail(404, `Asset ${b.asset_id} not found.`);
    }
    case 'registerPurchase': {
      const b = bodyOf(ctx.body, registerSchema);
      const k = catalog.indexOfId(b.asset_id);
      if (k < 0) return fail(404, `Asset ${b.asset_id} not found.`);
      return ok(ctx.purchases.register(ctx.vendor, catalog.assetAt(k), b.client_reference, ctx.nowMs));
    }
    case 'purchaseInfo': {
      const id = single(query, 'purchase_id');
      const ref = single(query, 'client_reference');
      if ((id === undefined || id === '') === (ref === undefined || ref === '')) {
        throw new BadRequest('Give exactly one of the parameters "purchase_id" and "client_reference".');
      }
      return id ? outcome(ctx.purchases.get(ctx.vendor, id)) : ok({ items: ctx.purchases.byReference(ctx.vendor, ref ?? '') });
    }
    case 'validatePurchase':
      return purchaseAction(ctx, 'validate', bodyOf(ctx.body, validateSchema).purchase_id);
    case 'downloadUrl':
      return purchaseAction(ctx, 'downloadUrl', required(query, 'purchase_id'));
    case 'viewUrl':
      return purchaseAction(ctx, 'viewUrl', required(query, 'purchase_id'));
    case 'cancelPurchase':
      return purchaseAction(ctx, 'cancel', required(query, 'purchase_id'));
  }
}

/** Runs the endpoint's action; a bad parameter is a 400 (the slot is spent all the same). */
export function runAction(ctx: ActionContext): ActionResult {
  try {
    return run(ctx);
  } catch (e) {
    if (e instanceof BadRequest) return fail(400, e.message);
    throw e;
  }
}
