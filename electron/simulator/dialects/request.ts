/**
 * A request in a dialect, read into the canonical request (the default dialect's names), so that
 * the one set of actions serves every dialect. Only the dialect's own names are read.
 */
import type { EndpointId } from '../../../shared/endpoints';
import { DEFAULT_PAGE_SIZE_PARAM } from '../../../shared/catalog';
import type { ActionResult } from '../actions';
import { errorBody } from '../http-io';
import type { PurchaseBook } from '../purchases';
import { defined, fieldAt } from './convert';
import type { RequestNames } from './types';

export interface CanonicalRequest {
  query: URLSearchParams;
  /** null: no body (GET, DELETE) or keep the client's body as sent (it is not a JSON object). */
  body: Record<string, unknown> | null;
}

export interface RequestLookups {
  vendor: string;
  purchases: PurchaseBook;
}

const fail = (status: number, message: string): ActionResult => ({ status, body: errorBody(status, message) });

/** Every value of `from` in `query`, under the canonical name `to` (a repeat stays a repeat: the action says 400). */
function carry(into: URLSearchParams, query: URLSearchParams, from: string, to: string, map: (v: string) => string = (v) => v): void {
  for (const v of query.getAll(from)) into.append(to, map(v));
}

/** The asset id for "validate this asset", or the 400/404 a real service would give. */
function purchaseOfAsset(value: unknown, name: string, lookups: RequestLookups): string | ActionResult {
  if (value === undefined || value === null || value === '') return fail(400, `Missing required field: ${name}`);
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) return fail(400, `Field "${name}" must be an asset id.`);
  const p = lookups.purchases.latestOfAsset(lookups.vendor, n);
  return p ? p.id : fail(404, `No purchase of asset ${n} to validate.`);
}

function validateRequest(names: RequestNames, query: URLSearchParams, body: Record<string, unknown>, lookups: RequestLookups): CanonicalRequest | ActionResult {
  const { validate } = names;
  let value: unknown;
  if (validate.in === 'query') {
    const all = query.getAll(validate.name);
    if (all.length > 1) return fail(400, `Parameter "${validate.name}" is given more than once.`);
    value = all[0];
  } else {
    value = fieldAt(body, validate.name);
  }
  if (validate.takes === 'asset') {
    const id = purchaseOfAsset(value, validate.name, lookups);
    return typeof id === 'string' ? { query: new URLSearchParams(), body: { purchase_id: id } } : id;
  }
  const purchaseIdIn = names.purchaseIdIn ?? ((v: string) => v);
  const id = typeof value === 'string' || typeof value === 'number' ? purchaseIdIn(String(value)) : value;
  return { query: new URLSearchParams(), body: defined({ purchase_id: id }) };
}

/** The canonical request, or the dialect's own 400/404 (validate by asset). */
export function canonicalRequest(
  names: RequestNames,
  endpoint: EndpointId,
  query: URLSearchParams,
  body: Record<string, unknown>,
  lookups: RequestLookups,
): CanonicalRequest | ActionResult {
  const q = new URLSearchParams();
  const purchaseIdIn = names.purchaseIdIn ?? ((v: string) => v);
  const categoryIn = names.categoryIn ?? ((v: unknown) => v);
  switch (endpoint) {
    case 'listAssets':
      carry(q, query, 'last_id', 'last_id');
      carry(q, query, names.pageSize, DEFAULT_PAGE_SIZE_PARAM);
      return { query: q, body: null };
    case 'categories':
      return { query: q, body: null };
    case 'searchAssets':
      return {
        query: q,
        body: defined({
          // No text is "everything", as with an empty text.
          query: fieldAt(body, names.search.text) ?? '',
          category: categoryIn(fieldAt(body, names.search.category)) ?? undefined,
          limit: fieldAt(body, names.search.limit),
        }),
      };
    case 'assetHistory':
      return { query: q, body: defined({ asset_id: fieldAt(body, names.historyAsset) }) };
    case 'registerPurchase':
      return {
        query: q,
        body: defined({ asset_id: fieldAt(body, names.register.asset), client_reference: fieldAt(body, names.register.reference) }),
      };
    case 'purchaseInfo':
      carry(q, query, names.purchaseId, 'purchase_id', purchaseIdIn);
      carry(q, query, names.referenceLookup, 'client_reference');
      return { query: q, body: null };
    case 'validatePurchase':
      return validateRequest(names, query, body, lookups);
    case 'downloadUrl':
    case 'viewUrl':
    case 'cancelPurchase':
      carry(q, query, names.purchaseId, 'purchase_id', purchaseIdIn);
      return { query: q, body: null };
  }
}
