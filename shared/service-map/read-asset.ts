/**
 * One asset through a service map: the named fields normalised (price in major units), the item's
 * other fields beside them. Nothing of the item is lost: what the export's own fields did not take
 * (a mapped value that could not be read, a field of the service whose name one of them takes, e.g.
 * its own `id` where the map reads the id from `sku`) is kept as sent under `source`.
 */
import type { ReadAsset } from '../catalog';
import { foundAlternative, readPath, setOwn, topKey } from './field-path';
import type { ServiceMap } from './schema';
import { asCurrency, asDecimal, asId, asText, toMajor } from './values';
import { NumberText } from '../json/number-text';

/** Where an asset keeps the service's values that its own fields did not take, as sent. */
export const SOURCE_KEY = 'source';
/** Names an asset's own fields take: the service's fields by these names go under `source`. */
const ASSET_NAMES = new Set(['id', 'title', 'category', 'price', 'currency', SOURCE_KEY]);

export function isRecord(value: unknown): value is Record<string, unknown> {
  // A NumberText (an integer past 2^53) is a value, not an object to open.
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NumberText);
}

/** Map fields not found (once each, in the order met), and what an item's reading has to say (once each). */
export class Misses {
  private readonly names = new Set<string>();
  private readonly said = new Set<string>();
  add(name: string): void {
    this.names.add(name);
  }
  /** Words the same on every page, so that a download says each once. */
  warn(warning: string): void {
    this.said.add(warning);
  }
  list(): string[] {
    return [...this.names];
  }
  warnings(): string[] {
    return [...this.said];
  }
}

function unreadWarning(field: string, key: string): string {
  return `Some items' \`${key}\` could not be read as asset.${field}: kept as sent under \`${SOURCE_KEY}.${key}\`. Check asset.${field} in the service map.`;
}

function keptWarning(key: string, m: ServiceMap['asset']): string {
  if (key === SOURCE_KEY)
    return `The service's field \`${key}\` is kept as sent under \`${SOURCE_KEY}.${key}\`: the export's \`${SOURCE_KEY}\` holds what its own fields did not take.`;
  const path = m[key as 'id' | 'title' | 'category' | 'price' | 'currency'];
  const from = path === null ? 'is not set' : `reads \`${path}\``;
  return `The service's field \`${key}\` is kept as sent under \`${SOURCE_KEY}.${key}\`: the export's own \`${key}\` is the service map's asset.${key}, which ${from}.`;
}

/** Which of an item's keys the map names: top-level keys, and nested parents whose named children are left out. */
interface NamedKeys {
  used: Set<string>;
  parents: Map<string, Set<string>>;
}

/** Worked out once per map (a download reads millions of items with one map). */
const namedKeysByMap = new WeakMap<ServiceMap['asset'], NamedKeys>();

function namedKeys(m: ServiceMap['asset']): NamedKeys {
  let keys = namedKeysByMap.get(m);
  if (keys) return keys;
  keys = { used: new Set(), parents: new Map() };
  for (const path of [m.id, m.title, m.category, m.price, m.currency]) {
    if (path === null) continue;
    for (const alternative of path.split('|')) {
      const parts = alternative.split('.');
      const top = topKey(alternative);
      if (top === null) continue;
      if (parts.length === 1) keys.used.add(top);
      else {
        const inner = keys.parents.get(top) ?? new Set<string>();
        inner.add(parts[1]!.replace(/\[\d*\]$/, ''));
        keys.parents.set(top, inner);
      }
    }
  }
  namedKeysByMap.set(m, keys);
  return keys;
}

/** The item's fields that the map does not name, with nested parents of named paths opened one level. */
function otherFields(item: Record<string, unknown>, { used, parents }: NamedKeys): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (used.has(key)) continue;
    const inner = parents.get(key);
    if (inner && isRecord(value)) {
      for (const [k, v] of Object.entries(value)) if (!inner.has(k)) setOwn(out, `${key}.${k}`, v);
    } else if (!inner) setOwn(out, key, value);
  }
  return out;
}

/** One asset, or null (named in `misses`) when the item is not an object or has no readable id. */
export function readAsset(item: unknown, map: ServiceMap, misses: Misses = new Misses()): ReadAsset | null {
  if (!isRecord(item)) {
    misses.add('asset');
    return null;
  }
  const m = map.asset;
  const id = asId(readPath(item, m.id).value);
  if (id === null) {
    misses.add('asset.id');
    return null;
  }
  const asset: ReadAsset = { id };
  const source: Record<string, unknown> = {};
  // A mapped value that could not be read: kept as sent. A null or absent one is no value: named missing where needed.
  const keep = (field: string, path: string, needed = true): void => {
    const key = foundAlternative(item, path);
    const value = key === null ? undefined : readPath(item, key).value;
    if (key !== null) setOwn(source, key, value);
    const unread = key !== null && value !== null && value !== undefined;
    if (unread) misses.warn(unreadWarning(field, key));
    if (unread || needed) misses.add(`asset.${field}`);
  };
  const optional = (field: 'title' | 'category', path: string | null): void => {
    if (path === null) return;
    const text = asText(readPath(item, path).value);
    if (text === null) keep(field, path);
    else asset[field] = text;
  };
  optional('title', m.title);
  optional('category', m.category);
  let currency = m.fixedCurrency;
  if (m.currency !== null) {
    const found = asCurrency(readPath(item, m.currency).value);
    if (found !== null) currency = found;
    else keep('currency', m.currency, currency === null);
  }
  if (m.price !== null) {
    const amount = asDecimal(readPath(item, m.price).value);
    if (amount === null) keep('price', m.price);
    else asset.price = toMajor(amount, m.priceUnit, currency);
  }
  if (currency !== null) asset.currency = currency;
  for (const [key, value] of Object.entries(otherFields(item, namedKeys(m)))) {
    const taken = ASSET_NAMES.has(key);
    setOwn(taken ? source : asset, key, value);
    if (taken) misses.warn(keptWarning(key, m));
  }
  if (Object.keys(source).length > 0) setOwn(asset, SOURCE_KEY, source);
  return asset;
}
