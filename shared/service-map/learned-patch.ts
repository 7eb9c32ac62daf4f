/**
 * What a session's 400s taught, apart from the map it was taught on: only the request names that
 * changed. Applied onto whatever map the profile holds now (the user's map saved meanwhile, or the
 * map detected later), so that learning one name never replaces the rest of a map. Pure.
 */
import type { LearnableField } from './learn';
import type { ServiceMap } from './schema';

type PurchaseCalls = ServiceMap['purchaseId'];

export interface LearnedPatch {
  registerAssetIdField?: string;
  historyAssetIdField?: string;
  purchaseId?: Partial<PurchaseCalls>;
}

const same = (a: { in: string; name: string }, b: { in: string; name: string }): boolean => a.in === b.in && a.name === b.name;

/** The names `learned` holds that `base` (the map the session started with) did not; null: none. */
export function learnedPatch(base: ServiceMap, learned: ServiceMap): LearnedPatch | null {
  const patch: LearnedPatch = {};
  if (learned.register.assetIdField !== base.register.assetIdField) patch.registerAssetIdField = learned.register.assetIdField;
  if (learned.history.assetIdField !== base.history.assetIdField) patch.historyAssetIdField = learned.history.assetIdField;
  const calls = (Object.keys(learned.purchaseId) as (keyof PurchaseCalls)[]).filter((k) => !same(learned.purchaseId[k], base.purchaseId[k]));
  if (calls.length > 0) patch.purchaseId = Object.fromEntries(calls.map((k) => [k, learned.purchaseId[k]]));
  return Object.keys(patch).length === 0 ? null : patch;
}

/** A later patch over an earlier one (the later name wins). */
export function mergePatches(earlier: LearnedPatch | undefined, later: LearnedPatch): LearnedPatch {
  return { ...earlier, ...later, ...(earlier?.purchaseId || later.purchaseId ? { purchaseId: { ...earlier?.purchaseId, ...later.purchaseId } } : {}) };
}

/** `map` with the patch's names, each marked learned; every other field of `map` as it is. */
export function applyLearnedPatch(map: ServiceMap, patch: LearnedPatch): ServiceMap {
  const fields: LearnableField[] = [];
  let next: ServiceMap = map;
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
  return fields.length === 0 ? map : { ...next, learned: [...new Set([...(map.learned ?? []), ...fields])] };
}
