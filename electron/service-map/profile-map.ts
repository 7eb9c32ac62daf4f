/**
 * A profile's service map: the saved one, else the default dialect. The map is the one source of
 * the payload names; the profile form's two names (page-size parameter, id field) are read from it
 * and written into it.
 */
import { DEFAULT_PAGE_SIZE_PARAM } from '../../shared/catalog';
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

export interface MapHolder {
  serviceMap?: ServiceMap | undefined;
  /** The map holds only an older profile's two names: detected at first contact, from them. */
  serviceMapNamesOnly?: boolean | undefined;
}

/** A map saved (detected or the user's) that first contact must not replace; absent or names only: detected when it connects. */
export function hasSavedMap(profile: MapHolder): boolean {
  return profile.serviceMap !== undefined && profile.serviceMapNamesOnly !== true;
}

export function profileServiceMap(profile: MapHolder): ServiceMap {
  return profile.serviceMap ?? DEFAULT_SERVICE_MAP;
}

/** The names the profile form shows and edits. */
export interface FormNames {
  pageSizeParam: string;
  idField: string;
}

/** A map that sends no page size shows the default name, which stays unsent unless the user changes it (withFormNames). */
export function formNames(map: ServiceMap): FormNames {
  return { pageSizeParam: map.list.pageSizeParam ?? DEFAULT_PAGE_SIZE_PARAM, idField: map.asset.id };
}

/** The form's names written into the map where they differ from what formNames shows; the same map otherwise. */
export function withFormNames(map: ServiceMap, input: Partial<FormNames>): ServiceMap {
  const shown = formNames(map);
  // A name left out is kept as the map has it (a save from a script, or a form that did not touch it).
  const pageSizeParam = input.pageSizeParam?.trim() ?? shown.pageSizeParam;
  const idField = input.idField?.trim() ?? shown.idField;
  if (pageSizeParam === shown.pageSizeParam && idField === shown.idField) return map;
  return {
    ...map,
    list: { ...map.list, pageSizeParam: pageSizeParam === shown.pageSizeParam ? map.list.pageSizeParam : pageSizeParam },
    asset: { ...map.asset, id: idField === shown.idField ? map.asset.id : idField },
  };
}
