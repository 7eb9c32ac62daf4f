import { createContext, useContext, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import type { PartnerApi } from '../../../shared/bridge/api';
import type { LinkSource, LinkStatus } from '../bridge/link-status';
import type { BudgetSeconds } from '../live/budget-seconds';
import type { RequestLogStore } from '../live/request-log-store';

export interface AppContextValue {
  api: PartnerApi;
  link: LinkSource;
  shell: 'desktop' | 'web';
  budget: BudgetSeconds;
  log: RequestLogStore;
}

const AppContext = createContext<AppContextValue | null>(null);

export function AppContextProvider({ value, children }: { value: AppContextValue; children: ReactNode }) {
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>;
}

export function useAppContext(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useAppContext outside AppContextProvider');
  return value;
}

export function useApi(): PartnerApi {
  return useAppContext().api;
}

export function useLink(): LinkStatus {
  const { link } = useAppContext();
  return useSyncExternalStore(link.subscribe, link.get, link.get);
}
