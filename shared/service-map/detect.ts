/**
 * Detection: sample answers in, a proposed service map out, with a confidence (0..1) and the
 * evidence for each field. Pure and total: a hostile answer (HTML, null, deeply nested, huge, two
 * equally good arrays) gives a low confidence and a reason, never a throw. Names are compared in
 * any case style (names.ts); values are checked by type (ids unique, prices numeric, ...).
 */
import { NAMES, PROBE_PAGE_SIZES, STATE_SYNONYMS, norm } from './names';
import { readPath, UNSAFE_KEYS } from './field-path';
import { cursorFrom } from './read';
import { DEFAULT_SERVICE_MAP } from './schema';
import type { ServiceMap, StateWord } from './schema';
import { asCount, asCurrency, asDecimal, asFlag, asId, asText, asTimeMs, asWebUrl } from './values';
import type { Id } from './values';
import { NumberText } from '../json/number-text';

export interface FieldEvidence {
  field: string;
  confidence: number;
  evidence: string;
}

/** What the probes sent and got back. */
export interface Samples {
  categories?: unknown;
  /** The list page, and the page size sent under each candidate parameter name. */
  list?: { body: unknown; pageSizes?: Record<string, number> };
  /** The search answer, and the value sent under each candidate field name. */
  search?: { body: unknown; text?: Record<string, string>; category?: Record<string, string | number>; limit?: Record<string, number> };
  history?: unknown;
  purchase?: unknown;
  url?: unknown;
}

export interface Proposal {
  map: ServiceMap;
  /** The weakest essential field's confidence. */
  confidence: number;
  fields: FieldEvidence[];
  warnings: string[];
}

const SAMPLE_ITEMS = 50;
const MAX_DEPTH = 4;
const MAX_NODES = 5000;

function isRecord(value: unknown): value is Record<string, unknown> {
  // A NumberText (an integer past 2^53) is a value, not an object to open.
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof NumberText);
}

/** What a body is, in words, when it is not what detection needs. */
export function describeBody(body: unknown): string {
  if (body === null || body === undefined) return 'an empty answer (null)';
  if (typeof body === 'string') {
    const head = body.trimStart().slice(0, 40);
    return /^<(!doctype|html|\?xml|[a-z])/i.test(head) ? `an HTML/XML page ("${head.slice(0, 20)}…"), not JSON` : `a bare string ("${head}")`;
  }
  if (typeof body !== 'object') return `a bare ${typeof body}`;
  return Array.isArray(body) ? `an array of ${body.length}` : 'an object';
}

function joinPath(prefix: string, key: string): string {
  return prefix === '' ? key : `${prefix}.${key}`;
}

interface Leaf {
  path: string;
  value: unknown;
}

/** Leaves (scalars, nulls, arrays) of an object, as dotted paths, depth and node count bounded. */
function leaves(value: unknown, depth = 3): Leaf[] {
  const out: Leaf[] = [];
  let nodes = 0;
  const walk = (v: unknown, path: string, d: number): void => {
    if (++nodes > MAX_NODES) return;
    if (isRecord(v) && d < depth) {
      // A `__proto__`-like key never becomes a path: the map's schema refuses it.
      for (const [k, child] of Object.entries(v)) if (!UNSAFE_KEYS.has(k)) walk(child, joinPath(path, k), d + 1);
    } else if (path !== '') out.push({ path, value: v });
  };
  walk(value, '', 0);
  return out;
}

/** Names a path answers to: its leaf, its last two keys, the whole path, and the path without a container. */
function pathNames(path: string): string[] {
  const parts = path.split('.');
  const names = [norm(parts[parts.length - 1]!), norm(parts.slice(-2).join('.')), norm(path)];
  if (parts.length > 1 && NAMES.container.includes(norm(parts[0]!))) names.push(norm(parts.slice(1).join('.')));
  return names;
}

/** 1 for the likeliest name, a little less for each later one; 0 when no name fits. */
function nameScore(path: string, candidates: readonly string[]): number {
  let best = -1;
  for (const name of pathNames(path)) {
    const rank = candidates.indexOf(name);
    if (rank >= 0 && (best < 0 || rank < best)) best = rank;
  }
  return best < 0 ? 0 : 1 - Math.min(0.5, best * 0.02);
}

interface ArrayCandidate {
  path: string;
  items: unknown[];
  score: number;
}

/** Arrays in a body (the body itself included), best first. */
function arraysIn(body: unknown, allowScalars: boolean): ArrayCandidate[] {
  const found: ArrayCandidate[] = [];
  let nodes = 0;
  const walk = (v: unknown, path: string, d: number): void => {
    if (++nodes > MAX_NODES || d > MAX_DEPTH) return;
    if (Array.isArray(v)) {
      found.push({ path, items: v, score: scoreArray(path, v, allowScalars) });
      return;
    }
    if (isRecord(v)) for (const [k, child] of Object.entries(v)) if (!UNSAFE_KEYS.has(k)) walk(child, joinPath(path, k), d + 1);
  };
  walk(body, '', 0);
  return found.filter((c) => c.score > 0).sort((a, b) => b.score - a.score || a.path.length - b.path.length);
}

