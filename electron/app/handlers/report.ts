/** usageReport: the Usage report of a profile (default: the connected one) over a period. */
import { PartnerError } from '../../../shared/errors';
import { isTimeZone } from '../../../shared/time-zone';
import { usageReportFrom } from '../../reports/usage-report-source';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

export function reportHandlers(ctx: AppContext): HandlerGroup<'usageReport'> {
  return {
    async usageReport({ profileId, vendor, fromMs, toMs, timeZone = 'UTC' }) {
      if (!isTimeZone(timeZone)) throw new PartnerError({ code: 'BAD_REQUEST', message: `Unknown time zone "${timeZone}".`, retryable: false });
      const connected = ctx.connection.current();
      const id = profileId ?? connected.profileId;
      if (!id) throw new PartnerError({ code: 'BAD_REQUEST', message: 'Say which profile to report on: none is connected.', retryable: false });
      const profile = ctx.store.get(id) ?? (ctx.demo.isDemo(id) ? ctx.demo.view(id) : undefined);
      const theVendor = vendor ?? profile?.vendor ?? (id === connected.profileId ? connected.vendor : null);
      if (!theVendor) throw new PartnerError({ code: 'NOT_FOUND', message: `No profile with the id "${id}".`, retryable: false });
      const subject = { profileId: id, profileName: profile?.name ?? null, vendor: theVendor, fromMs, toMs, timeZone };
      const report = usageReportFrom({ rows: (q) => ctx.usage.rows(q), now: Date.now(), minuteRetentionMs: ctx.usage.retention.minuteMs }, subject);
      return { ...report, problem: ctx.usage.problem };
    },
  };
}
