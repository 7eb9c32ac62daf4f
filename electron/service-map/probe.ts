/**
 * The probes behind detection: at most 3 requests of budget through the rate-aware client.
 *   1. categories;
 *   2. one list page that sends EVERY usual page-size parameter name at once, each with a different
 *      odd size (`per-page=11&limit=13&per_page=17&...`): the number of items returned tells which
 *      name the service honours (none matching: the page size is unknown, a warning says so);
 *   3. one search whose body carries every usual text, category and limit field name at once: a
 *      different title word per text name, one category (that of the words' assets) under every
 *      category name, a different limit per limit name: the results tell which names are honoured.
 * A service that refuses the extra names (400) gets a plain list page instead of the search.
 * History and purchases are never probed (that would cost a purchase): see shared/service-map/fallback.ts.
 */
import type { EndpointId } from '../../shared/endpoints';
import { toErrorData } from '../../shared/errors';
import { detectServiceMap } from '../../shared/service-map/detect';
import type { Proposal, Samples } from '../../shared/service-map/detect';
import {
  PAGE_SIZE_PARAMS,
  PROBE_PAGE_SIZES,
  PROBE_SEARCH_LIMITS,
  SEARCH_CATEGORY_FIELDS,
  SEARCH_LIMIT_FIELDS,
  SEARCH_TEXT_FIELDS,
} from '../../shared/service-map/names';
import { readPath, writePath } from '../../shared/service-map/field-path';
import { findItems, Misses, readAssetPage } from '../../shared/service-map/read';
import { asId } from '../../shared/service-map/values';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import type { RequestOptions } from '../client';

export interface ProbeClient {
  request(endpoint: EndpointId, options?: RequestOptions): Promise<{ status: number; body: unknown }>;
}

export interface ProbeResult {
  proposal: Proposal;
  /** The answers as received (the caller masks tokens before showing them). */
  samples: { categories: unknown; list: unknown; search: unknown };
  requests: number;
}

export const PROBE_BUDGET = 3;

/** The list query of the page-size trick: each candidate name with its own size. */
export function pageSizeCandidates(): Record<string, number> {
  return Object.fromEntries(PAGE_SIZE_PARAMS.map((name, i) => [name, PROBE_PAGE_SIZES[i]!]));
}

const WORD = /[\p{L}\p{N}]{3,}/gu;

export interface SearchProbe {
  text: Record<string, string>;
  /** Category ids as the service gives them (numbers stay numbers). */
  category: Record<string, string | number>;
  limit: Record<string, number>;
  /** The body sent: every candidate field at once. */
  request: Record<string, unknown>;
}

/**
 * The search body of the field-name trick, from what the first two answers showed. The service
 * honours one text name and one category name, which one unknown: the results are non-empty only
 * if its word and its category meet in some asset. So every word comes from the sample's assets of
 * ONE category (the one most of them are in), and that category is sent under every category name
 * (detection then tells that name by the map's other names); the words differ per text name.
 */