function scoreArray(path: string, items: unknown[], allowScalars: boolean): number {
  const sample = items.slice(0, SAMPLE_ITEMS);
  const key = path.split('.').pop() ?? '';
  const named = path === '' ? 0.8 : NAMES.envelope.includes(norm(key)) ? 1 : 0.4;
  if (sample.length === 0) return 0.2 * named;
  const objects = sample.filter(isRecord);
  if (objects.length / sample.length < 0.8) {
    const scalars = sample.filter((x) => asText(x) !== null).length / sample.length;
    return allowScalars && scalars > 0.9 ? 0.4 * named : 0;
  }
  const withId = objects.filter((o) => leaves(o).some((l) => nameScore(l.path, NAMES.id) > 0 && asId(l.value) !== null)).length / objects.length;
  return 0.4 + 0.3 * named + 0.2 * withId + 0.1 * Math.min(1, sample.length / 5);
}

interface ItemsPick {
  path: string | null;
  items: unknown[];
  confidence: number;
  evidence: string;
  warnings: string[];
}

/** The array that holds the items of an answer (objects, named like an envelope, with ids). */
export function pickItems(body: unknown, what: string, allowScalars = false): ItemsPick {
  if (!isRecord(body) && !Array.isArray(body)) {
    return {
      path: null,
      items: [],
      confidence: 0,
      evidence: `the ${what} answer is ${describeBody(body)}`,
      warnings: [`The ${what} answer is ${describeBody(body)}: nothing to detect from it.`],
    };
  }
  const candidates = arraysIn(body, allowScalars);
  const best = candidates[0];
  if (!best) {
    return {
      path: null,
      items: [],
      confidence: 0,
      evidence: `no array of objects in the ${what} answer`,
      warnings: [`The ${what} answer holds no array of objects: its items could not be found.`],
    };
  }
  const second = candidates[1];
  const warnings: string[] = [];
  let confidence = Math.min(1, best.score);
  let evidence = `${best.path === '' ? 'the answer itself is' : `\`${best.path}\` is`} an array of ${best.items.length}`;
  if (second && best.score - second.score < 0.05) {
    confidence *= 0.5;
    warnings.push(
      `Two arrays in the ${what} answer look equally like its items: \`${best.path || '(the answer)'}\` and \`${second.path || '(the answer)'}\`; \`${best.path || '(the answer)'}\` was taken. Check list paths in the service map.`,
    );
    evidence += `; \`${second.path}\` looked as good`;
  }
  if (best.items.length === 0) {
    confidence = Math.min(confidence, 0.3);
    warnings.push(`The ${what} answer's items array is empty: the item fields could not be detected from it.`);
  }
  return { path: best.path, items: best.items, confidence, evidence, warnings };
}

interface FieldPick {
  path: string;
  confidence: number;
  evidence: string;
}

/** The best path among the items' leaves for one field: names, value types, presence. */
function pickField(
  items: readonly unknown[],
  candidates: readonly string[],
  accepts: (value: unknown) => number,
  exclude: ReadonlySet<string> = new Set(),
): FieldPick | null {
  const sample = items.slice(0, SAMPLE_ITEMS).filter(isRecord);
  if (sample.length === 0) return null;
  const values = new Map<string, unknown[]>();
  for (const item of sample) {
    for (const leaf of leaves(item)) {
      if (exclude.has(leaf.path)) continue;
      let list = values.get(leaf.path);
      if (!list) values.set(leaf.path, (list = []));
      list.push(leaf.value);
    }
  }
  let best: FieldPick | null = null;
  let bestScore = 0;
  for (const [path, vals] of values) {
    const named = nameScore(path, candidates);
    if (named === 0) continue;
    const typed = vals.reduce<number>((sum, v) => sum + accepts(v), 0) / vals.length;
    const presence = vals.length / sample.length;
    const score = named * typed * (0.6 + 0.4 * presence) - 0.01 * path.split('.').length;
    if (score > bestScore) {
      bestScore = score;
      best = {
        path,
        confidence: Math.max(0, Math.min(1, score + 0.02)),
        evidence: `\`${path}\` in ${vals.length} of ${sample.length} items (${Math.round(typed * 100)}% usable values)`,
      };
    }
  }
  return best;
}

const isId = (v: unknown): number => (asId(v) !== null ? 1 : 0);
const isText = (v: unknown): number => (typeof v === 'string' && v.trim() !== '' ? (/^\d+$/.test(v) ? 0.5 : 1) : 0);
const isScalarText = (v: unknown): number => (asText(v) !== null ? 1 : 0);
const isAmount = (v: unknown): number => (asDecimal(v) !== null ? 1 : 0);
const isCurrency = (v: unknown): number => (asCurrency(v) !== null ? 1 : 0);
const isCount = (v: unknown): number => (asCount(v) !== null ? 1 : 0);

class Evidence {
  readonly fields: FieldEvidence[] = [];
  readonly warnings: string[] = [];
  add(field: string, confidence: number, evidence: string): void {
    this.fields.push({ field, confidence: Math.round(confidence * 100) / 100, evidence });
  }
  get(field: string): number {
    return this.fields.find((f) => f.field === field)?.confidence ?? 0;
  }
}

