/** What the profile store keeps on disk, and what crosses the bridge (views without tokens). */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { profileInputSchema, profileViewSchema } from '../../shared/bridge/schemas';
import { settingsSchema, tokenPresentationSchema } from '../../shared/bridge/schemas';
import { serviceMapSchema, withoutPageSizeClash } from '../../shared/service-map/schema';
import { legacyNamesIntoMap } from './legacy-names';

export type ProfileInput = z.output<typeof profileInputSchema>;
/** What callers outside the bridge may pass (defaults not applied yet). */
export type ProfileInputDraft = z.input<typeof profileInputSchema>;
export type ProfileView = z.output<typeof profileViewSchema>;
export type Settings = z.output<typeof settingsSchema>;
export type TokenPresentation = z.output<typeof tokenPresentationSchema>;

export const storedTokenSchema = z.object({
  id: z.string().min(1),
  /** TokenVault.seal() output: never the plain token. */
  sealed: z.string().min(1),
  /** The masked form for lists, so that listing never needs to open the vault. */
  masked: z.string(),
});
export type StoredToken = z.output<typeof storedTokenSchema>;

const storedProfileFields = z.object({
  id: z.string().min(1),
  name: z.string(),
  vendor: z.string().min(1),
  baseUrl: z.string().min(1),
  tokens: z.array(storedTokenSchema),
  tokenPresentation: tokenPresentationSchema,
  /**
   * How this service is called and its answers read (detected or edited): every payload name. Absent: the
   * default dialect, detected at first contact. A bad one is dropped, not fatal.
   */
  serviceMap: z.preprocess(withoutPageSizeClash, serviceMapSchema.optional()).catch(undefined),
  /** The map was detected (at first contact or by Detect again) and the user has not reviewed it yet. */
  serviceMapDetected: z.boolean().optional().catch(undefined),
  /**
   * The map holds only the two names an older profile kept without a map (legacy-names.ts): it is
   * still detected at its first contact, from those names, as that profile was.
   */
  serviceMapNamesOnly: z.boolean().optional().catch(undefined),
  /** redis://host:port/db: workers of this vendor share its budget through Redis; absent: headers only. */
  budgetStore: z.string().optional().catch(undefined),
  /** The budget store URL sealed with the vault when it carries credentials (budgetStore then holds it masked). */
  budgetStoreSealed: z.string().optional().catch(undefined),
  createdAt: z.number(),
  updatedAt: z.number(),
});
/** Older files' two names beside the map are read into it (legacy-names.ts). */
export const storedProfileSchema = z.preprocess(legacyNamesIntoMap, storedProfileFields);
export type StoredProfile = z.output<typeof storedProfileSchema>;

export const SETTINGS_FILE_VERSION = 1;

/** The whole settings file (config.json in the data directory). */
export const persistedStateSchema = z.object({
  version: z.literal(SETTINGS_FILE_VERSION),
  profiles: z.array(storedProfileSchema),
  activeId: z.string().nullable(),
  settings: settingsSchema.partial(),
});
export type PersistedState = z.output<typeof persistedStateSchema>;

/** A profile in memory: stored ones and ephemeral ones (web mode flags), which never touch disk. */
export interface ProfileRecord extends StoredProfile {
  persisted: boolean;
}

/**
 * Two versions of one profile differ in nothing its session sends or reads (only the name, or nothing at all):
 * a connected session keeps going instead of reconnecting (which would stop its download and drain its purchases).
 */
export function sameConnection(a: StoredProfile, b: StoredProfile): boolean {
  const sends = ({ name: _name, createdAt: _created, updatedAt: _updated, ...rest }: StoredProfile): unknown => JSON.parse(JSON.stringify(rest));
  return isDeepStrictEqual(sends(a), sends(b));
}
