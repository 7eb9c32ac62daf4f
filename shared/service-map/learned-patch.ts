/**
 * What a session learned, apart from the map it was learned on: the request names a 400 taught and
 * the answer layouts detected from a first real answer (fallback.ts), only what changed. Applied onto
 * whatever map the profile holds now (the user's map saved meanwhile, or the map detected later), so
 * that learning one name or layout never replaces the rest of a map. A reviewed map takes the names
 * (the service said them) but never a layout (a detection: only the user changes a reviewed map). Pure.
 */
import type { LearnableField } from './learn';
import type { ServiceMap } from './schema';

type PurchaseCalls = ServiceMap['purchaseId'];

/** How answers are read, as detected from real ones: whole sections (their fields belong together). */
export interface DetectedLayout {
  historyPoints?: ServiceMap['history']['points'];
  historyPoint?: ServiceMap['historyPoint'];
  purchase?: ServiceMap['purchase'];
  url?: ServiceMap['url'];
  states?: ServiceMap['states'];
}

export interface LearnedPatch {
  registerAssetIdField?: string;
  historyAssetIdField?: string;
  purchaseId?: Partial<PurchaseCalls>;
  layout?: DetectedLayout;
}

const LAYOUT_SECTIONS = ['historyPoint', 'purchase', 'url', 'states'] as const;

const same = (a: { in: string; name: string }, b: { in: string; name: string }): boolean => a.in === b.in && a.name === b.name;

/** The names `learned` holds that `base` (the map the session started with) did not; null: none. */
export function learnedPatch(base: ServiceMap, learned: ServiceMap): LearnedPatch | null {
  const patch: LearnedPatch = {};
  if (learned.register.assetIdField !== base.register.assetIdField) patch.registerAssetIdField = learned.register.assetIdField;
  if (learned.history.assetIdField !== base.history.assetIdField) patch.historyAssetIdField = learned.history.assetIdField;
  const calls = (Object.keys(learned.purchaseId) as (keyof PurchaseCalls)[]).filter((k) => !same(learned.purchaseId[k], base.purchaseId[k]));
  if (calls.length > 0) patch.purchaseId = Object.fromEntries(calls.map((k) => [k, learned.purchaseId[k]]));
  const layout: DetectedLayout = {};
  if (learned.history.points !== base.history.points) layout.historyPoints = learned.history.points;
  for (const k of LAYOUT_SECTIONS) if (JSON.stringify(learned[k]) !== JSON.stringify(base[k])) Object.assign(layout, { [k]: learned[k] });
  if (Object.keys(layout).length > 0) patch.layout = layout;
  return Object.keys(patch).length === 0 ? null : patch;
}

/** A later patch over an earlier one (the later name wins). */
export function mergePatches(earlier: LearnedPatch | undefined, later: LearnedPatch): LearnedPatch {
  return {
    ...earlier,
    ...later,
    ...(earlier?.purchaseId || later.purchaseId ? { purchaseId: { ...earlier?.purchaseId, ...later.purchaseId } } : {}),
    ...(earlier?.layout || later.layout ? { layout: { ...earlier?.layout, ...later.layout } } : {}),
  };
}

/** The patch without its layout (for a reviewed map); null when nothing else is left. */
export function namesOnly(patch: LearnedPatch): LearnedPatch | null {
  const names: LearnedPatch = { ...patch };
  delete names.layout;
  return Object.keys(names).length === 0 ? null : names;
}

/** `map` with the patch's names, each marked learned, and its layout (not marked: a detection); every other field of `map` as it is. */
export function applyLearnedPatch(map: ServiceMap, patch: LearnedPatch): ServiceMap {
  const fields: LearnableField[] = [];
  let next: ServiceMap = patch.layout ? withLayout(map, patch.layout) : map;
  if (patch.registerAssetIdField !== undefined) {
    next = { ...next, register: { ...next.register, assetIdField: patch.registerAssetIdField } };
    fields.push('register.assetIdField');
  }
  if (patch.historyAssetIdField !== undefined) {
    next = { ...next, history: { ...next.history, assetIdField: patch.historyAssetIdField } };
    fields.push('history.assetIdField');
  }
  if (patch.purchaseId) {
    next = { ...next, purchaseId: { ...next.purchaseId, ...patch.purchaseId } };
    fields.push('purchaseId');
  }
  return fields.length === 0 ? next : { ...next, learned: [...new Set([...(map.learned ?? []), ...fields])] };
}

function withLayout(map: ServiceMap, layout: DetectedLayout): ServiceMap {
  const { historyPoints, ...sections } = layout;
  return { ...map, ...sections, ...(historyPoints !== undefined ? { history: { ...map.history, points: historyPoints } } : {}) };
}
