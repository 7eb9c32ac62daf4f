/**
 * react-query keys and hooks for server state. Retries are off everywhere (set on the client):
 * the main process already retries what is safe, and a retry here would spend budget twice.
 * A vendor's data is keyed by the connected profile first, so another profile's cached answers can
 * never show; every vendor call passes react-query's `signal`, so a superseded query (the next
 * keystroke of a search, a page left) is cancelled in main and spends nothing.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallResponse } from '../../../shared/bridge/contract';
import type { ProfileScoped } from '../../../shared/bridge/profile-scoped';
import { PartnerError } from '../../../shared/errors';
import { useApi } from './context';

export const keys = {
  connection: ['connection'] as const,
  appInfo: ['appInfo'] as const,
  settings: ['settings'] as const,
  profiles: ['profiles'] as const,
  simState: ['simState'] as const,
  /** The purchase ledger (views/purchases/ledger-queries.ts). */
  ledger: ['ledger'] as const,
  categories: (profile: Profile) => [profile, 'categories'] as const,
  download: ['download'] as const,
  /** A profile's own download (another profile's running one only as `otherProfile`). */
  downloadOf: (profile: Profile) => ['download', 'status', profile] as const,
  budgetSnapshot: ['budgetSnapshot'] as const,
  assets: (profile: Profile, lastId: string | number | null, pageSize: number) => [profile, 'assets', lastId, pageSize] as const,
  search: (profile: Profile, query: string, category: string | null, limit: number) => [profile, 'search', query, category, limit] as const,
  history: (profile: Profile, assetId: string | number) => [profile, 'history', assetId] as const,
  requestDetail: (id: number) => ['requestDetail', id] as const,
};

export type Connection = CallResponse<'connection'>;
/** The connected profile's id; undefined until the connection is known. */
type Profile = string | null | undefined;
export type Settings = CallResponse<'getSettings'>;
export type ProfileView = CallResponse<'saveProfile'>;
export type SimState = NonNullable<CallResponse<'simState'>>;
export type DownloadProgress = CallResponse<'downloadStatus'>;
export type UrlResult = CallResponse<'downloadUrl'>;
export type BucketView = CallResponse<'budgetSnapshot'>['buckets'][number];
export type LogDetail = CallResponse<'requestDetail'>;

export function useConnection() {
  const api = useApi();
  return useQuery({ queryKey: keys.connection, queryFn: () => api.connection({}), staleTime: 30_000 });
}

/** Whose data a vendor query is: the connected profile (the connection event keeps it current). */
export function useProfile(): Profile {
  const { data } = useConnection();
  return data === undefined ? undefined : data.profileId;
}

/**
 * The profile a vendor call names: the one whose data the page shows (main never falls back to the
 * active one). Read when the person acts or the query runs, never again after an await.
 */
export function shownProfile(profile: Profile): string {
  if (typeof profile === 'string') return profile;
  throw new PartnerError({
    code: 'PROFILE_NOT_CONNECTED',
    message: 'No vendor profile is connected.',
    hint: 'Select or add a profile first.',
    retryable: false,
  });
}

export function useAppInfo() {
  const api = useApi();
  return useQuery({ queryKey: keys.appInfo, queryFn: () => api.appInfo({}), staleTime: Infinity });
}

export function useSettings() {
  const api = useApi();
  return useQuery({ queryKey: keys.settings, queryFn: () => api.getSettings({}), staleTime: Infinity });
}

export function useProfiles() {
  const api = useApi();
  return useQuery({ queryKey: keys.profiles, queryFn: () => api.listProfiles({}), staleTime: 60_000 });
}

export function useSimState() {
  const api = useApi();
  // Polled: another window, the CLI or a replay may start or stop the demo traffic, and the first-run card
  // must not say "no traffic yet" beside live figures for long. A local call (no budget spent): every second.
  return useQuery({ queryKey: keys.simState, queryFn: () => api.simState({}), staleTime: 1_000, refetchInterval: 1_000 });
}

export function useCategories() {
  const api = useApi();
  const profile = useProfile();
  // Categories cost budget and change rarely: fetch once per session unless asked.
  return useQuery({
    queryKey: keys.categories(profile),
    queryFn: ({ signal }) => api.categories({ profileId: shownProfile(profile) }, { signal }),
    staleTime: Infinity,
    enabled: profile !== undefined,
  });
}

