/**
 * Profiles saved before the service map was the one source of payload names kept the form's two
 * names (`pageSizeParam`, `idField`) beside the map. Read into the map: with a readable map, the
 * map's names were the ones its requests sent and stay, except a map that sends no page size, whose
 * downloads sent the profile's (kept: the service's default size costs more requests); without one,
 * names other than the default dialect's become a map marked names-only, still detected at first
 * contact from those names, and default names leave the profile without a map (detected too).
 *
 * The file still carries the two names, derived from the map, marked `namesFromMap`: an older build
 * requires them on every profile and would otherwise set the whole file aside as corrupt after a
 * downgrade. An older build drops the mark when it saves, so names it wrote are read in again: they
 * agree with the map (its form writes a changed name into both), except the default page-size name
 * beside a map that sends none, which names-sidecar.ts tells apart. A names-only map is written as an
 * older profile was (its names, no map), so that it reads back names only whoever saved it last.
 */
import { DEFAULT_ID_FIELD, DEFAULT_PAGE_SIZE_PARAM } from '../../shared/catalog';
import { DEFAULT_SERVICE_MAP, serviceMapSchema } from '../../shared/service-map/schema';
import type { ServiceMap } from '../../shared/service-map/schema';
import { formNames, profileServiceMap, withFormNames } from '../service-map/profile-map';
import type { MapHolder } from '../service-map/profile-map';

/** Set on profiles whose two names this build wrote from the map: the map holds them already. */
const MIRROR_MARK = 'namesFromMap';

/** Names an older build wrote (not our mirror of the map): to be read into the map. */
export function hasLegacyNames(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && ('pageSizeParam' in raw || 'idField' in raw) && !(MIRROR_MARK in raw);
}

export function legacyNamesIntoMap(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const { pageSizeParam, idField, [MIRROR_MARK]: mirror, ...profile } = raw as Record<string, unknown>;
  if (mirror !== undefined || !hasLegacyNames(raw)) return mirror !== undefined ? profile : raw;
  const saved = serviceMapSchema.safeParse(profile.serviceMap);
  if (saved.success) return { ...profile, serviceMap: withSentPageSize(saved.data, pageSizeParam) };
  const map = withFormNames(DEFAULT_SERVICE_MAP, {
    pageSizeParam: usable(pageSizeParam) ? pageSizeParam : DEFAULT_PAGE_SIZE_PARAM,
    idField: usable(idField) ? idField : DEFAULT_ID_FIELD,
  });
  if (map === DEFAULT_SERVICE_MAP || !serviceMapSchema.safeParse(map).success) return profile;
  return { ...profile, serviceMap: map, serviceMapNamesOnly: true };
}

/** The profile as the file keeps it: with the two names an older build requires, read from its map. */
export function asWrittenProfile(profile: MapHolder): Record<string, unknown> {
  const names = formNames(profileServiceMap(profile));
  if (profile.serviceMapNamesOnly !== true) return { ...profile, ...names, [MIRROR_MARK]: true };
  const { serviceMap: _map, serviceMapNamesOnly: _namesOnly, ...rest } = profile;
  return { ...rest, ...names };
}

/**
 * The mark put back on names an older build saved without it, where the sidecar says they are our
 * mirror of a map that sends no page size (the default name, not sent): that map stays without one.
 */
export function withVouchedMirror(raw: unknown, noPageSize: ReadonlySet<string>): unknown {
  if (!hasLegacyNames(raw)) return raw;
  const profile = raw as Record<string, unknown>;
  if (typeof profile.id !== 'string' || !noPageSize.has(profile.id) || profile.pageSizeParam !== DEFAULT_PAGE_SIZE_PARAM) return raw;
  const map = serviceMapSchema.safeParse(profile.serviceMap);
  return map.success && map.data.list.pageSizeParam === null ? { ...profile, [MIRROR_MARK]: true } : raw;
}

/** Whether the file already holds a profile's names as this build writes them (else it is written back at load). */
export function namesAsWritten(raw: unknown, written: Record<string, unknown>): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const held = raw as Record<string, unknown>;
  return ['pageSizeParam', 'idField', MIRROR_MARK, 'serviceMapNamesOnly'].every((key) => held[key] === written[key]);
}

function usable(name: unknown): name is string {
  return typeof name === 'string' && name.trim() !== '';
}

/** An older build's downloads sent the profile's page-size parameter even where its map named none. */
function withSentPageSize(map: ServiceMap, pageSizeParam: unknown): ServiceMap {
  if (map.list.pageSizeParam !== null || !usable(pageSizeParam) || pageSizeParam.trim() === map.list.cursorParam) return map;
  const sent = { ...map, list: { ...map.list, pageSizeParam: pageSizeParam.trim() } };
  return serviceMapSchema.safeParse(sent).success ? sent : map;
}
