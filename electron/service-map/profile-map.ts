/** A profile's service map: the saved one, else the default dialect with the profile's two names. */
import { DEFAULT_SERVICE_MAP } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';

export interface MapHolder {
  serviceMap?: ServiceMap | undefined;
  pageSizeParam: string;
  idField: string;
}

export function profileServiceMap(profile: MapHolder): ServiceMap {
  if (profile.serviceMap) return profile.serviceMap;
  return {
    ...DEFAULT_SERVICE_MAP,
    list: { ...DEFAULT_SERVICE_MAP.list, pageSizeParam: profile.pageSizeParam },
    asset: { ...DEFAULT_SERVICE_MAP.asset, id: profile.idField },
  };
}