/** Minor units when the name says so, or when every price is a whole number that looks like cents. */
function priceUnit(path: string, values: unknown[]): { unit: 'major' | 'minor'; confidence: number; evidence: string } {
  if (/cents|minor|pennies|micros/i.test(path)) return { unit: 'minor', confidence: 0.9, evidence: `the name \`${path}\` says minor units` };
  const amounts = values.map(asDecimal).filter((n): n is number => n !== null);
  if (amounts.length === 0) return { unit: 'major', confidence: 0.3, evidence: 'no price values to judge' };
  if (values.some((v) => typeof v === 'string' && v.includes('.'))) return { unit: 'major', confidence: 0.85, evidence: 'decimal strings' };
  if (amounts.some((n) => !Number.isInteger(n))) return { unit: 'major', confidence: 0.9, evidence: 'prices with fractions' };
  const median = [...amounts].sort((a, b) => a - b)[Math.floor(amounts.length / 2)]!;
  if (amounts.length >= 3 && median >= 100) return { unit: 'minor', confidence: 0.6, evidence: `whole numbers around ${median}: they look like cents` };
  return { unit: 'major', confidence: 0.5, evidence: 'small whole numbers: read as major units' };
}

/** The asset fields from sample items; categoryIds (from the categories answer) confirm the category field. */
function detectAsset(items: readonly unknown[], map: ServiceMap, ev: Evidence, categoryIds: ReadonlySet<string>): ServiceMap['asset'] {
  const asset = { ...map.asset };
  const taken = new Set<string>();
  const sample = items.slice(0, SAMPLE_ITEMS).filter(isRecord);
  const unique = (path: string): boolean => {
    const ids = sample.map((i) => readPath(i, path).value).map((v) => String(asId(v)));
    return new Set(ids).size === ids.length;
  };
  const id = pickField(items, NAMES.id, isId);
  if (id) {
    asset.id = id.path;
    taken.add(id.path);
    const u = unique(id.path);
    ev.add('asset.id', u ? id.confidence : id.confidence * 0.5, id.evidence + (u ? ', unique' : ', NOT unique'));
  } else ev.add('asset.id', 0, 'no id-like field in the items');

  const title = pickField(items, NAMES.title, isText, taken);
  asset.title = title?.path ?? null;
  if (title) taken.add(title.path);
  ev.add('asset.title', title?.confidence ?? 0, title?.evidence ?? 'no title-like field');

  const inCategories = (v: unknown): number => {
    const t = asText(v);
    if (t === null) return 0;
    return categoryIds.size === 0 ? 1 : categoryIds.has(t.toLowerCase()) ? 1 : 0;
  };
  const category = pickField(items, NAMES.category, inCategories, taken);
  asset.category = category?.path ?? null;
  if (category) taken.add(category.path);
  ev.add(
    'asset.category',
    category?.confidence ?? 0,
    category ? category.evidence + (categoryIds.size > 0 ? ', values are category ids' : '') : 'no category-like field',
  );

  const price = pickField(items, NAMES.price, isAmount, taken);
  asset.price = price?.path ?? null;
  if (price) {
    taken.add(price.path);
    const unit = priceUnit(
      price.path,
      sample.map((i) => readPath(i, price.path).value),
    );
    asset.priceUnit = unit.unit;
    ev.add('asset.price', price.confidence, price.evidence);
    ev.add('asset.priceUnit', unit.confidence, unit.evidence);
  } else ev.add('asset.price', 0, 'no price-like field');

  const currency = pickField(items, NAMES.currency, isCurrency, taken);
  // A currency object ({code: "EUR"}) is read whole: point at the object, not its leaf.
  asset.currency = currency ? currency.path.replace(/\.(code|iso|iso_code|isoCode)$/, '') : null;
  asset.fixedCurrency = null;
  ev.add('asset.currency', currency?.confidence ?? 0, currency?.evidence ?? 'no currency field (prices shown without a currency)');
  return asset;
}

/** Body-level fields (cursor, has-more, total) outside the items. */
function bodyField(body: unknown, itemsPath: string | null, candidates: readonly string[], accepts: (v: unknown) => number): FieldPick | null {
  if (!isRecord(body)) return null;
  const all = leaves(body, 4).filter((l) => itemsPath === null || itemsPath === '' || !(l.path === itemsPath || l.path.startsWith(`${itemsPath}.`)));
  let best: FieldPick | null = null;
  let bestScore = 0;
  for (const leaf of all) {
    const named = nameScore(leaf.path, candidates);
    const score = named * accepts(leaf.value) - 0.01 * leaf.path.split('.').length;
    if (score > bestScore) {
      bestScore = score;
      best = { path: leaf.path, confidence: Math.min(1, score + 0.02), evidence: `\`${leaf.path}\` = ${JSON.stringify(leaf.value)?.slice(0, 60)}` };
    }
  }
  return best;
}

/**
 * Whether a cursor value on the sampled page (page 1, sent without last_id) can be the next page's
 * cursor. Null while the page says more follow is an echo of the request (null on page 1); the id of
 * an item before the last, or 0, is a constant or an echo of a default: following either would loop or
 * end early. An opaque value passes (the download's verification catches one that does not advance).
 */
