/**
 * Profiles saved before the service map was the one source of payload names kept the form's two
 * names (`pageSizeParam`, `idField`) beside the map. Read once into the map, never written again:
 * with a readable map, the map's names were the ones its requests sent and stay; without one, names
 * other than the default dialect's become a map of the user's own, and default names leave the
 * profile without a map (detected at its first contact, as before).
 */
import { DEFAULT_ID_FIELD, DEFAULT_PAGE_SIZE_PARAM } from '../../shared/catalog';
import { DEFAULT_SERVICE_MAP, serviceMapSchema } from '../../shared/service-map/schema';
import { withFormNames } from '../service-map/profile-map';

export function hasLegacyNames(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && ('pageSizeParam' in raw || 'idField' in raw);
}

export function legacyNamesIntoMap(raw: unknown): unknown {
  if (!hasLegacyNames(raw)) return raw;
  const { pageSizeParam, idField, ...profile } = raw as Record<string, unknown>;
  if (serviceMapSchema.safeParse(profile.serviceMap).success) return profile;
  const map = withFormNames(DEFAULT_SERVICE_MAP, {
    pageSizeParam: typeof pageSizeParam === 'string' && pageSizeParam.trim() !== '' ? pageSizeParam : DEFAULT_PAGE_SIZE_PARAM,
    idField: typeof idField === 'string' && idField.trim() !== '' ? idField : DEFAULT_ID_FIELD,
  });
  if (map === DEFAULT_SERVICE_MAP || !serviceMapSchema.safeParse(map).success) return profile;
  return { ...profile, serviceMap: map };
}
