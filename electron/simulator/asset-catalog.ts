/**
 * The simulator's catalog: deterministic from (seed, size), generated on demand.
 *
 * Asset k (0 <= k < size) has id(k) = 1000 + 3k + (h(k) mod 3): strictly increasing with gaps, and
 * invertible in O(1), so "the page after last_id" costs O(page size) whatever the catalog size.
 * Nothing per asset is stored; a page of a 1,000,000-asset catalog costs what a page of 5,000 costs.
 */
import { ADJECTIVES, CATEGORIES, NOUNS, TAGS } from './words';
import { hashLane, mixSeed } from './hash';

export interface SimAsset {
  id: number;
  title: string;
  category: string;
  price: number;
  currency: 'USD';
  rating: number;
  downloads: number;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export interface SimHistoryEntry {
  at: string;
  event: 'created' | 'updated' | 'price_changed';
  price: number;
  version: number;
}

export interface CatalogPage {
  items: SimAsset[];
  last_id: number | null;
  has_more: boolean;
  total: number;
}

export interface SearchResult {
  items: SimAsset[];
  /** Number of matches, counted up to SEARCH_TOTAL_CAP. */
  total: number;
  /** true when counting stopped at the cap: the real number of matches is at least `total`. */
  total_capped: boolean;
}

export interface CategoryCount {
  id: string;
  name: string;
  count: number;
}

/** Largest catalog the simulator generates (ids stay far below 2^53). */
export const MAX_CATALOG_SIZE = 10_000_000;
/** A search stops counting matches here, so that a broad query on a huge catalog stays cheap. */
export const SEARCH_TOTAL_CAP = 10_000;
export const FIRST_ID = 1000;

// Hash lanes: one independent 32-bit value per group of fields.
const LANE_ID = 0;
const LANE_TITLE = 1; // category, adjective, noun, kind
const LANE_PRICE = 2; // price, rating
const LANE_TAGS = 3; // downloads, tags
const LANE_CREATED = 4;
const LANE_UPDATED = 5;
const LANE_HISTORY = 6;

const KINDS_PER_CATEGORY = 4;
const TITLE_CODES = CATEGORIES.length * KINDS_PER_CATEGORY * ADJECTIVES.length * NOUNS.length;
/** Steps coprime with TAGS.length (24), so successive picks never repeat a tag. */
const TAG_STEPS = [1, 5, 7, 11, 13, 17, 19, 23] as const;
const BASE_MS = Date.UTC(2019, 0, 1);
const SPAN_S = 6 * 365 * 86_400;
const DAY_S = 86_400;

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const DAY_MS = 86_400_000;
const dayPrefixes = new Map<number, string>();

/** ISO 8601 to the second ("2021-03-04T05:06:07Z"); Date#toISOString was most of a page's cost. */
function isoSeconds(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size > 20_000) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const s = Math.floor((ms - day * DAY_MS) / 1000);
  return `${prefix}${TWO_DIGITS[Math.floor(s / 3600)]!}:${TWO_DIGITS[Math.floor(s / 60) % 60]!}:${TWO_DIGITS[s % 60]!}Z`;
}

/** x.99 prices from 0.99 to 199.99. */
function priceFrom(h: number): number {
  return ((h % 200) * 100 + 99) / 100;
}

interface Matcher {
  titles: Uint8Array;
  tags: Uint8Array;
  anyTag: boolean;
}

export class AssetCatalog {
  readonly size: number;
  readonly seed: number;
  private readonly mixed: number;
  private categoryCounts: CategoryCount[] | null = null;
  private lowerTitles: string[] | null = null;
  private readonly matchers = new Map<string, Matcher>();

  constructor(size: number, seed: number) {
    if (!Number.isSafeInteger(size) || size < 0 || size > MAX_CATALOG_SIZE) {
      throw new RangeError(`catalog size must be an integer from 0 to ${MAX_CATALOG_SIZE}, got ${size}`);
    }
    if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
    this.size = size;
    this.seed = seed | 0;
    this.mixed = mixSeed(this.seed);
  }

