/** Where the app is connected and how well: the link to the services, then the Partner service, then its fleet budget store. */
import { useSyncExternalStore } from 'react';
import { useConnection } from '../api/queries';
import type { FleetUse } from '../api/fleet-use';
import { useActiveFleetUse } from '../api/fleet-use';
import { useAppContext, useLink } from '../api/context';
import { useNow } from '../lib/use-now';
import { BADGE_LABEL, badgeState, SHARED_BUDGET_WINDOW_MS } from './connection-badge-state';

/** The fleet budget store's state in a few words (and fewer for narrow windows), or null when the profile has none. */
function storeLabel(store: FleetUse['store']): { text: string; short: string; tone: 'ok' | 'warn' | 'muted' } | null {
  if (store.kind === 'none') return null;
  const name = store.kind === 'machine' ? 'this machine' : 'Redis';
  if (store.state === 'connected') return { text: `Fleet budget: ${name}`, short: store.kind === 'machine' ? 'Fleet: machine' : 'Fleet: Redis', tone: 'ok' };
  if (store.state === 'fallback')
    return store.kind === 'machine'
      ? { text: 'Machine store unusable: headers only', short: 'Store down', tone: 'warn' }
      : { text: 'Redis unreachable: headers only', short: 'Redis down', tone: 'warn' };
  return { text: 'Fleet budget: connecting…', short: 'Fleet: …', tone: 'muted' };
}

export function ConnectionBadge() {
  const link = useLink();
  const { budget } = useAppContext();
  useSyncExternalStore(budget.subscribe, () => budget.version);
  const connection = useConnection();
  const now = useNow(1000, link.state === 'offline');
  const c = connection.data;
  const fleet = useActiveFleetUse().data;
  const store = link.state === 'open' && fleet ? storeLabel(fleet.store) : null;
  const othersUseTheBudget = c?.state === 'degraded' && c.vendor !== null && budget.foreignUseSince(c.vendor, Date.now() - SHARED_BUDGET_WINDOW_MS).length > 0;
  const state = badgeState({ link: link.state, connection: c, othersUseTheBudget });
  const title =
    link.state === 'offline'
      ? (link.problem ?? 'Not connected')
      : state === 'sharing'
        ? `Another consumer of ${c?.vendor ?? 'the vendor'} uses its budget too; the 429s come from sharing it, not from a fault of the service.`
        : (c?.message ?? (c?.baseUrl ? `Partner service at ${c.baseUrl}` : 'Connecting'));
  const vendor = link.state === 'open' ? (c?.vendor ?? null) : null;
  const retryIn = link.retryAt ? Math.max(0, Math.ceil((link.retryAt - now) / 1000)) : null;
  return (
    <div
      className={`conn conn-${state}`}
      title={title}
      role="status"
      aria-label={`Connection: ${BADGE_LABEL[state]}${vendor ? `, ${vendor}` : ''}${store ? `; ${store.text}` : ''}`}
    >
      <span className="conn-dot" aria-hidden="true" />
      <span className="conn-state">{BADGE_LABEL[state]}</span>
      {link.state === 'offline' && retryIn !== null ? <span className="conn-detail">retry in {retryIn}s</span> : null}
      {vendor ? (
        <span className="conn-detail" dir="auto" title={vendor}>
          {vendor}
        </span>
      ) : null}
      {link.state === 'open' && c?.demo ? (
        <span className="demo-tag" title="Connected to the built-in simulator">
          DEMO
        </span>
      ) : null}
      {store && fleet ? (
        <span
          className={`conn-store conn-store-${store.tone}`}
          title={`${store.text} (${fleet.store.url ?? ''}). ${fleet.store.message ?? ''}`}
          data-store-state={fleet.store.state}
        >
          <span className="conn-store-long">{store.text}</span>
          <span className="conn-store-short" aria-hidden="true">
            {store.short}
          </span>
        </span>
      ) : null}
    </div>
  );
}
