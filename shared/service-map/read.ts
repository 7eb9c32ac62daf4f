/**
 * Readers: a service's answer in, the dashboard's objects out, through a service map. Pure and
 * total: they never throw. Each returns what it could read (`value`), the map fields it could not
 * find (`missing`, e.g. "asset.price"), and the answer itself (`raw`), so a view can show the rest.
 */
import type { Category, HistoryEntry, ReadAsset } from '../catalog';
import { foundAlternative, readPath } from './field-path';
import { isRecord, Misses, readAsset } from './read-asset';
import type { CanonicalState, PurchaseAction, ServiceMap } from './schema';
import { PURCHASE_ACTIONS } from './schema';
import { asCount, asDecimal, asFlag, asId, asIsoTime, asText, asWebUrl, toMajor } from './values';
import type { Id } from './values';

export interface Read<T> {
  value: T;
  missing: string[];
  warnings: string[];
  raw: unknown;
}

/** The items of an answer: at the map's path, or (path null) a top-level array or the first array property. */
export function findItems(body: unknown, path: string | null, field: string, misses: Misses): unknown[] {
  if (path === null) {
    if (Array.isArray(body)) return body;
    if (isRecord(body)) {
      for (const value of Object.values(body)) if (Array.isArray(value)) return value;
    }
    misses.add(field);
    return [];
  }
  const found = readPath(body, path);
  if (found.found && Array.isArray(found.value)) return found.value;
  misses.add(field);
  return [];
}

function readAssets(raw: unknown[], map: ServiceMap, misses: Misses): ReadAsset[] {
  const out: ReadAsset[] = [];
  for (const item of raw) {
    const asset = readAsset(item, map, misses);
    if (asset !== null) out.push(asset);
  }
  return out;
}

export interface AssetPage {
  items: ReadAsset[];
  /** The cursor for the next page; null when none. */
  cursor: Id | null;
  /** No page follows. */
  done: boolean;
  /** The has-more flag as read; null: the answer has none. */
  more: boolean | null;
  total: number | null;
  /** Items in the answer, readable or not (verification compares it with the page size asked). */
  received: number;
  /** The id of the page's last item whose id could be read (the spec's next last_id); null when there is none. */
  lastItemId: Id | null;
}

/** A cursor given as a next-page link or query (`...?last_id=123`): the parameter's value. */
export function cursorFrom(value: unknown, param: string): Id | null {
  if (typeof value === 'string' && /[?&]/.test(value)) {
    const query = value.slice(value.indexOf('?') + 1);
    const found = new URLSearchParams(query).get(param);
    return found === null || found === '' ? null : found;
  }
  return asId(value);
}

/** One page of the list endpoint. */
export function readAssetPage(body: unknown, map: ServiceMap): Read<AssetPage> {
  const misses = new Misses();
  const l = map.list;
  const raw = findItems(body, l.items, 'list.items', misses);
  const items = readAssets(raw, map, misses);
  const warnings: string[] = [...sharedIds(items, map.asset.id), ...withoutId(raw.length - items.length, map.asset.id), ...misses.warnings()];
  // The next page starts after the last item whose id could be read: an item without one does not end the catalog.
  const lastId = items[items.length - 1]?.id ?? null;
  // Cursor, has-more and total are optional in any answer (an empty page ends the catalog):
  // absent is not missing; present but unusable is.
  let more: boolean | null = null;
  const moreFound = readPath(body, l.hasMore);
  if (moreFound.found) {
    more = asFlag(moreFound.value);
    if (more === null) misses.add('list.hasMore');
  }
  let cursor: Id | null = lastId;
  let cursorGiven = false;
  if (l.cursor !== null) {
    const found = readPath(body, l.cursor);
    if (found.found && found.value !== null && found.value !== false) {
      cursor = cursorFrom(found.value, l.cursorParam);
      cursorGiven = cursor !== null;
      if (cursor === null) misses.add('list.cursor');
    } else if (found.found && more === true && lastId !== null) {
      // A null cursor beside has-more true: the signals disagree (a field that echoes the request's
      // last_id, null on page 1). Not an end: the next page starts after the last item (the spec's rule).
      warnings.push(
        `The cursor field \`${foundAlternative(body, l.cursor) ?? l.cursor}\` is null while \`${foundAlternative(body, l.hasMore) ?? l.hasMore}\` says more follow: continuing from the last item's id. If the service pages by the last item's id, set list.cursor to none in the service map.`,
      );
    } else if (found.found) {
      cursor = null;
    } else if (more === false) {
      cursor = null;
    }
  }
  let total: number | null = null;
  const totalFound = readPath(body, l.total);
  if (totalFound.found) {
    total = asCount(totalFound.value);
    if (total === null && totalFound.value !== null) misses.add('list.total');
  }
  // An empty page ends the catalog only when it does not say more follows (has-more true, or a next
  // cursor): otherwise it is a truncated answer, and the download asks again rather than stop short.
  const done = raw.length === 0 ? more !== true && !cursorGiven : more === false || cursor === null;
  return { value: { items, cursor, done, more, total, received: raw.length, lastItemId: lastId }, missing: misses.list(), warnings, raw: body };
}

