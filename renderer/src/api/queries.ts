/**
 * react-query keys and hooks for server state. Retries are off everywhere (set on the client):
 * the main process already retries what is safe, and a retry here would spend budget twice.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CallResponse } from '../../../shared/bridge/contract';
import { useApi } from './context';

export const keys = {
  connection: ['connection'] as const,
  appInfo: ['appInfo'] as const,
  settings: ['settings'] as const,
  profiles: ['profiles'] as const,
  simState: ['simState'] as const,
  /** The purchase ledger (views/purchases/ledger-queries.ts). */
  ledger: ['ledger'] as const,
  categories: ['categories'] as const,
  download: ['download'] as const,
  budgetSnapshot: ['budgetSnapshot'] as const,
  assets: (lastId: string | number | null, pageSize: number) => ['assets', lastId, pageSize] as const,
  search: (query: string, category: string | null, limit: number) => ['search', query, category, limit] as const,
  history: (assetId: string | number) => ['history', assetId] as const,
  requestDetail: (id: number) => ['requestDetail', id] as const,
};

export type Connection = CallResponse<'connection'>;
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
  return useQuery({ queryKey: keys.simState, queryFn: () => api.simState({}), staleTime: 10_000 });
}

export function useCategories() {
  const api = useApi();
  // Categories cost budget and change rarely: fetch once per session unless asked.
  return useQuery({ queryKey: keys.categories, queryFn: () => api.categories({}), staleTime: Infinity });
}

export function useAssetsPage(lastId: string | number | null, pageSize: number, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: keys.assets(lastId, pageSize),
    queryFn: () => api.listAssets({ lastId, pageSize }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useAssetSearch(query: string, category: string | null, limit: number, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: keys.search(query, category, limit),
    queryFn: () => api.searchAssets({ query, category, limit }),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useAssetHistory(assetId: string | number | null) {
  const api = useApi();
  return useQuery({
    queryKey: keys.history(assetId ?? ''),
    queryFn: () => api.assetHistory({ assetId: assetId! }),
    enabled: assetId !== null,
    staleTime: 60_000,
  });
}

export function useDownloadStatus() {
  const api = useApi();
  return useQuery({ queryKey: keys.download, queryFn: () => api.downloadStatus({}) });
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