function cursorFollows(body: unknown, items: readonly unknown[], map: ServiceMap, lastId: Id | null): (v: unknown) => boolean {
  const received = items.length;
  const saysMore = asFlag(readPath(body, map.list.hasMore).value) === true || (asCount(readPath(body, map.list.total).value) ?? 0) > received;
  const earlier = new Set<string>();
  for (const item of items.slice(0, -1)) {
    const id = asId(readPath(item, map.asset.id).value);
    if (id !== null && String(id) !== String(lastId)) earlier.add(String(id));
  }
  return (v) => {
    if (v === null) return !saysMore;
    const value = cursorFrom(v, map.list.cursorParam);
    if (value === null) return false;
    if (lastId !== null && String(value) === String(lastId)) return true;
    return !earlier.has(String(value)) && String(value) !== '0';
  };
}

function detectList(samples: Samples, map: ServiceMap, ev: Evidence, categoryIds: ReadonlySet<string>): ServiceMap {
  const list = samples.list;
  if (!list) {
    ev.warnings.push('No list page was sampled: the list and asset fields keep their defaults.');
    return map;
  }
  const pick = pickItems(list.body, 'list');
  ev.warnings.push(...pick.warnings);
  ev.add('list.items', pick.confidence, pick.evidence);
  const next: ServiceMap = { ...map, list: { ...map.list, items: pick.path } };
  if (pick.items.length === 0) return next;
  next.asset = detectAsset(pick.items, map, ev, categoryIds);
  const lastId = asId(readPath(pick.items[pick.items.length - 1], next.asset.id).value);

  const more = bodyField(list.body, pick.path, NAMES.hasMore, (v) => (asFlag(v) !== null ? 1 : 0));
  next.list.hasMore = more?.path ?? null;
  ev.add('list.hasMore', more?.confidence ?? 0.5, more?.evidence ?? 'no has-more field: the end is an empty page or a missing cursor');
  const total = bodyField(list.body, pick.path, NAMES.total, (v) => {
    const n = asCount(v);
    // A `count` equal to the page's length is the page's count, not the catalog's.
    return n === null ? 0 : n === pick.items.length && n < 100 ? 0.5 : 1;
  });
  next.list.total = total?.path ?? null;
  ev.add('list.total', total?.confidence ?? 0.5, total?.evidence ?? 'no total: progress without an ETA');
  const cursorLike = (v: unknown): number => (v === null || asId(v) !== null ? 1 : 0);
  const follows = cursorFollows(list.body, pick.items, next, lastId);
  const cursor = bodyField(list.body, pick.path, NAMES.cursor, (v) => cursorLike(v) * (follows(v) ? 1 : 0));
  const refused = cursor ? null : bodyField(list.body, pick.path, NAMES.cursor, cursorLike);
  const cursorValue = cursor ? cursorFrom(readPath(list.body, cursor.path).value, map.list.cursorParam) : undefined;
  if (cursor && cursorValue !== null && lastId !== null && String(cursorValue) === String(lastId)) {
    // Kept: it is the last id now, and its null on the last page ends the catalog without one more request.
    next.list.cursor = cursor.path;
    ev.add('list.cursor', 0.95, `\`${cursor.path}\` equals the last item's id (the spec's last_id)`);
  } else if (cursor) {
    next.list.cursor = cursor.path;
    ev.add('list.cursor', cursor.confidence, `${cursor.evidence} (sent back as \`${map.list.cursorParam}\`)`);
  } else if (refused) {
    next.list.cursor = null;
    ev.add(
      'list.cursor',
      lastId !== null ? 0.7 : 0,
      `${refused.evidence} does not follow the last item while more follow (an echo of the request, or a constant): the last item's id is the next last_id (the spec's rule)`,
    );
  } else {
    next.list.cursor = null;
    ev.add('list.cursor', lastId !== null ? 0.7 : 0, "no cursor field: the last item's id is the next last_id (the spec's rule)");
  }

  // The page-size trick: each candidate name carried a different size; the count tells which one the service honoured.
  if (list.pageSizes && Object.keys(list.pageSizes).length > 0) {
    const received = pick.items.length;
    const honoured = Object.entries(list.pageSizes)
      .filter(([, n]) => n === received)
      .map(([name]) => name);
    const saysMore = asFlag(readPath(list.body, next.list.hasMore).value) === true;
    const moreInTotal = (asCount(readPath(list.body, next.list.total).value) ?? 0) > received;
    const nextCursor = next.list.cursor !== null && asId(readPath(list.body, next.list.cursor).value) !== null;
    const moreFollow = saysMore || moreInTotal || nextCursor;
    if (honoured.length === 1) {
      next.list.pageSizeParam = honoured[0]!;
      ev.add(
        'list.pageSizeParam',
        moreFollow ? 0.95 : 0.5,
        `asked ${Object.entries(list.pageSizes)
          .map(([k, n]) => `${k}=${n}`)
          .join(' ')}; got ${received} items`,
      );
      if (!moreFollow)
        ev.warnings.push(
          `The sample page held ${received} items and no more followed: \`${honoured[0]}\` may be the catalog's size by chance. Check list.pageSizeParam.`,
        );
    } else {
      next.list.pageSizeParam = map.list.pageSizeParam;
      ev.add('list.pageSizeParam', 0, `no candidate size matched the ${received} items returned`);
      ev.warnings.push(
        `The page size is unknown: the service returned ${received} items and honoured none of ${Object.keys(list.pageSizes).join(', ')}. Kept \`${map.list.pageSizeParam}\`; set list.pageSizeParam if the service has one.`,
      );
    }
  }
  return next;
}

