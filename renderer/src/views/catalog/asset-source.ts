/**
 * Where an asset on screen was read: the profile (and its vendor) whose service answered. Every
 * action on it (Register and the other purchase actions, its ledger, its history) goes to that
 * profile, never to whichever profile is connected when a button is pressed: in browser mode
 * another page can switch the connection at any moment, and the asset's id means nothing there.
 */
import type { Asset } from '../../../../shared/catalog';
import type { AssetSource } from '../../api/queries';
import { sameTarget } from '../../api/queries';

export type { AssetSource } from '../../api/queries';
export { scopeOf, sourceOf } from '../../api/queries';

/** An asset as shown, with the profile it was read from (one object: the two never part). */
export type SourcedAsset = { asset: Asset; source: AssetSource };

/** Actions on an asset are offered only while the page shows the profile it was read from, pointing where it pointed then. */
export function isFromShownProfile(opened: SourcedAsset, shown: AssetSource | null): boolean {
  return sameSource(opened.source, shown);
}

/** Both known, and the same profile pointing at the same vendor and service. */
function sameSource(a: AssetSource | null | undefined, b: AssetSource | null): boolean {
  return !!a && b !== null && sameTarget(a, b);
}

/**
 * The rows' source: the shown profile when they were read from it; null for rows still on screen
 * from another profile (a page kept while the new profile's loads), which must not be opened as its.
 */
export function rowsSourceOf(readFrom: AssetSource | undefined, shown: AssetSource | null): AssetSource | null {
  return sameSource(readFrom, shown) ? shown : null;
}

/**
 * An asset named by the route alone: its id exactly as spelt ("00042" is not asset 42). Main sends it
 * in the kind the service wrote it (number or string): the page cannot tell from the text.
 */
export function assetOfParam(param: string): Asset {
  return { id: param };
}

/**
 * What the detail shows for the route's asset id: the asset opened (kept with its source after the
 * profile changes, so that it is shown as another vendor's, not re-read as the new one's), else the
 * row read from the shown profile, else the bare id at the shown profile. An opened bare id becomes
 * its row once the same profile's rows hold it. null: no asset asked for, or no profile to read it from.
 */
export function assetInDetail(
  opened: SourcedAsset | null,
  assetParam: string | null,
  rows: readonly Asset[],
  rowsSource: AssetSource | null,
  shown: AssetSource | null,
): SourcedAsset | null {
  if (assetParam === null) return null;
  const row = rowsSource === null ? undefined : rows.find((a) => String(a.id) === assetParam);
  if (opened !== null && String(opened.asset.id) === assetParam) {
    const bare = Object.keys(opened.asset).length === 1;
    return bare && row !== undefined && rowsSource?.profileId === opened.source.profileId ? { asset: row, source: opened.source } : opened;
  }
  if (shown === null) return null;
  return { asset: row ?? assetOfParam(assetParam), source: shown };
}
