import { useSyncExternalStore } from 'react';
import type { EndpointId } from '../../../shared/endpoints';
import { isEndpointId } from '../../../shared/endpoints';

// Every view the hash can name; the header's order (and the number shortcuts') is lib/nav.ts.
export const VIEWS = ['budget', 'catalog', 'purchases', 'requests', 'alerts', 'settings', 'usage', 'overview'] as const;
export type ViewId = (typeof VIEWS)[number];

export interface Route {
  view: ViewId;
  /** The rest after the view, e.g. an asset id: #/catalog/123. */
  param: string | null;
  /** A moment to open the view at (`#/budget/at=<epoch ms>`, from the Usage report); null when absent or not a valid time. */
  at: number | null;
  /** An endpoint to open the view at (`#/budget/endpoint=<id>`, from the Overview); null when absent or unknown. */
  endpoint: EndpointId | null;
}

/** The latest time a Date can hold. */
const MAX_DATE_MS = 8.64e15;

/** `at=<epoch ms>` as a time, or null for anything else (negative, fractional, past what a Date holds). */
function parseAt(param: string | null): number | null {
  const match = /^at=(\d{1,16})$/.exec(param ?? '');
  const ms = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(ms) && ms <= MAX_DATE_MS ? ms : null;
}

/** `endpoint=<id>` as one of the 10 endpoints, or null for anything else. */
function parseEndpoint(param: string | null): EndpointId | null {
  const match = /^endpoint=(\w+)$/.exec(param ?? '');
  return match && isEndpointId(match[1]) ? match[1] : null;
}

/** Settings with the add-profile form open (#/settings/add-profile). */
export const ADD_PROFILE_PARAM = 'add-profile';

/** The Budget view at one endpoint (the Overview's cells link there). */
export function endpointParam(endpoint: EndpointId): string {
  return `endpoint=${endpoint}`;
}

/** Percent-decoding that never throws: a malformed escape (`%E0%A4%A`) is kept as typed. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Total: every hash gives a route (unknown views land on Budget), whatever was typed or pasted. */
export function parseRoute(hash: string): Route {
  const [view, ...rest] = hash.replace(/^#\/?/, '').split('/');
  const known = (VIEWS as readonly string[]).includes(view ?? '') ? (view as ViewId) : 'budget';
  const param = known === view && rest.length > 0 && rest.join('/') !== '' ? safeDecode(rest.join('/')) : null;
  return { view: known, param, at: parseAt(param), endpoint: parseEndpoint(param) };
}

export function routeHref(view: ViewId, param?: string | number | null): string {
  return param === null || param === undefined ? `#/${view}` : `#/${view}/${encodeURIComponent(String(param))}`;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

/** The current hash route; reloading keeps the view. */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}

export function navigate(view: ViewId, param?: string | number | null): void {
  window.location.hash = routeHref(view, param);
}
