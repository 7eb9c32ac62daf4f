/** How long an alert lasted, or has lasted so far while it fires. */
import type { AlertView } from '../../../../shared/bridge/alert-schemas';
import { fmtDuration } from '../../lib/format';

/** "4 min 05 s" for an ended alert; "4 min 05 s (ongoing)" for one still firing, counted to `now`. */
export function lastedText(alert: Pick<AlertView, 'startedAt' | 'endedAt'>, now: number): string {
  const end = alert.endedAt ?? now;
  const lasted = fmtDuration(Math.max(1, Math.round((end - alert.startedAt) / 1000)));
  return alert.endedAt === null ? `${lasted} (ongoing)` : lasted;
}