  idAt(k: number): number {
    return FIRST_ID + 3 * k + (hashLane(this.mixed, k, LANE_ID) % 3);
  }

  /** Index of the asset with this id, or -1. */
  indexOfId(id: number): number {
    if (!Number.isSafeInteger(id) || id < FIRST_ID) return -1;
    const k = Math.floor((id - FIRST_ID) / 3);
    if (k >= this.size) return -1;
    return this.idAt(k) === id ? k : -1;
  }

  /** Index of the first asset whose id is greater than lastId (size when there is none). */
  firstIndexAfter(lastId: number): number {
    if (lastId < FIRST_ID) return 0;
    const k = Math.floor((lastId - FIRST_ID) / 3);
    if (k >= this.size) return this.size;
    return this.idAt(k) > lastId ? k : k + 1;
  }

  private titleCode(k: number): number {
    const h = hashLane(this.mixed, k, LANE_TITLE);
    const category = h & 7;
    const adjective = (h >>> 3) & 31;
    const noun = (h >>> 8) & 31;
    const kind = (h >>> 13) & 3;
    return ((category * KINDS_PER_CATEGORY + kind) * ADJECTIVES.length + adjective) * NOUNS.length + noun;
  }

  private static titleOf(code: number): { title: string; category: number } {
    const noun = code % NOUNS.length;
    const rest = Math.floor(code / NOUNS.length);
    const adjective = rest % ADJECTIVES.length;
    const categoryKind = Math.floor(rest / ADJECTIVES.length);
    const category = Math.floor(categoryKind / KINDS_PER_CATEGORY);
    const def = CATEGORIES[category]!;
    const kind = def.kinds[categoryKind % KINDS_PER_CATEGORY]!;
    return { title: `${ADJECTIVES[adjective]!} ${NOUNS[noun]!} ${kind}`, category };
  }

  private tagIndexes(k: number): number[] {
    const h = hashLane(this.mixed, k, LANE_TAGS);
    const count = 2 + ((h >>> 10) % 3);
    const start = (h >>> 14) % TAGS.length;
    const step = TAG_STEPS[(h >>> 20) & 7]!;
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push((start + i * step) % TAGS.length);
    return out;
  }

  private times(k: number): { created: number; updated: number; versions: number } {
    // Spread over six years in id order (k * SPAN_S stays far below 2^53 for every allowed size).
    const created = BASE_MS + (Math.floor((k * SPAN_S) / Math.max(this.size, 1)) + (hashLane(this.mixed, k, LANE_CREATED) % DAY_S)) * 1000;
    const versions = 1 + (hashLane(this.mixed, k, LANE_HISTORY) % 4);
    const updated = versions === 1 ? created : created + (1 + (hashLane(this.mixed, k, LANE_UPDATED) % (200 * DAY_S))) * 1000;
    return { created, updated, versions };
  }

  /** The asset at index k (0 <= k < size). */
  assetAt(k: number): SimAsset {
    const { title, category } = AssetCatalog.titleOf(this.titleCode(k));
    const hp = hashLane(this.mixed, k, LANE_PRICE);
    const ht = hashLane(this.mixed, k, LANE_TAGS);
    const u = (ht % 1000) / 1000;
    const { created, updated } = this.times(k);
    return {
      id: this.idAt(k),
      title,
      category: CATEGORIES[category]!.id,
      price: priceFrom(hp),
      currency: 'USD',
      rating: (10 + ((hp >>> 8) % 41)) / 10,
      downloads: Math.floor(u * u * u * 250_000),
      tags: this.tagIndexes(k).map((i) => TAGS[i]!),
      created_at: isoSeconds(created),
      updated_at: isoSeconds(updated),
    };
  }

  /** The page after lastId (null: the first page). O(perPage). */
  page(lastId: number | null, perPage: number): CatalogPage {
    const start = lastId === null ? 0 : this.firstIndexAfter(lastId);
    const end = Math.min(this.size, start + perPage);
    const items: SimAsset[] = [];
    for (let k = start; k < end; k++) items.push(this.assetAt(k));
    const last = items[items.length - 1];
    return { items, last_id: last ? last.id : null, has_more: end < this.size, total: this.size };
  }