function detectCategories(body: unknown, map: ServiceMap, ev: Evidence): { map: ServiceMap; ids: Set<string> } {
  const pick = pickItems(body, 'categories', true);
  ev.warnings.push(...pick.warnings);
  ev.add('categories.items', pick.confidence, pick.evidence);
  const next: ServiceMap = { ...map, categories: { items: pick.path } };
  const ids = new Set<string>();
  const objects = pick.items.filter(isRecord);
  if (objects.length === 0) {
    for (const item of pick.items) {
      const t = asText(item);
      if (t !== null) ids.add(t.toLowerCase());
    }
    if (ids.size > 0) ev.add('category.id', 0.8, 'a list of names: each name is the category');
    return { map: next, ids };
  }
  const id = pickField(objects, NAMES.categoryId, isScalarText);
  const category = { ...map.category };
  if (id) category.id = id.path;
  ev.add('category.id', id?.confidence ?? 0, id?.evidence ?? 'no id-like field in the categories');
  const name = pickField(objects, NAMES.categoryName, isText, new Set(id ? [id.path] : []));
  category.name = name?.path ?? null;
  ev.add('category.name', name?.confidence ?? 0.5, name?.evidence ?? 'no name: the id is shown');
  const count = pickField(objects, NAMES.categoryCount, isCount, new Set([...(id ? [id.path] : []), ...(name ? [name.path] : [])]));
  category.count = count?.path ?? null;
  ev.add('category.count', count?.confidence ?? 0.5, count?.evidence ?? 'no count');
  next.category = category;
  for (const item of objects) {
    const t = asText(readPath(item, category.id).value);
    if (t !== null) ids.add(t.toLowerCase());
    const n = category.name === null ? null : asText(readPath(item, category.name).value);
    if (n !== null) ids.add(n.toLowerCase());
  }
  return { map: next, ids };
}

/** The candidate whose sent value every result shows (a tie goes to the likelier, earlier name); null when none does. */
function honouredBy<V>(sent: Record<string, V> | undefined, fits: (value: V) => boolean): { name: string | null; tied: string[] } {
  if (!sent) return { name: null, tied: [] };
  const hits = Object.entries(sent)
    .filter(([, v]) => fits(v))
    .map(([k]) => k);
  return { name: hits[0] ?? null, tied: hits.length > 1 ? hits : [] };
}

const parentOf = (path: string): string => (path.includes('.') ? path.slice(0, path.lastIndexOf('.')) : '');
const leafOf = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

/**
 * Of the category names a search honoured alike (the probe sends one category under every name):
 * the one named as the assets' category field (`categoryId` items -> `categoryId`, exact case
 * first); else the likeliest name in each object that holds a possible text field (`category`
 * beside `query`, `filter.category` beside `filter.text`), sent under each.
 */
function likeliestCategoryName(tied: readonly string[], textNames: readonly string[], assetCategory: string | null): string {
  const named = assetCategory === null ? null : leafOf(assetCategory.split('|')[0]!);
  const match = named === null ? undefined : (tied.find((n) => leafOf(n) === named) ?? tied.find((n) => norm(leafOf(n)) === norm(named)));
  if (match !== undefined) return match;
  const parents = new Set(textNames.map(parentOf));
  const beside = [...parents].map((p) => tied.find((n) => parentOf(n) === p)).filter((n): n is string => n !== undefined);
  return (beside.length > 0 ? beside : [tied[0]!]).join('|');
}

