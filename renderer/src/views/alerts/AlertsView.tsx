/** Alerts: what fires now and what fired before (acknowledge), and the connected profile's rules. */
import type { ColumnDef } from '@tanstack/react-table';
import type { AlertView } from '../../../../shared/bridge/alert-schemas';
import { ENDPOINTS, isEndpointId } from '../../../../shared/endpoints';
import { useConnection } from '../../api/queries';
import { DataTable } from '../../components/DataTable';
import { Pill } from '../../components/Pill';
import { Empty, ErrorCallout, Loading } from '../../components/states';
import { fmtDateTime } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { lastedText } from './alert-lasted';
import { useAcknowledge, useAlerts } from './alert-queries';
import { AlertRulesPanel } from './AlertRulesPanel';
import { NotificationControls } from './NotificationControls';
import './alerts.css';

function endpointLabel(endpoint: string | null): string {
  if (endpoint === null) return 'All';
  return isEndpointId(endpoint) ? ENDPOINTS[endpoint].label : endpoint;
}

/** Ticks each second while the alert fires, so its time so far keeps up. */
function LastedCell({ alert }: { alert: AlertView }) {
  const now = useNow(1000, alert.endedAt === null);
  return <>{lastedText(alert, now)}</>;
}

function AcknowledgeCell({ alert }: { alert: AlertView }) {
  const ack = useAcknowledge();
  if (alert.acknowledgedAt !== null)
    return (
      <span className="muted" title={`Acknowledged ${fmtDateTime(alert.acknowledgedAt)}`}>
        Acknowledged
      </span>
    );
  return (
    <button type="button" className="btn btn-small" disabled={ack.isPending} onClick={() => ack.mutate(alert.id)} aria-label={`Acknowledge: ${alert.message}`}>
      Acknowledge
    </button>
  );
}

const columns: ColumnDef<AlertView, unknown>[] = [
  {
    id: 'state',
    header: 'State',
    accessorFn: (a) => (a.endedAt === null ? 0 : 1),
    size: 92,
    minSize: 88,
    enableHiding: false,
    cell: ({ row: { original: a } }) => (a.endedAt === null ? <Pill tone="danger">Firing</Pill> : <Pill tone="neutral">Ended</Pill>),
  },
  { id: 'message', header: 'Alert', accessorFn: (a) => a.message, size: 380, minSize: 280, enableHiding: false },
  { id: 'endpoint', header: 'Endpoint', accessorFn: (a) => endpointLabel(a.endpoint), size: 130, minSize: 90, meta: { dropOrder: 2 } },
  { id: 'vendor', header: 'Vendor', accessorFn: (a) => a.vendor, size: 90, minSize: 70, meta: { dropOrder: 3 } },
  {
    id: 'started',
    header: 'Started',
    accessorFn: (a) => a.startedAt,
    size: 175,
    minSize: 170,
    cell: ({ row }) => fmtDateTime(row.original.startedAt),
    meta: { cellClass: () => 'mono muted' },
  },
  {
    id: 'duration',
    header: 'Lasted',
    accessorFn: (a) => (a.endedAt ?? Date.now()) - a.startedAt,
    size: 150,
    minSize: 90,
    meta: { numeric: true, dropOrder: 1, cellTitle: (a) => (a.endedAt === null ? 'Still firing' : `Ended ${fmtDateTime(a.endedAt)}`) },
    cell: ({ row: { original: a } }) => <LastedCell alert={a} />,
  },
  {
    id: 'ack',
    header: 'Acknowledged',
    accessorFn: (a) => a.acknowledgedAt ?? 0,
    size: 130,
    minSize: 120,
    enableHiding: false,
    cell: ({ row }) => <AcknowledgeCell alert={row.original} />,
  },
];

export default function AlertsView() {
  const alerts = useAlerts();
  const connection = useConnection();
  const items = alerts.data?.items ?? [];
  const firing = items.filter((a) => a.endedAt === null).length;
  return (
    <div className="view alerts-view">
      <div className="view-head">
        <div>
          <h1 className="view-title">Alerts</h1>
          <p className="view-sub">
            {firing === 0 ? 'No alert is firing.' : `${firing} alert${firing === 1 ? '' : 's'} firing.`} Firing alerts come first, then the history.
          </p>
        </div>
        <NotificationControls />
      </div>
      {alerts.data?.problem ? <ErrorCallout error={new Error(alerts.data.problem)} action="Reading alerts" /> : null}
      {alerts.isPending ? <Loading /> : null}
      {alerts.isError ? <ErrorCallout error={alerts.error} action="Reading alerts" onRetry={() => void alerts.refetch()} /> : null}
      <section className="panel panel-flush" aria-label="Alert list">
        <DataTable
          prefsKey="alerts"
          label="Alerts"
          data={items}
          columns={columns}
          getRowId={(a) => String(a.id)}
          rowProps={(a) => ({ 'data-state': a.endedAt === null ? 'firing' : 'ended', 'data-kind': a.kind })}
          maxHeight="calc(100vh - 430px)"
          empty={<Empty title="No alerts yet.">Alerts appear here when a rule below fires.</Empty>}
        />
      </section>
      <AlertRulesPanel connectedId={connection.data?.profileId ?? null} />
    </div>
  );
}