  /** Category counts: one cheap pass (one hash per asset) the first time, then cached. */
  categories(): CategoryCount[] {
    if (!this.categoryCounts) {
      const counts = new Array<number>(CATEGORIES.length).fill(0);
      for (let k = 0; k < this.size; k++) {
        const c = hashLane(this.mixed, k, LANE_TITLE) & 7;
        counts[c] = (counts[c] ?? 0) + 1;
      }
      this.categoryCounts = CATEGORIES.map((c, i) => ({ id: c.id, name: c.name, count: counts[i] ?? 0 }));
    }
    return this.categoryCounts.map((c) => ({ ...c }));
  }

  isCategory(id: string): boolean {
    return CATEGORIES.some((c) => c.id === id);
  }

  /** Per-query tables of which title codes and tags match: 32,768 substring tests instead of one per asset. */
  private matcher(query: string): Matcher {
    const q = query.toLowerCase();
    let m = this.matchers.get(q);
    if (m) return m;
    if (!this.lowerTitles) {
      this.lowerTitles = [];
      for (let code = 0; code < TITLE_CODES; code++) this.lowerTitles.push(AssetCatalog.titleOf(code).title.toLowerCase());
    }
    const titles = new Uint8Array(TITLE_CODES);
    for (let code = 0; code < TITLE_CODES; code++) titles[code] = this.lowerTitles[code]!.includes(q) ? 1 : 0;
    const tags = new Uint8Array(TAGS.length);
    let anyTag = false;
    TAGS.forEach((t, i) => {
      if (t.includes(q)) {
        tags[i] = 1;
        anyTag = true;
      }
    });
    m = { titles, tags, anyTag };
    if (this.matchers.size >= 64) this.matchers.delete(this.matchers.keys().next().value as string);
    this.matchers.set(q, m);
    return m;
  }

  /**
   * Case-insensitive substring search on title and tags, optionally within one category, in id order.
   * Scans from the start; stops once `limit` items are found and SEARCH_TOTAL_CAP matches are counted.
   */
  search(query: string, category: string | undefined, limit: number): SearchResult {
    const m = this.matcher(query);
    const categoryIndex = category === undefined ? -1 : CATEGORIES.findIndex((c) => c.id === category);
    const items: SimAsset[] = [];
    let total = 0;
    let k = 0;
    for (; k < this.size; k++) {
      const code = this.titleCode(k);
      if (categoryIndex >= 0 && Math.floor(code / (KINDS_PER_CATEGORY * ADJECTIVES.length * NOUNS.length)) !== categoryIndex) continue;
      let hit = m.titles[code] === 1;
      if (!hit && m.anyTag) hit = this.tagIndexes(k).some((i) => m.tags[i] === 1);
      if (!hit) continue;
      total++;
      if (items.length < limit) items.push(this.assetAt(k));
      if (total >= SEARCH_TOTAL_CAP && items.length >= limit) break;
    }
    return { items, total, total_capped: k < this.size - 1 && total >= SEARCH_TOTAL_CAP };
  }

  /** A few deterministic history entries for the asset with this id, oldest first; null when unknown. */
  history(id: number): SimHistoryEntry[] | null {
    const k = this.indexOfId(id);
    if (k < 0) return null;
    const { created, updated, versions } = this.times(k);
    const finalPrice = this.assetAt(k).price;
    const out: SimHistoryEntry[] = [];
    let previous = 0;
    for (let v = 1; v <= versions; v++) {
      const at = versions === 1 ? created : created + Math.floor(((updated - created) * (v - 1)) / (versions - 1) / 1000) * 1000;
      const price = v === versions ? finalPrice : priceFrom(hashLane(this.mixed, k, 16 + v));
      const event = v === 1 ? 'created' : price !== previous ? 'price_changed' : 'updated';
      out.push({ at: isoSeconds(v === versions ? updated : at), event, price, version: v });
      previous = price;
    }
    return out;
  }
}
