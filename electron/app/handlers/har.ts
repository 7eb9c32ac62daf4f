/**
 * requestLogHar: the request log, filtered as the Requests view shows it, as HAR 1.2 (the page saves
 * the text as a file, as it saves its CSVs). simReplay*: a HAR's requests replayed through the shown demo
 * profile's own client into the built-in simulator (one replay at a time), so the Budget view shows them.
 */
import { PartnerError } from '../../../shared/errors';
import { replayPlan } from '../../../shared/har-replay';
import { logFilter, referenceTime, STATUS_FILTERS } from '../../../shared/request-log-filter';
import type { LogFilter } from '../../../shared/request-log-filter';
import { timerClock } from '../../../shared/clock';
import { HarReplay } from '../../replay/har-replay';
import { buildHar, harText } from '../../telemetry/har';
import { notOnDemo } from '../embedded-demo';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

/** The filter in words, for the HAR's comment; `now`: the moment its time range counted back from. */
function describeFilter(f: LogFilter, now: number): string {
  const parts = [
    f.endpoint === 'all' ? 'all endpoints' : f.endpoint,
    STATUS_FILTERS.find((s) => s.id === f.status)?.label.toLowerCase() ?? f.status,
    f.minute != null
      ? `the minute of ${new Date(f.minute).toISOString()}`
      : f.rangeS > 0
        ? `the ${f.rangeS} s before ${new Date(now).toISOString()}`
        : 'everything kept',
  ];
  if (f.text.trim() !== '') parts.push(`matching "${f.text.trim()}"`);
  return parts.join(', ');
}

const stamp = (ms: number): string => new Date(ms).toISOString().replace(/\..*$/, '').replace(/[:]/g, '-');

export function harHandlers(ctx: AppContext): HandlerGroup<'requestLogHar' | 'simReplayHar' | 'simReplayStatus' | 'simReplayStop'> {
  let replay: HarReplay | null = null;
  return {
    async requestLogHar(filter) {
      const clockNow = Date.now();
      const mask = ctx.telemetry.maskContext();
      // The text matches as in the view: main's search finds it in the bodies too.
      const found = filter.text.trim() === '' ? null : new Set(ctx.telemetry.searchRequestLog(filter.text).ids);
      const all = ctx.telemetry.exportedEntries(() => true);
      // The time range counts back from the moment the view's table did, not from this click.
      const now = referenceTime(filter.now, clockNow, all[0]?.entry.at ?? null);
      const keep = logFilter({ ...filter, found }, now);
      const entries = all.filter((e) => keep(e.entry));
      const comment = `Partner Console request log: ${describeFilter(filter, now)}. Tokens are masked.`;
      const built = buildHar(entries, { name: 'Partner Console', version: ctx.env.version }, mask, comment);
      return { fileName: `requests-${stamp(clockNow)}.har`, text: harText(built.har, mask), entries: built.entries, withoutDetail: built.withoutDetail };
    },
    /** As the vendor of the demo profile the page showed (the simulator panel's). */
    async simReplayHar({ har, ...scope }) {
      const session = ctx.session(scope);
      if (!session.profile.demo || !ctx.demo.running || session.isClosed) throw notOnDemo();
      if (replay?.status().state === 'running') {
        throw new PartnerError({ code: 'CONFLICT', message: 'A replay is running.', hint: 'Stop it first, or wait until it ends.', retryable: false });
      }
      replay = new HarReplay(replayPlan(har), session.client, timerClock);
      return replay.status();
    },
    simReplayStatus: async () => replay?.status() ?? null,
    simReplayStop: async () => replay?.stop() ?? null,
  };
}