export function searchCandidates(map: ServiceMap, listBody: unknown, categoriesBody: unknown): SearchProbe {
  const assets = readAssetPage(listBody, map).value.items;
  const given = findItems(categoriesBody, map.categories.items, 'categories.items', new Misses())
    .map((item) => asId(typeof item === 'object' ? readPath(item, map.category.id).value : item))
    .filter((id): id is string | number => id !== null);
  // The category as the categories answer writes it (numbers stay numbers), the sample's most common first.
  const perCategory = new Map<string, number>();
  for (const a of assets) if (a.category !== undefined) perCategory.set(String(a.category), (perCategory.get(String(a.category)) ?? 0) + 1);
  const chosen = given.filter((c) => perCategory.has(String(c))).sort((a, b) => (perCategory.get(String(b)) ?? 0) - (perCategory.get(String(a)) ?? 0))[0];
  // The words of that category's assets (of all assets when none is known), the most widespread first.
  const counts = new Map<string, number>();
  for (const a of assets) {
    if (chosen !== undefined && String(a.category) !== String(chosen)) continue;
    for (const w of new Set(
      String(a.title ?? '')
        .toLowerCase()
        .match(WORD) ?? [],
    ))
      counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const words = [...counts.keys()].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
  const text: Record<string, string> = {};
  SEARCH_TEXT_FIELDS.forEach((f, i) => {
    const w = words[i];
    if (w !== undefined) text[f] = w;
  });
  const category: Record<string, string | number> = chosen === undefined ? {} : Object.fromEntries(SEARCH_CATEGORY_FIELDS.map((f) => [f, chosen]));
  const limit: Record<string, number> = Object.fromEntries(SEARCH_LIMIT_FIELDS.map((f, i) => [f, PROBE_SEARCH_LIMITS[i]!]));
  const request: Record<string, unknown> = {};
  for (const [field, value] of [...Object.entries(text), ...Object.entries(category), ...Object.entries(limit)]) writePath(request, field, value);
  return { text, category, limit, request };
}

type Attempt = { ok: true; body: unknown } | { ok: false; status: number | undefined };

export interface ProbeOptions {
  base?: ServiceMap;
  signal?: AbortSignal;
  /** Default true. False: no search probe (a catalog download never searches: one request less, no search-field warnings). */
  search?: boolean;
}

/** Probes the service (<= 3 requests) and proposes a map. The service's failures become warnings; only a cancel throws. */
export async function probeService(client: ProbeClient, options: ProbeOptions = {}): Promise<ProbeResult> {
  const base = options.base ?? DEFAULT_SERVICE_MAP;
  const call = { priority: 'interactive' as const, ...(options.signal ? { signal: options.signal } : {}) };
  const warnings: string[] = [];
  let requests = 0;
  const attempt = async (endpoint: EndpointId, what: string, extra: RequestOptions = {}): Promise<Attempt> => {
    requests++;
    try {
      return { ok: true, body: (await client.request(endpoint, { ...call, ...extra })).body };
    } catch (e) {
      const error = toErrorData(e);
      if (error.code === 'CANCELLED') throw e;
      warnings.push(`The ${what} probe failed: ${error.message}`);
      return { ok: false, status: error.status };
    }
  };

  const samples: Samples = {};
  const categories = await attempt('categories', 'categories');
  if (categories.ok) samples.categories = categories.body;
  // Unreachable, or the token refused: the other probes would only fail the same way.
  if (!categories.ok && (categories.status === undefined || categories.status === 401 || categories.status === 403)) {
    const proposal = detectServiceMap(samples, base);
    return {
      proposal: { ...proposal, confidence: 0, warnings: [...warnings, ...proposal.warnings] },
      samples: { categories: null, list: null, search: null },
      requests,
    };
  }

  const pageSizes = pageSizeCandidates();
  let list = await attempt('listAssets', 'list (page-size candidates)', { query: pageSizes });
  let sized = list.ok;
  if (!list.ok && list.status === 400 && requests < PROBE_BUDGET) {
    warnings.push('The service refused the page-size candidates (400): a plain page was asked instead, and the page-size parameter stays unknown.');
    list = await attempt('listAssets', 'plain list');
    sized = false;
  }
  if (list.ok) samples.list = sized ? { body: list.body, pageSizes } : { body: list.body };

  if (list.ok && options.search !== false && requests < PROBE_BUDGET) {
    const firstGuess = detectServiceMap(samples, base).map;
    const probe = searchCandidates(firstGuess, list.body, samples.categories);
    if (Object.keys(probe.text).length > 0) {
      const search = await attempt('searchAssets', 'search (field-name candidates)', { body: probe.request });
      if (search.ok) samples.search = { body: search.body, text: probe.text, category: probe.category, limit: probe.limit };
    } else warnings.push('No title words in the sample page to search for: the search field names keep their defaults.');
  }

  const proposal = detectServiceMap(samples, base);
  return {
    proposal: { ...proposal, warnings: [...warnings, ...proposal.warnings] },
    samples: { categories: samples.categories ?? null, list: samples.list?.body ?? null, search: samples.search?.body ?? null },
    requests,
  };
}