function detectSearch(samples: Samples, map: ServiceMap, ev: Evidence): ServiceMap {
  const search = samples.search;
  if (!search) return map;
  const pick = pickItems(search.body, 'search');
  ev.warnings.push(...pick.warnings.filter((w) => !w.includes('empty')));
  ev.add('search.items', pick.confidence, pick.evidence);
  const total = bodyField(search.body, pick.path, NAMES.total, (v) => (asCount(v) !== null ? 1 : 0));
  const next: ServiceMap = { ...map, search: { ...map.search, items: pick.path, total: total?.path ?? null } };
  const items = pick.items.filter(isRecord);
  if (items.length === 0) {
    // Nothing ruled out (the word and the category may just not meet): each field goes under every candidate name.
    const all = (sent: Record<string, unknown> | undefined, fallback: string | null): string | null =>
      sent && Object.keys(sent).length > 0 ? Object.keys(sent).join('|') : fallback;
    next.search = {
      ...next.search,
      textField: all(search.text, map.search.textField)!,
      categoryField: all(search.category, map.search.categoryField),
      limitField: all(search.limit, map.search.limitField),
    };
    ev.add('search.textField', 0.2, 'the sample search found nothing: sent under every candidate name');
    ev.warnings.push(
      'The sample search found nothing, so its field names could not be told: text, category and limit are sent under every usual name. Narrow them in the service map (search.*Field).',
    );
    return next;
  }
  const titles = items.map((i) => (next.asset.title === null ? '' : (asText(readPath(i, next.asset.title).value) ?? '')).toLowerCase());
  const text = honouredBy(search.text, (word) => titles.every((t) => t.includes(word.toLowerCase())));
  if (text.name) {
    // Several words in every result's title: each of those names may be the one, so the text goes under each
    // (the probe showed the service takes them all at once).
    next.search.textField = text.tied.length > 0 ? text.tied.join('|') : text.name;
    ev.add(
      'search.textField',
      text.tied.length > 0 ? 0.6 : 0.9,
      text.tied.length > 0
        ? `every result's title holds each word sent as ${text.tied.map((n) => `\`${n}\``).join(', ')}: sent under each`
        : `every result's title holds the word sent as \`${text.name}\``,
    );
  } else ev.add('search.textField', 0.3, 'the results do not tell the text field');
  const categories = items.map((i) => (next.asset.category === null ? null : (asText(readPath(i, next.asset.category).value)?.toLowerCase() ?? null)));
  const honoured = honouredBy(search.category, (c) => categories.every((x) => x === String(c).toLowerCase()));
  const category =
    honoured.tied.length > 0 ? { ...honoured, name: likeliestCategoryName(honoured.tied, next.search.textField.split('|'), next.asset.category) } : honoured;
  if (category.name) {
    next.search.categoryField = category.name;
    next.search.categoryType = typeof search.category?.[category.name] === 'number' ? 'number' : 'string';
    ev.add(
      'search.categoryField',
      category.tied.length > 0 ? 0.6 : 0.9,
      category.tied.length > 0
        ? `every result is in the category sent under each name: \`${category.name}\` is named like the assets' category field, or sits beside the text field`
        : `every result is in the category sent as \`${category.name}\``,
    );
  } else {
    ev.add('search.categoryField', 0, 'no candidate category field was honoured');
    if (search.category && Object.keys(search.category).length > 0 && new Set(categories).size > 1) {
      ev.warnings.push(
        `The category filter is unknown: results came from several categories whatever the field (${Object.keys(search.category).join(', ')}). Kept \`${map.search.categoryField}\`; set search.categoryField.`,
      );
    }
  }
  // Only a result cut short by the limit tells it: with fewer matches than every limit, the count is the matches'.
  const matches = total ? asCount(readPath(search.body, total.path).value) : null;
  const limit = honouredBy(search.limit, (n) => n === items.length);
  // Names not ruled out: with all the matches returned, the honoured limit is at least their number.
  const possible = Object.entries(search.limit ?? {})
    .filter(([, n]) => n >= items.length)
    .map(([name]) => name);
  if (limit.name && matches !== null && matches > items.length) {
    next.search.limitField = limit.name;
    ev.add('search.limitField', 0.85, `asked different limits; got ${items.length} of ${matches} results, the value of \`${limit.name}\``);
  } else if (possible.length > 0) {
    // The probe showed the service takes unknown fields: send the limit under each name still possible.
    next.search.limitField = possible.join('|');
    ev.add('search.limitField', 0.4, `only ${items.length} matches, fewer than most limits asked: sent under each name not ruled out`);
    ev.warnings.push(
      `The search limit field could not be told (the sample search had only ${items.length} matches): the limit is sent under each of ${possible.length} possible names. Narrow search.limitField in the service map.`,
    );
  } else ev.add('search.limitField', 0.3, `got ${items.length} results: no candidate limit matched`);
  return next;
}

/** The state words proposed: the map's own plus the usual synonyms (a word met in a sample is flagged). */
export function proposedStates(map: ServiceMap): StateWord[] {
  const out: StateWord[] = [...map.states];
  const has = (word: string): boolean => out.some((s) => s.word.toLowerCase() === word.toLowerCase());
  for (const state of ['registered', 'validated', 'cancelled'] as const) {
    const actions = map.states.find((s) => s.state === state)?.actions ?? DEFAULT_SERVICE_MAP.states.find((s) => s.state === state)!.actions;
    for (const word of STATE_SYNONYMS[state]) if (!has(word)) out.push({ word, state, actions: [...actions] });
  }
  return out.slice(0, 50);
}

/** History points from a real answer (nothing probes history for free). */
export function detectHistory(body: unknown, map: ServiceMap, ev: Evidence = new Evidence()): Proposal {
  const pick = pickItems(body, 'history');
  ev.warnings.push(...pick.warnings);
  ev.add('history.points', pick.confidence, pick.evidence);
  const next: ServiceMap = { ...map, history: { ...map.history, points: pick.path }, historyPoint: { ...map.historyPoint } };
  const time = pickField(pick.items, NAMES.time, (v) => (asTimeMs(v, 'auto') !== null ? 1 : 0));
  if (time) {
    next.historyPoint.time = time.path;
    const sample = pick.items.filter(isRecord).map((i) => readPath(i, time.path).value);
    const numeric = sample.every((v) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v)));
    next.historyPoint.timeFormat = numeric ? (sample.some((v) => Number(v) > 1e11) ? 'epoch-ms' : 'epoch-s') : 'iso';
    ev.add('historyPoint.time', time.confidence, `${time.evidence} (${next.historyPoint.timeFormat})`);
  } else ev.add('historyPoint.time', 0, 'no time-like field');
  const value = pickField(pick.items, NAMES.value, isAmount, new Set(time ? [time.path] : []));
  next.historyPoint.value = value?.path ?? null;
  ev.add('historyPoint.value', value?.confidence ?? 0, value?.evidence ?? 'no value-like field');
  const event = pickField(pick.items, NAMES.event, isText, new Set([...(time ? [time.path] : []), ...(value ? [value.path] : [])]));
  next.historyPoint.event = event?.path ?? null;
  return finish(next, ev, ['history.points', 'historyPoint.time']);
}

