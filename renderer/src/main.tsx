import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppContextProvider } from './api/context';
import type { AppContextValue } from './api/context';
import { App } from './App';
import { connectBridge } from './bridge/connect';
import { BudgetSeconds } from './live/budget-seconds';
import { RequestLogStore } from './live/request-log-store';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/datatable.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // The main process retries what is safe to retry; retrying here would spend budget twice.
    // networkMode 'always': the bridge, not navigator.onLine, says whether we are connected.
    queries: { retry: false, refetchOnWindowFocus: false, networkMode: 'always' },
    mutations: { retry: false, networkMode: 'always' },
  },
});

async function start(): Promise<void> {
  const root = createRoot(document.getElementById('root')!);
  const connection = await connectBridge();
  const context: AppContextValue = { ...connection, budget: new BudgetSeconds(), log: new RequestLogStore() };
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AppContextProvider value={context}>
          <App />
        </AppContextProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