function withoutId(count: number, idField: string): string[] {
  return count === 0
    ? []
    : [
        `${count} item(s) of this page have no readable id (asset.id = \`${idField}\`): they are left out, and the next page starts after the last id that could be read.`,
      ];
}

/**
 * Items of one page that share an id: the map's id field is not the assets' id (a price, a category). A purchase
 * and a download key everything on that id, so the page says so rather than buy or skip by it.
 */
function sharedIds(items: readonly ReadAsset[], idField: string): string[] {
  const seen = new Set<string>();
  let shared = 0;
  for (const item of items) {
    const key = String(item.id);
    if (seen.has(key)) shared++;
    seen.add(key);
  }
  return shared === 0
    ? []
    : [
        `${shared} item(s) of this page share an id with another (asset.id = \`${idField}\`): that field may not be the assets' id. Check it in the service map before buying from this page.`,
      ];
}

export function readSearch(body: unknown, map: ServiceMap): Read<{ items: ReadAsset[]; total: number | null; received: number }> {
  const misses = new Misses();
  const raw = findItems(body, map.search.items, 'search.items', misses);
  const items = readAssets(raw, map, misses);
  let total: number | null = null;
  const totalFound = readPath(body, map.search.total);
  if (totalFound.found) {
    total = asCount(totalFound.value);
    if (total === null && totalFound.value !== null) misses.add('search.total');
  }
  return { value: { items, total, received: raw.length }, missing: misses.list(), warnings: misses.warnings(), raw: body };
}

export function readCategories(body: unknown, map: ServiceMap): Read<Category[]> {
  const misses = new Misses();
  const c = map.category;
  const out: Category[] = [];
  for (const item of findItems(body, map.categories.items, 'categories.items', misses)) {
    // A bare list of names is a list of categories too.
    const scalar = asText(item);
    if (scalar !== null) {
      out.push({ id: scalar, name: scalar, count: null });
      continue;
    }
    const id = asText(readPath(item, c.id).value);
    if (id === null) {
      misses.add('category.id');
      continue;
    }
    const name = c.name === null ? null : asText(readPath(item, c.name).value);
    if (c.name !== null && name === null) misses.add('category.name');
    const count = c.count === null ? null : asCount(readPath(item, c.count).value);
    if (c.count !== null && count === null) misses.add('category.count');
    out.push({ id, name: name ?? id, count });
  }
  return { value: out, missing: misses.list(), warnings: [], raw: body };
}

export function readHistory(body: unknown, map: ServiceMap): Read<HistoryEntry[]> {
  const misses = new Misses();
  const h = map.historyPoint;
  const out: HistoryEntry[] = [];
  for (const item of findItems(body, map.history.points, 'history.points', misses)) {
    const at = asIsoTime(readPath(item, h.time).value, h.timeFormat);
    if (at === null) {
      misses.add('historyPoint.time');
      continue;
    }
    const entry: HistoryEntry = { at, event: h.event === null ? '' : (asText(readPath(item, h.event).value) ?? '') };
    if (h.value !== null) {
      const value = asDecimal(readPath(item, h.value).value);
      if (value === null) misses.add('historyPoint.value');
      else entry.price = toMajor(value, map.asset.priceUnit, map.asset.fixedCurrency);
    }
    out.push(entry);
  }
  return { value: out.sort((a, b) => Date.parse(a.at) - Date.parse(b.at)), missing: misses.list(), warnings: [], raw: body };
}

export interface PurchaseRead {
  /** '' when the answer does not say (see missing). */
  id: string;
  asset_id: Id | null;
  /** The service's own word, '' when absent. */
  state: string;
  client_reference?: string;
  stateKind: CanonicalState | 'unknown';
  actions: PurchaseAction[];
}

