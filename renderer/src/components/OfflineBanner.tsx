import { useSyncExternalStore } from 'react';
import { ENDPOINTS } from '../../../shared/endpoints';
import { useAppContext, useLink } from '../api/context';
import { useConnection } from '../api/queries';
import { SHARED_BUDGET_WINDOW_MS } from './connection-badge-state';

/** Says plainly when the app cannot reach its services or the Partner service. */
export function OfflineBanner() {
  const link = useLink();
  const { link: source, budget } = useAppContext();
  const connection = useConnection();
  useSyncExternalStore(budget.subscribe, () => budget.version);
  if (link.state === 'offline' && link.refused) {
    // Retrying cannot help: the server runs with another secret. Say what to do, and do not hammer it.
    return (
      <div className="banner banner-danger" role="alert">
        <strong>Not connected.</strong> {link.problem ?? "This page's secret is no longer valid."} Showing the last data received.
        <button type="button" className="btn btn-small" onClick={() => source.retryNow()}>
          Try again
        </button>
      </div>
    );
  }
  if (link.state === 'offline') {
    return (
      <div className="banner banner-danger" role="alert">
        <strong>Offline.</strong> {link.problem ?? 'Not connected to the Partner Console service.'} Showing the last data received;{' '}
        {link.retryAt === null ? 'checking the service…' : 'reconnecting automatically.'}
        <button type="button" className="btn btn-small" onClick={() => source.retryNow()}>
          Reconnect now
        </button>
      </div>
    );
  }
  const c = connection.data;
  const shared = c?.state === 'degraded' && c.vendor ? budget.foreignUseSince(c.vendor, Date.now() - SHARED_BUDGET_WINDOW_MS) : [];
  if (link.state === 'open' && c && shared.length > 0) {
    // The cause is another consumer of the vendor's budget, not the service: say so.
    return (
      <div className="banner banner-warn" role="status">
        <strong>Budget shared with another consumer.</strong> Another program, token or machine of {c.vendor} is using its budget on{' '}
        {shared.map((f) => ENDPOINTS[f.endpoint].label).join(', ')}; 429s there come from that, not from a fault of the service.
      </div>
    );
  }
  if (link.state === 'open' && c && (c.state === 'offline' || c.state === 'degraded')) {
    return (
      <div className={`banner ${c.state === 'offline' ? 'banner-danger' : 'banner-warn'}`} role="status">
        <strong>{c.state === 'offline' ? 'The Partner service is unreachable.' : 'The Partner service is degraded.'}</strong> {c.message ?? ''}
      </div>
    );
  }
  return null;
}
