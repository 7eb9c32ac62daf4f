/**
 * Requests built from a service map: the query and body of each call. The only place, with the
 * readers, that turns the dashboard's arguments into a service's parameter and field names.
 */
import { bareRecord, writePath } from './field-path';
import type { Placement, ServiceMap } from './schema';
import type { Id } from './values';
import { PAGE_SIZE_MAX, PAGE_SIZE_MIN } from '../catalog';
import { ENDPOINTS } from '../endpoints';
import { PartnerError } from '../errors';
import { NumberText } from '../json/number-text';

export interface RequestParts {
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/**
 * Queries and bodies are objects without prototypes: a name from a map or an answer is only ever
 * an own key (writePath refuses `__proto__` and the like anyway).
 */
function place(placement: Placement, value: unknown): RequestParts {
  if (placement.in === 'query') {
    const query = bareRecord() as Record<string, string | number>;
    query[placement.name] = value instanceof NumberText ? value.text : (value as string | number);
    return { query };
  }
  const body = bareRecord();
  writePath(body, placement.name, value);
  return { body };
}

/**
 * A page of the list: the page size (where the map names its parameter) and the cursor. Refuses,
 * under the names the map sends, what the service would answer with a 400 that still costs a slot
 * of the budget: an empty cursor, a page size outside the service's bounds. Throws BAD_REQUEST.
 */
export function listRequest(map: ServiceMap, pageSize: number, cursor: Id | null): RequestParts {
  const problem = listProblem(map, pageSize, cursor);
  if (problem !== null) {
    throw new PartnerError({ code: 'BAD_REQUEST', endpoint: 'listAssets', message: `${ENDPOINTS.listAssets.label}: ${problem}. Not sent.`, retryable: false });
  }
  const query = bareRecord() as Record<string, string | number>;
  if (map.list.pageSizeParam !== null) query[map.list.pageSizeParam] = Math.min(pageSize, map.list.pageSizeMax);
  // A query is text: number text past 2^53 goes as its digits, exactly as the service wrote it.
  if (cursor !== null) query[map.list.cursorParam] = cursor instanceof NumberText ? cursor.text : cursor;
  return { query };
}

function listProblem(map: ServiceMap, pageSize: number, cursor: Id | null): string | null {
  if (cursor !== null && !(cursor instanceof NumberText) && String(cursor).trim() === '') {
    return `${map.list.cursorParam} is empty: leave it out to read the first page (the service answers 400 and still spends a slot)`;
  }
  // Checked even where the map sends no size: the caller asked for a page the spec does not allow.
  if (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < PAGE_SIZE_MIN || pageSize > PAGE_SIZE_MAX) {
    const name = map.list.pageSizeParam ?? 'the page size';
    return `${name} must be a whole number from ${PAGE_SIZE_MIN} to ${PAGE_SIZE_MAX}, got ${JSON.stringify(String(pageSize).slice(0, 40))}`;
  }
  return null;
}

/** A field under one name, or under each of `a|b` (detection could not tell them apart). */
function writeEach(body: Record<string, unknown>, names: string, value: unknown): void {
  for (const name of names.split('|')) if (name.trim() !== '') writePath(body, name.trim(), value);
}

export function searchRequest(map: ServiceMap, text: string, category: string | null, limit: number): RequestParts {
  const body = bareRecord();
  writeEach(body, map.search.textField, text);
  if (category !== null && category !== '' && map.search.categoryField !== null) {
    const numeric = map.search.categoryType === 'number' && /^-?\d+$/.test(category.trim());
    writeEach(body, map.search.categoryField, numeric ? Number(category) : category);
  }
  if (map.search.limitField !== null) writeEach(body, map.search.limitField, limit);
  return { body };
}

export function historyRequest(map: ServiceMap, assetId: Id): RequestParts {
  const body = bareRecord();
  writePath(body, map.history.assetIdField, assetId);
  return { body };
}

export function registerRequest(map: ServiceMap, assetId: Id, reference: string): RequestParts {
  const body = bareRecord();
  writePath(body, map.register.assetIdField, assetId);
  if (map.register.referenceField !== null) writePath(body, map.register.referenceField, reference);
  // The reference is the idempotency key too: a service that honours it answers a resend the user confirms with the first answer.
  const key = map.idempotencyHeader ?? null;
  return key === null ? { body } : { body, headers: { [key]: reference } };
}

export type PurchaseEndpoint = keyof ServiceMap['purchaseId'];

export function purchaseRequest(map: ServiceMap, endpoint: PurchaseEndpoint, purchaseId: string): RequestParts {
  return place(map.purchaseId[endpoint], purchaseId);
}

/** Validate sends the purchase's id or its asset's id, as the map says. */
export function validateRequest(map: ServiceMap, ids: { purchaseId: string; assetId: Id }): RequestParts {
  return place(map.validate, map.validate.takes === 'asset' ? ids.assetId : ids.purchaseId);
}

/** null when the service has no lookup by reference. */
export function lookupRequest(map: ServiceMap, reference: string): RequestParts | null {
  return map.lookupByReference === null ? null : place(map.lookupByReference, reference);
}
