/** Where the app is connected and how well: the link to the services, then the Partner service. */
import { useConnection } from '../api/queries';
import { useLink } from '../api/context';
import { useNow } from '../lib/use-now';

const LABEL = { connected: 'Connected', degraded: 'Degraded', offline: 'Offline', connecting: 'Connecting' } as const;

export function ConnectionBadge() {
  const link = useLink();
  const connection = useConnection();
  const now = useNow(1000, link.state === 'offline');
  const c = connection.data;
  const state = link.state === 'offline' ? 'offline' : link.state === 'connecting' ? 'connecting' : (c?.state ?? 'connecting');
  const title =
    link.state === 'offline'
      ? (link.problem ?? 'Not connected')
      : (c?.message ?? (c?.baseUrl ? `Partner service at ${c.baseUrl}` : 'Connecting'));
  const retryIn = link.retryAt ? Math.max(0, Math.ceil((link.retryAt - now) / 1000)) : null;
  return (
    <div className={`conn conn-${state}`} title={title} role="status" aria-label={`Connection: ${LABEL[state]}`}>
      <span className="conn-dot" aria-hidden="true" />
      <span className="conn-state">{LABEL[state]}</span>
      {link.state === 'offline' && retryIn !== null ? <span className="conn-detail">retry in {retryIn}s</span> : null}
      {link.state === 'open' && c?.vendor ? <span className="conn-detail">{c.vendor}</span> : null}
      {link.state === 'open' && c?.demo ? (
        <span className="demo-tag" title="Connected to the built-in simulator">
          DEMO
        </span>
      ) : null}
    </div>
  );
}
