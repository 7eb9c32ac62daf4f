/** What the header's bell says: the alerts that still ask for attention (firing and not acknowledged). */
import type { AlertView } from '../../../../shared/bridge/alert-schemas';

export interface Bell {
  /** The number on the bell: firing alerts nobody has acknowledged yet. */
  count: number;
  /** Its accessible name and tooltip. */
  label: string;
}

export function bellOf(alerts: readonly Pick<AlertView, 'endedAt' | 'acknowledgedAt'>[]): Bell {
  const firing = alerts.filter((a) => a.endedAt === null);
  const count = firing.filter((a) => a.acknowledgedAt === null).length;
  const acknowledged = firing.length - count;
  const ack = acknowledged > 0 ? `${acknowledged} acknowledged alert${acknowledged === 1 ? '' : 's'} still firing` : '';
  if (count === 0) return { count, label: ack ? `No new alert; ${ack}` : 'No alert firing' };
  return { count, label: `${count} alert${count === 1 ? '' : 's'} firing, not acknowledged${ack ? `; ${ack}` : ''}` };
}
