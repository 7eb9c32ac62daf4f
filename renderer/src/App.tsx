import { useCallback, useEffect, useState } from 'react';
import { useAppContext } from './api/context';
import { useSettings } from './api/queries';
import { ConnectionBadge } from './components/ConnectionBadge';
import { OfflineBanner } from './components/OfflineBanner';
import { ShortcutsHelp } from './components/ShortcutsHelp';
import { ViewBoundary } from './components/ViewBoundary';
import { useLiveWiring } from './live/use-live-wiring';
import { navigate, routeHref, useRoute } from './lib/hash-route';
import type { ViewId } from './lib/hash-route';
import { lazyView } from './lib/lazy-view';
import { NAV_ITEMS } from './lib/nav';
import { useShortcuts } from './lib/shortcuts';
import { useHeadHeight } from './lib/use-head-height';
import { AlertsBadge } from './views/alerts/AlertsBadge';
import { BudgetView } from './views/budget/BudgetView';
import { ProfileSwitcher } from './views/overview/ProfileSwitcher';

// Budget is the landing view; the others load on first visit to keep the first chunk small.
const Catalog = lazyView(() => import('./views/catalog/CatalogView'));
const Purchases = lazyView(() => import('./views/purchases/PurchasesView'));
const Requests = lazyView(() => import('./views/requests/RequestsView'));
const Alerts = lazyView(() => import('./views/alerts/AlertsView'));
const Settings = lazyView(() => import('./views/settings/SettingsView'));
const Usage = lazyView(() => import('./views/usage/UsageView'));
const Overview = lazyView(() => import('./views/overview/OverviewView'));

/** A lazily loaded view's "Try again" (Budget is in the first chunk). */
const RETRY: Partial<Record<ViewId, () => void>> = {
  overview: Overview.retry,
  catalog: Catalog.retry,
  purchases: Purchases.retry,
  requests: Requests.retry,
  alerts: Alerts.retry,
  usage: Usage.retry,
  settings: Settings.retry,
};
const NAV: { view: ViewId; label: string; retry?: () => void }[] = NAV_ITEMS.map((n) => ({ ...n, retry: RETRY[n.view] }));

export function App() {
  const context = useAppContext();
  useLiveWiring(context);
  const route = useRoute();
  const settings = useSettings();
  const theme = settings.data?.theme ?? 'system';
  const [help, setHelp] = useState(false);
  const headRef = useHeadHeight();
  useShortcuts(
    useCallback((view: ViewId) => navigate(view), []),
    useCallback(() => setHelp(true), []),
  );

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  // Another view opens at its top, not at the scroll position the previous one was left at.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [route.view]);

  const nav = NAV.find((n) => n.view === route.view) ?? NAV[0]!;
  useEffect(() => {
    document.title = `${nav.label} · Partner Console`;
  }, [nav.label]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className="app-head" ref={headRef}>
        <header className="topbar">
          <div className="brand">
            <span className="brand-mark" aria-hidden="true" />
            <span className="brand-name">Partner Console</span>
          </div>
          <nav className="nav" aria-label="Main">
            {NAV.map((n) => (
              <a key={n.view} href={routeHref(n.view)} className="nav-link" aria-current={route.view === n.view ? 'page' : undefined}>
                {n.label}
              </a>
            ))}
          </nav>
          <button
            type="button"
            className="btn btn-ghost btn-small shortcuts-button"
            onClick={() => setHelp(true)}
            title="Keyboard shortcuts (?)"
            aria-label="Keyboard shortcuts"
          >
            ?
          </button>
          <AlertsBadge />
          <ProfileSwitcher />
          <ConnectionBadge />
        </header>
        <OfflineBanner />
      </div>
      <main id="main" className="main" tabIndex={-1}>
        <ViewBoundary title={nav.label} resetKey={`${route.view}/${route.param ?? ''}`} onReset={nav.retry}>
          {route.view === 'budget' ? <BudgetView /> : null}
          {route.view === 'catalog' ? <Catalog.View assetParam={route.param} /> : null}
          {route.view === 'purchases' ? <Purchases.View purchaseParam={route.param} /> : null}
          {route.view === 'requests' ? <Requests.View /> : null}
          {route.view === 'alerts' ? <Alerts.View /> : null}
          {route.view === 'settings' ? <Settings.View /> : null}
          {route.view === 'usage' ? <Usage.View /> : null}
          {route.view === 'overview' ? <Overview.View /> : null}
        </ViewBoundary>
      </main>
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