/** The canonical state and allowed actions of a state word; an unknown word allows everything (the service decides). */
export function stateOf(word: string, map: ServiceMap): { stateKind: CanonicalState | 'unknown'; actions: PurchaseAction[] } {
  const entry = map.states.find((s) => s.word.toLowerCase() === word.trim().toLowerCase());
  return entry ? { stateKind: entry.state, actions: [...entry.actions] } : { stateKind: 'unknown', actions: [...PURCHASE_ACTIONS] };
}

function readPurchaseObject(value: unknown, map: ServiceMap, misses: Misses, warnings: string[]): PurchaseRead {
  const p = map.purchase;
  const id = asText(readPath(value, p.id).value);
  if (id === null || id === '') misses.add('purchase.id');
  const state = p.state === null ? null : asText(readPath(value, p.state).value);
  if (p.state !== null && state === null) misses.add('purchase.state');
  const asset = p.asset === null ? null : asId(readPath(value, p.asset).value);
  if (p.asset !== null && asset === null) misses.add('purchase.asset');
  const reference = p.reference === null ? null : asText(readPath(value, p.reference).value);
  const kind = stateOf(state ?? '', map);
  if (kind.stateKind === 'unknown') {
    warnings.push(
      state === null
        ? 'The purchase state could not be read: every action is offered, and the service decides.'
        : `The purchase state "${state}" is not in the service map: every action is offered, and the service decides.`,
    );
  }
  return { id: id ?? '', asset_id: asset, state: state ?? '', ...(reference ? { client_reference: reference } : {}), ...kind };
}

/** A purchase answer (register, info, validate, cancel). */
export function readPurchase(body: unknown, map: ServiceMap): Read<PurchaseRead> {
  const misses = new Misses();
  const warnings: string[] = [];
  const at = map.purchase.at === null ? body : readPath(body, map.purchase.at).value;
  if (map.purchase.at !== null && at === undefined) misses.add('purchase.at');
  const value = readPurchaseObject(at, map, misses, warnings);
  return { value, missing: misses.list(), warnings, raw: body };
}

/**
 * A lookup's items where the map names no path. "Nothing found" must be certain (it lets a person
 * register the asset again), so no guess: a top-level array; the one array of an object that holds
 * any; where none holds any, the object itself if it reads as one purchase, else nothing only if no
 * nested object could hold the items. Several arrays that hold something, or anything else: not read.
 */
function lookupItems(body: unknown, map: ServiceMap, misses: Misses): unknown[] {
  const field = 'lookupByReference.items';
  const path = map.lookupByReference?.items ?? null;
  if (path !== null || Array.isArray(body) || !isRecord(body)) return findItems(body, path, field, misses);
  const values = Object.values(body);
  const arrays = values.filter(Array.isArray);
  const holding = arrays.filter((a) => a.length > 0);
  if (holding.length === 1) return holding[0]!;
  if (holding.length === 0) {
    if (readPath(body, map.purchase.id).found) return [body];
    if (arrays.length > 0 && !values.some(isRecord)) return [];
  }
  misses.add(field);
  return [];
}

/** The answer of a lookup by reference: a list of purchases. */
export function readPurchaseList(body: unknown, map: ServiceMap): Read<PurchaseRead[]> {
  const misses = new Misses();
  const warnings: string[] = [];
  const items = lookupItems(body, map, misses);
  const value = items.map((item) => readPurchaseObject(item, map, misses, warnings));
  return { value, missing: misses.list(), warnings: [...new Set(warnings)], raw: body };
}

/** A download or view URL answer; expiry as an ISO time (seconds-from-now made absolute with nowMs). */
export function readUrl(body: unknown, map: ServiceMap, nowMs: number): Read<{ url: string | null; expiresAt: string | null }> {
  const misses = new Misses();
  const u = map.url;
  const at = u.at === null ? body : readPath(body, u.at).value;
  const url = asWebUrl(readPath(at, u.url).value);
  if (url === null) misses.add('url.url');
  let expiresAt: string | null = null;
  if (u.expiry !== null) {
    const value = readPath(at, u.expiry).value;
    if (u.expiryKind === 'seconds') {
      const seconds = asDecimal(value);
      expiresAt = seconds === null || seconds < 0 ? null : asIsoTime(nowMs + seconds * 1000, 'epoch-ms');
    } else expiresAt = asIsoTime(value, 'auto');
    if (expiresAt === null) misses.add('url.expiry');
  }
  return { value: { url, expiresAt }, missing: misses.list(), warnings: [], raw: body };
}

export { Misses, readAsset };