/** Where the object is in a single-object answer: the body, or an envelope (`data`, `purchase`, JSON:API). */
function objectAt(body: unknown, fields: readonly string[]): { at: string | null; value: unknown } {
  if (!isRecord(body)) return { at: null, value: body };
  const direct = leaves(body, 1).some((l) => nameScore(l.path, fields) > 0 && asId(l.value) !== null);
  if (direct) return { at: null, value: body };
  for (const [key, value] of Object.entries(body)) {
    if (isRecord(value) && NAMES.container.includes(norm(key))) return { at: key, value };
  }
  return { at: null, value: body };
}

const RELATION_DEPTH = 3;
const RELATED_ID_DEPTH = 3;

/**
 * An id held by a related-resource object named like the field, where a plain field is missing:
 * `relationships.asset.data.id` (JSON:API), `_embedded.product.id`, `asset.node.uuid`. The object is
 * looked for within a few keys of the answer, its id within a few more; both bounded (depth and
 * nodes), so a hostile answer costs little. The likeliest relation name wins, then the shortest path.
 */
function relatedId(value: unknown, relations: readonly string[]): FieldPick | null {
  const found: { path: string; rank: number }[] = [];
  const depthOf = (path: string): number => path.split('.').length;
  let nodes = 0;
  const walk = (v: unknown, path: string, d: number): void => {
    if (++nodes > MAX_NODES || d >= RELATION_DEPTH || !isRecord(v)) return;
    for (const [k, child] of Object.entries(v)) {
      if (UNSAFE_KEYS.has(k)) continue;
      const at = joinPath(path, k);
      const rank = relations.indexOf(norm(k));
      if (rank >= 0 && isRecord(child)) {
        for (const leaf of leaves(child, RELATED_ID_DEPTH)) {
          if (nameScore(leaf.path.split('.').pop()!, NAMES.id) > 0 && asId(leaf.value) !== null) found.push({ path: joinPath(at, leaf.path), rank });
        }
      }
      walk(child, at, d + 1);
    }
  };
  walk(value, '', 0);
  const best = found.sort((x, y) => x.rank - y.rank || depthOf(x.path) - depthOf(y.path))[0];
  if (!best) return null;
  const relation = best.path.split('.').find((k) => relations.includes(norm(k)));
  return { path: best.path, confidence: 0.7 - 0.02 * best.rank, evidence: `\`${best.path}\`: the id of a related \`${relation}\` object` };
}

/** A purchase answer's fields and state words from a real answer. */
export function detectPurchase(body: unknown, map: ServiceMap, ev: Evidence = new Evidence()): Proposal {
  const { at, value } = objectAt(body, NAMES.purchaseId);
  const one = [value];
  const next: ServiceMap = { ...map, purchase: { ...map.purchase, at }, states: proposedStates(map) };
  const id = pickField(one, NAMES.purchaseId, isScalarText);
  if (id) next.purchase.id = id.path;
  ev.add('purchase.id', id?.confidence ?? 0, id?.evidence ?? `no purchase id in ${describeBody(value)}`);
  const state = pickField(one, NAMES.purchaseState, isText, new Set(id ? [id.path] : []));
  next.purchase.state = state?.path ?? null;
  ev.add('purchase.state', state?.confidence ?? 0, state?.evidence ?? 'no state field');
  const asset = pickField(one, NAMES.purchaseAsset, isId, new Set(id ? [id.path] : [])) ?? relatedId(value, NAMES.purchaseAssetRelation);
  next.purchase.asset = asset?.path ?? null;
  ev.add('purchase.asset', asset?.confidence ?? 0, asset?.evidence ?? 'no asset field');
  const reference = pickField(one, NAMES.purchaseReference, isText, new Set(id ? [id.path] : []));
  next.purchase.reference = reference?.path ?? null;
  const word = state ? asText(readPath(value, state.path).value) : null;
  if (word !== null && !next.states.some((s) => s.word.toLowerCase() === word.toLowerCase())) {
    ev.warnings.push(`The purchase state "${word}" is not a known word: add it to the service map's states (every action is offered meanwhile).`);
  }
  return finish(next, ev, ['purchase.id']);
}