/** Where vendor data was read: the profile, and where it pointed then (a profile edited since points elsewhere under the same id). */
export type AssetSource = { profileId: string; vendor: string | null; baseUrl: string | null };

/** The same profile pointing at the same vendor and service (a connection, or where something was read). */
export function sameTarget(a: Pick<Connection, 'profileId' | 'vendor' | 'baseUrl'>, b: Pick<Connection, 'profileId' | 'vendor' | 'baseUrl'>): boolean {
  return a.profileId === b.profileId && a.vendor === b.vendor && a.baseUrl === b.baseUrl;
}

/** The profile the page shows now; null while none is connected or the connection is not known yet. */
export function sourceOf(connection: Connection | undefined): AssetSource | null {
  if (!connection?.profileId) return null;
  return { profileId: connection.profileId, vendor: connection.vendor, baseUrl: connection.baseUrl };
}

/**
 * A vendor call's profile scope for what was read from `source`: its profile, and where that profile
 * pointed then (main refuses the call if the profile was edited to point elsewhere since).
 */
export function scopeOf(source: AssetSource | null | undefined): ProfileScoped {
  const profileId = shownProfile(source?.profileId);
  return source?.vendor && source.baseUrl ? { profileId, shownAt: { vendor: source.vendor, baseUrl: source.baseUrl } } : { profileId };
}

/** The source of the page's vendor queries: the connected profile and where it points. */
function useShownSource(): { profile: Profile; source: AssetSource | null } {
  return { profile: useProfile(), source: sourceOf(useConnection().data) };
}

export function useAssetsPage(lastId: string | number | null, pageSize: number, enabled: boolean) {
  const api = useApi();
  const { profile, source } = useShownSource();
  return useQuery({
    queryKey: keys.assets(profile, lastId, pageSize),
    // Stamped with where it was read: a page kept on screen while another profile's loads, or after its
    // profile was edited to point elsewhere, is not taken for the one shown now.
    queryFn: async ({ signal }) => ({ ...(await api.listAssets({ ...scopeOf(source), lastId, pageSize }, { signal })), readFrom: source! }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    enabled: enabled && profile !== undefined,
  });
}

export function useAssetSearch(query: string, category: string | null, limit: number, enabled: boolean) {
  const api = useApi();
  const { profile, source } = useShownSource();
  return useQuery({
    queryKey: keys.search(profile, query, category, limit),
    queryFn: async ({ signal }) => ({ ...(await api.searchAssets({ ...scopeOf(source), query, category, limit }, { signal })), readFrom: source! }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    enabled: enabled && profile !== undefined,
  });
}

/** `profile`: the one the asset was read from (its id means another asset, or nothing, at another vendor). */
export function useAssetHistory(assetId: string | number | null, profile: Profile) {
  const api = useApi();
  return useQuery({
    queryKey: keys.history(profile, assetId ?? ''),
    queryFn: ({ signal }) => api.assetHistory({ profileId: shownProfile(profile), assetId: assetId! }, { signal }),
    enabled: assetId !== null && profile !== undefined,
    staleTime: 60_000,
  });
}

/** The shown profile's download; live progress events keep it current (use-live-wiring). */
export function useDownloadStatus(profile: Profile) {
  const api = useApi();
  return useQuery({
    queryKey: keys.downloadOf(profile),
    queryFn: () => api.downloadStatus({ profileId: shownProfile(profile) }),
    enabled: typeof profile === 'string',
    // Another profile's download sends its events to that profile: read again until it ends.
    refetchInterval: (q) => (q.state.data?.otherProfile ? 2000 : false),
  });
}

/** The shown profile's download left unfinished on disk by a quit or a disconnect (null: none); read again as the download's state moves. */
export function useInterruptedDownload(profile: Profile, state: DownloadProgress['state'] | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: [...keys.download, 'interrupted', profile ?? null, state ?? null],
    queryFn: async () => (await api.downloadStatus({ profileId: shownProfile(profile) })).interrupted,
    enabled: typeof profile === 'string' && state !== 'running',
  });
}

/** The client's model of each bucket; a local call, so polling it costs no budget. */
export function useBudgetSnapshot(running: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: keys.budgetSnapshot,
    queryFn: () => api.budgetSnapshot({}),
    refetchInterval: running ? 500 : false,
  });
}

export function useRequestDetail(id: number | null) {
  const api = useApi();
  return useQuery({
    queryKey: keys.requestDetail(id ?? -1),
    queryFn: () => api.requestDetail({ id: id! }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}
