/** A small mark beside an endpoint (Budget row and chart) while one of its alerts fires; links to the Alerts view. */
import type { EndpointId } from '../../../../shared/endpoints';
import { useConnection } from '../../api/queries';
import { routeHref } from '../../lib/hash-route';
import { useEndpointAlerts } from './alert-queries';

export function AlertMarker({ endpoint }: { endpoint: EndpointId }) {
  const connection = useConnection();
  const firing = useEndpointAlerts(connection.data?.vendor).get(endpoint) ?? [];
  if (firing.length === 0) return null;
  const text = firing.map((a) => a.message).join('\n');
  return (
    // The row opens its chart on a click; the mark opens the Alerts view instead.
    <a className="alert-marker" href={routeHref('alerts')} title={text} aria-label={`Alert firing: ${text}`} onClick={(e) => e.stopPropagation()}>
      alert
    </a>
  );
}
