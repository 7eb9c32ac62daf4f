/**
 * Export HAR with a time range exports what the Requests table shows: the range counts back from the
 * moment the view filtered its table (paused, it stays there), not from main's clock at the click.
 * That moment is bounded to the log's span: never past main's clock, never before the oldest entry.
 */
import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../electron/app/handlers/context';
import { harHandlers } from '../../electron/app/handlers/har';
import { RequestLog } from '../../electron/telemetry/request-log';
import { referenceTime } from '../../shared/request-log-filter';
import type { BudgetSample } from '../../shared/rate-limit';

const mask = { tokens: [], tokenHeaders: new Set<string>() };
const sample = (at: number): BudgetSample => ({
  at,
  vendor: 'acme',
  endpoint: 'categories',
  status: 200,
  latencyMs: 0,
  waitedMs: 0,
  attempt: 1,
  limit: 20,
  remaining: 10,
  reset: 1,
  headerProblems: [],
});

function appWith(log: RequestLog): AppContext {
  return {
    env: { version: '1.0.0' },
    telemetry: {
      maskContext: () => mask,
      searchRequestLog: (text: string) => log.search(text, []),
      exportedEntries: (keep: Parameters<RequestLog['exported']>[0]) => log.exported(keep, []),
    },
  } as unknown as AppContext;
}

describe('Export HAR with a time range', () => {
  it("keeps the entries of the view's 10 s, counted back from the view's moment", async () => {
    // The view paused an hour ago: its table showed the last 10 s before then.
    const viewNow = Date.now() - 3_600_000;
    const log = new RequestLog();
    for (const at of [viewNow - 20_000, viewNow - 5_000, viewNow - 1_000]) log.add(sample(at), null, mask);
    const exported = await harHandlers(appWith(log)).requestLogHar({ endpoint: 'all', status: 'all', rangeS: 10, text: '', minute: null, now: viewNow });
    const har = JSON.parse(exported.text) as Har & { log: { entries: { _logId: number }[] } };
    expect(har.log.entries.map((e) => e._logId)).toEqual([2, 3]);
    expect(har.log.comment).toContain(`the 10 s before ${new Date(viewNow).toISOString()}`);
  });

  it("bounds the view's moment to the log's span: not past main's clock, not before the oldest entry", () => {
    const clockNow = 1_000_000;
    expect(referenceTime(900_000, clockNow, 500_000)).toBe(900_000);
    expect(referenceTime(clockNow + 86_400_000, clockNow, 500_000)).toBe(clockNow);
    expect(referenceTime(0, clockNow, 500_000)).toBe(500_000);
    expect(referenceTime(0, clockNow, null)).toBe(0);
    expect(referenceTime(null, clockNow, 500_000)).toBe(clockNow);
    expect(referenceTime(undefined, clockNow, 500_000)).toBe(clockNow);
  });
});
