/**
 * History, purchase and URL answers cannot be sampled for free (no probe buys a purchase), so when
 * the map does not fit such an answer, detection runs on that first real answer: the values are read
 * with the detected fields, and a warning says so and which fields to save in the service map.
 */
import { detectHistory, detectPurchase, detectUrl } from './detect';
import type { Proposal } from './detect';
import { readHistory, readPurchase, readUrl } from './read';
import type { Read } from './read';
import type { ServiceMap } from './schema';

const MIN_CONFIDENCE = 0.4;

function withFallback<T>(
  read: (map: ServiceMap) => Read<T>,
  detect: (map: ServiceMap) => Proposal,
  essential: readonly string[],
  what: string,
  map: ServiceMap,
): Read<T> & { detected?: ServiceMap } {
  const first = read(map);
  if (!first.missing.some((m) => essential.includes(m))) return first;
  const proposal = detect(map);
  if (proposal.confidence < MIN_CONFIDENCE) return first;
  const second = read(proposal.map);
  if (second.missing.some((m) => essential.includes(m))) return first;
  const used = proposal.fields.filter((f) => f.confidence > 0).map((f) => f.field).join(', ');
  return {
    ...second,
    warnings: [...second.warnings, `The ${what} did not fit the service map (${first.missing.join(', ')} missing); it was read with detected fields (${used}). Save them in the profile's service map.`],
    detected: proposal.map,
  };
}

export function readHistoryOrDetect(body: unknown, map: ServiceMap) {
  return withFallback((m) => readHistory(body, m), (m) => detectHistory(body, m), ['history.points', 'historyPoint.time'], 'history answer', map);
}

export function readPurchaseOrDetect(body: unknown, map: ServiceMap) {
  return withFallback((m) => readPurchase(body, m), (m) => detectPurchase(body, m), ['purchase.id', 'purchase.state', 'purchase.at'], 'purchase answer', map);
}

export function readUrlOrDetect(body: unknown, map: ServiceMap, nowMs: number) {
  return withFallback((m) => readUrl(body, m, nowMs), (m) => detectUrl(body, m), ['url.url', 'url.expiry'], 'link answer', map);
}
