/**
 * A 400's message in the dialect's own names: the canonical action says `Parameter "per-page" ...`
 * or `limit: Too big`, and a client of the dialect sent `limit` or `maxResults`, not those.
 */
import type { EndpointId } from '../../../shared/endpoints';
import { DEFAULT_PAGE_SIZE_PARAM } from '../../../shared/catalog';
import type { RequestNames } from './types';

/** [canonical name, dialect name] of the names an endpoint's 400 can mention. */
function renames(names: RequestNames, endpoint: EndpointId): [string, string][] {
  switch (endpoint) {
    case 'listAssets':
      return [[DEFAULT_PAGE_SIZE_PARAM, names.pageSize]];
    case 'categories':
      return [];
    case 'searchAssets':
      return [
        ['query', names.search.text],
        ['category', names.search.category],
        ['limit', names.search.limit],
      ];
    case 'assetHistory':
      return [['asset_id', names.historyAsset]];
    case 'registerPurchase':
      return [
        ['asset_id', names.register.asset],
        ['client_reference', names.register.reference],
      ];
    case 'purchaseInfo':
      return [
        ['purchase_id', names.purchaseId],
        ['client_reference', names.referenceLookup],
      ];
    case 'validatePurchase':
      return [['purchase_id', names.validate.name]];
    case 'downloadUrl':
    case 'viewUrl':
    case 'cancelPurchase':
      return [['purchase_id', names.purchaseId]];
  }
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The message with each canonical name, where it is quoted ("name"), a field path (name:) or after "parameter: ", renamed. */
export function inDialectNames(message: string, names: RequestNames, endpoint: EndpointId): string {
  let out = message;
  for (const [canonical, own] of renames(names, endpoint)) {
    if (canonical === own) continue;
    const c = escape(canonical);
    out = out
      .replace(new RegExp(`"${c}"`, 'g'), `"${own}"`)
      .replace(new RegExp(`(^|[\\s;])${c}:`, 'g'), `$1${own}:`)
      .replace(new RegExp(`(parameter: )${c}\\b`, 'g'), `$1${own}`);
  }
  return out;
}
