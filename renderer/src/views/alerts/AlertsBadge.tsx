/** The header's alert count: firing alerts not yet acknowledged, linking to the Alerts view. Also wires the alert event. */
import { routeHref } from '../../lib/hash-route';
import { useFiringAlerts } from './alert-queries';
import { bellOf } from './bell';
import { useAlertWiring } from './use-alert-wiring';
import './alerts-badge.css';

export function AlertsBadge() {
  useAlertWiring();
  const { count, label } = bellOf(useFiringAlerts());
  return (
    <a href={routeHref('alerts')} className={`alerts-badge${count > 0 ? ' alerts-badge-firing' : ''}`} title={label} aria-label={label} data-count={count}>
      <svg className="alerts-bell" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
        <path d="M8 1.5a4.5 4.5 0 0 0-4.5 4.5v2.8L2 11v1h12v-1l-1.5-2.2V6A4.5 4.5 0 0 0 8 1.5Zm-1.8 11.5a1.8 1.8 0 0 0 3.6 0Z" fill="currentColor" />
      </svg>
      {count > 0 ? <span className="alerts-count">{count}</span> : null}
    </a>
  );
}
