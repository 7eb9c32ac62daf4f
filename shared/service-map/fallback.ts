/**
 * History, purchase and URL answers cannot be sampled for free (no probe buys a purchase), so when
 * the map does not fit such an answer, detection runs on that first real answer. The layout found
 * is kept for the session (keyed by the session's map object, as validate keeps what a 400 taught):
 * later answers are read with it directly. It is also offered to the session's keeper (the app puts
 * it into a profile map that is detected, not yet reviewed: what is in use is what the review shows).
 * Where nobody kept it (a reviewed map, which only the user changes), the first answer carries one
 * note (not a warning: nothing is wrong with the service) that offers Detect again.
 */
import { detectHistory, detectPurchase, detectUrl } from './detect';
import type { Proposal } from './detect';
import { readHistory, readPurchase, readUrl } from './read';
import type { Read } from './read';
import type { ServiceMap } from './schema';

const MIN_CONFIDENCE = 0.4;

type Kind = 'history' | 'purchase' | 'url';

/** The layouts learned this session, per answer kind, for each session map. */
const learned = new WeakMap<ServiceMap, Partial<Record<Kind, ServiceMap>>>();

/** Per session map: keeps a detected layout in the profile's map; true when it did. */
export type LayoutKeeper = (detected: ServiceMap) => boolean;
const keepers = new WeakMap<ServiceMap, LayoutKeeper>();

/** Layouts detected from answers read with `map` (a session's) are offered to `keep`. */
export function keepDetectedLayouts(map: ServiceMap, keep: LayoutKeeper): void {
  keepers.set(map, keep);
}

export type FallbackRead<T> = Read<T> & {
  /** How the answer was read, for the user to know (e.g. a detected layout to save); not a fault. */
  notes: string[];
  /** The map the answer was read with, when it was not the session's own. */
  detected?: ServiceMap;
};

function withFallback<T>(
  kind: Kind,
  read: (map: ServiceMap) => Read<T>,
  detect: (map: ServiceMap) => Proposal,
  essential: readonly string[],
  what: string,
  map: ServiceMap,
): FallbackRead<T> {
  const fits = (r: Read<T>): boolean => !r.missing.some((m) => essential.includes(m));
  const known = learned.get(map)?.[kind];
  if (known !== undefined) {
    const again = read(known);
    if (fits(again)) return { ...again, notes: [], detected: known };
  }
  const first = read(map);
  if (fits(first)) return { ...first, notes: [] };
  const proposal = detect(map);
  if (proposal.confidence < MIN_CONFIDENCE) return { ...first, notes: [] };
  const second = read(proposal.map);
  if (!fits(second)) return { ...first, notes: [] };
  learned.set(map, { ...learned.get(map), [kind]: proposal.map });
  if (keepers.get(map)?.(proposal.map) === true) return { ...second, notes: [], detected: proposal.map };
  const used = proposal.fields
    .filter((f) => f.confidence > 0)
    .map((f) => f.field)
    .join(', ');
  return {
    ...second,
    notes: [
      `The ${what} does not fit the service map: it was read with a detected layout (${used}) for this session. Detect again: the map is then kept as detected (not yet reviewed) and takes this layout from the next such answer.`,
    ],
    detected: proposal.map,
  };
}

export function readHistoryOrDetect(body: unknown, map: ServiceMap): FallbackRead<ReturnType<typeof readHistory>['value']> {
  return withFallback(
    'history',
    (m) => readHistory(body, m),
    (m) => detectHistory(body, m),
    ['history.points', 'historyPoint.time'],
    'history answer',
    map,
  );
}

export function readPurchaseOrDetect(body: unknown, map: ServiceMap): FallbackRead<ReturnType<typeof readPurchase>['value']> {
  return withFallback(
    'purchase',
    (m) => readPurchase(body, m),
    (m) => detectPurchase(body, m),
    ['purchase.id', 'purchase.state', 'purchase.at'],
    'purchase answer',
    map,
  );
}

export function readUrlOrDetect(body: unknown, map: ServiceMap, nowMs: number): FallbackRead<ReturnType<typeof readUrl>['value']> {
  return withFallback(
    'url',
    (m) => readUrl(body, m, nowMs),
    (m) => detectUrl(body, m),
    ['url.url', 'url.expiry'],
    'link answer',
    map,
  );
}
