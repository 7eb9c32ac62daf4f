import { lazy, Suspense, useEffect } from 'react';
import { useAppContext } from './api/context';
import { useSettings } from './api/queries';
import { ConnectionBadge } from './components/ConnectionBadge';
import { OfflineBanner } from './components/OfflineBanner';
import { Loading } from './components/states';
import { useLiveWiring } from './live/use-live-wiring';
import { routeHref, useRoute } from './lib/hash-route';
import type { ViewId } from './lib/hash-route';
import { BudgetView } from './views/budget/BudgetView';

// Budget is the landing view; the others load on first visit to keep the first chunk small.
const CatalogView = lazy(() => import('./views/catalog/CatalogView'));
const PurchasesView = lazy(() => import('./views/purchases/PurchasesView'));
const RequestsView = lazy(() => import('./views/requests/RequestsView'));
const SettingsView = lazy(() => import('./views/settings/SettingsView'));

const NAV: { view: ViewId; label: string }[] = [
  { view: 'budget', label: 'Budget' },
  { view: 'catalog', label: 'Catalog' },
  { view: 'purchases', label: 'Purchases' },
  { view: 'requests', label: 'Requests' },
  { view: 'settings', label: 'Settings' },
];

export function App() {
  const context = useAppContext();
  useLiveWiring(context);
  const route = useRoute();
  const settings = useSettings();
  const theme = settings.data?.theme ?? 'system';

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  useEffect(() => {
    const label = NAV.find((n) => n.view === route.view)?.label ?? '';
    document.title = `${label} · Partner Console`;
  }, [route.view]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Partner Console
        </div>
        <nav className="nav" aria-label="Main">
          {NAV.map((n) => (
            <a key={n.view} href={routeHref(n.view)} className="nav-link" aria-current={route.view === n.view ? 'page' : undefined}>
              {n.label}
            </a>
          ))}
        </nav>
        <ConnectionBadge />
      </header>
      <OfflineBanner />
      <main id="main" className="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          {route.view === 'budget' ? <BudgetView /> : null}
          {route.view === 'catalog' ? <CatalogView assetParam={route.param} /> : null}
          {route.view === 'purchases' ? <PurchasesView purchaseParam={route.param} /> : null}
          {route.view === 'requests' ? <RequestsView /> : null}
          {route.view === 'settings' ? <SettingsView /> : null}
        </Suspense>
      </main>
    </div>
  );
}