/** A URL answer's link and expiry (a time, or seconds from now). */
export function detectUrl(body: unknown, map: ServiceMap, ev: Evidence = new Evidence()): Proposal {
  const { at, value } = objectAt(body, NAMES.url);
  const one = [value];
  const next: ServiceMap = { ...map, url: { ...map.url, at } };
  const url = pickField(one, NAMES.url, (v) => (asWebUrl(v) !== null ? 1 : 0));
  if (url) next.url.url = url.path;
  ev.add('url.url', url?.confidence ?? 0, url?.evidence ?? 'no http(s) link');
  const seconds = pickField(one, NAMES.expirySeconds, (v) => (asDecimal(v) !== null ? 1 : 0));
  const time = pickField(one, NAMES.expiryTime, (v) => (asTimeMs(v, 'auto') !== null ? 1 : 0));
  if (time && (!seconds || time.confidence >= seconds.confidence)) {
    next.url.expiry = time.path;
    next.url.expiryKind = 'time';
  } else if (seconds) {
    next.url.expiry = seconds.path;
    next.url.expiryKind = 'seconds';
  } else next.url.expiry = null;
  ev.add('url.expiry', (time ?? seconds)?.confidence ?? 0.5, (time ?? seconds)?.evidence ?? 'no expiry');
  return finish(next, ev, ['url.url']);
}

/** Keys of the answers: camelCase or snake_case, whichever most multi-word keys use (null: no evidence). */
export function caseStyle(...bodies: unknown[]): 'camel' | 'snake' | null {
  let camel = 0;
  let snake = 0;
  for (const body of bodies) {
    for (const leaf of leaves(body, 5)) {
      for (const key of leaf.path.split('.')) {
        if (/^[a-z]+[A-Z]/.test(key)) camel++;
        else if (/^[a-z]+_[a-z]/.test(key)) snake++;
      }
    }
  }
  if (camel === snake) return null;
  return camel > snake ? 'camel' : 'snake';
}

/**
 * Request names that no free probe can test (a registration buys): proposed in the answers' case
 * style, with a modest confidence that says so.
 */
function requestNames(map: ServiceMap, style: 'camel' | 'snake' | null, ev: Evidence): ServiceMap {
  if (style === null) return map;
  const name = (snake: string, camel: string): string => (style === 'camel' ? camel : snake);
  const purchaseId = { in: 'query' as const, name: name('purchase_id', 'purchaseId') };
  const next: ServiceMap = {
    ...map,
    history: { ...map.history, assetIdField: name('asset_id', 'assetId') },
    register: { assetIdField: name('asset_id', 'assetId'), referenceField: name('client_reference', 'clientReference') },
    purchaseId: { purchaseInfo: purchaseId, downloadUrl: purchaseId, viewUrl: purchaseId, cancelPurchase: purchaseId },
    validate: { ...map.validate, name: name('purchase_id', 'purchaseId') },
    lookupByReference: map.lookupByReference === null ? null : { ...map.lookupByReference, name: name('client_reference', 'clientReference') },
    purchase: { ...map.purchase, asset: name('asset_id', 'assetId'), reference: name('client_reference', 'clientReference') },
    url: { ...map.url, expiry: name('expires_at', 'expiresAt') },
  };
  const why = `inferred from the answers' ${style === 'camel' ? 'camelCase' : 'snake_case'} names; not probed (that would buy a purchase): check them`;
  for (const field of ['register.assetIdField', 'register.referenceField', 'history.assetIdField', 'purchaseId', 'validate', 'lookupByReference'])
    ev.add(field, 0.5, why);
  return next;
}

function finish(map: ServiceMap, ev: Evidence, essential: readonly string[]): Proposal {
  const confidence = essential.length === 0 ? 1 : Math.min(...essential.map((f) => ev.get(f)));
  return { map, confidence: Math.round(confidence * 100) / 100, fields: ev.fields, warnings: [...new Set(ev.warnings)] };
}

/** The whole proposal from the probes' samples (categories, list page, search; history/purchase/url where given). */
export function detectServiceMap(samples: Samples, base: ServiceMap = DEFAULT_SERVICE_MAP): Proposal {
  const ev = new Evidence();
  try {
    let map: ServiceMap = { ...base, states: proposedStates(base) };
    let ids = new Set<string>();
    if (samples.categories !== undefined) ({ map, ids } = detectCategories(samples.categories, map, ev));
    map = detectList(samples, map, ev, ids);
    map = detectSearch(samples, map, ev);
    map = requestNames(map, caseStyle(samples.categories, samples.list?.body, samples.search?.body), ev);
    if (samples.history !== undefined) map = detectHistory(samples.history, map, ev).map;
    if (samples.purchase !== undefined) map = detectPurchase(samples.purchase, map, ev).map;
    if (samples.url !== undefined) map = detectUrl(samples.url, map, ev).map;
    if (samples.history === undefined)
      ev.add('history.points', 0.3, 'not sampled (one per asset): read with these fields, or detected on the first real answer if they do not fit');
    if (samples.purchase === undefined)
      ev.add('purchase.id', 0.3, 'not sampled (that would buy): read with these fields, or detected on the first real answer if they do not fit');
    return finish(map, ev, ['list.items', 'asset.id']);
  } catch (e) {
    // Detection must never take a view down: a bug here is a low-confidence proposal, said in words.
    return { map: base, confidence: 0, fields: ev.fields, warnings: [...ev.warnings, `Detection failed: ${e instanceof Error ? e.message : String(e)}`] };
  }
}

export { Evidence, PROBE_PAGE_SIZES };
