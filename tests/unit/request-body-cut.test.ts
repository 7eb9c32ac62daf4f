/**
 * A request body over the log's excerpt (4,096 characters) is stored cut. The log entry says so, and
 * nothing sends the start of it as if it were the body: Copy as curl refuses, the HAR marks it
 * (postData.comment, bodySize -1, `_requestBodyCut`) and a replay leaves the entry out, counted.
 */
import harSdk from '@har-sdk/validator';
import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import { createRecordingFetch } from '../../electron/telemetry/recording-fetch';
import type { RecordedExchange } from '../../electron/telemetry/exchange';
import { BODY_EXCERPT_BYTES } from '../../electron/telemetry/exchange';
import { buildHar, CUT_BODY_COMMENT, harText } from '../../electron/telemetry/har';
import { RequestLog } from '../../electron/telemetry/request-log';
import { curlRefusal } from '../../shared/curl';
import { readHarText, replayPlan } from '../../shared/har-replay';
import type { BudgetSample } from '../../shared/rate-limit';

const mask = { tokens: [], tokenHeaders: new Set<string>() };
const LONG = JSON.stringify({ assetIds: Array.from({ length: 600 }, (_, i) => `asset-${i}`) });
const SHORT = JSON.stringify({ assetIds: ['asset-1'] });

const sample = (at: number): BudgetSample => ({
  at,
  vendor: 'acme',
  endpoint: 'assetHistory',
  status: 200,
  latencyMs: 10,
  waitedMs: 0,
  attempt: 1,
  limit: 10,
  remaining: 5,
  reset: 1,
  headerProblems: [],
});

/** What the recording fetch records of a POST with this body. */
async function recorded(body: string): Promise<RecordedExchange> {
  const seen: RecordedExchange[] = [];
  const fetch = createRecordingFetch(async () => new Response('{}'), { onExchange: (e) => seen.push(e) });
  await fetch('https://partner.example/assets/history', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return seen[0]!;
}

/** The log after a long-bodied and a short-bodied request. */
async function logOfBoth(): Promise<RequestLog> {
  const log = new RequestLog();
  log.add(sample(1000), await recorded(LONG), mask);
  log.add(sample(2000), await recorded(SHORT), mask);
  return log;
}

describe('a request body over the excerpt', () => {
  it('is recorded and logged as cut', async () => {
    expect(LONG.length).toBeGreaterThan(BODY_EXCERPT_BYTES);
    const long = await recorded(LONG);
    expect(long.requestBodyCut).toBe(true);
    expect(long.requestBody!.startsWith(LONG.slice(0, BODY_EXCERPT_BYTES))).toBe(true);
    expect((await recorded(SHORT)).requestBodyCut).toBe(false);
    const log = await logOfBoth();
    expect(log.detail(1, [])!.requestBodyCut).toBe(true);
    expect(log.detail(2, [])!.requestBodyCut).toBe(false);
  });

  it('is never copied as curl; a whole body is', async () => {
    const log = await logOfBoth();
    expect(curlRefusal(log.detail(1, [])!)).toMatch(/^Only the start of this request body was kept .*a command would send a different body/);
    expect(curlRefusal(log.detail(2, [])!)).toBeNull();
  });

  it('is marked in the HAR, which stays valid, and left out of a replay', async () => {
    const log = await logOfBoth();
    const text = harText(
      buildHar(
        log.exported(() => true, []),
        { name: 'Partner Console', version: '1' },
        mask,
        'test',
      ).har,
      mask,
    );
    expect(await new harSdk.HarValidator().verify(JSON.parse(text))).toEqual([]);
    const [cut, whole] = (JSON.parse(text) as Har).log.entries as (Har['log']['entries'][number] & { _requestBodyCut?: boolean })[];
    expect(cut!.request.postData!.comment).toBe(CUT_BODY_COMMENT);
    expect(cut!.request.bodySize).toBe(-1);
    expect(cut!._requestBodyCut).toBe(true);
    expect(whole!.request.postData).toEqual({ mimeType: 'application/json', text: SHORT });
    expect(whole!._requestBodyCut).toBeUndefined();

    const read = readHarText(text);
    if (!read.ok) throw new Error(read.message);
    const plan = replayPlan(read.har);
    expect(plan.skipped).toEqual({ notAnEndpoint: 0, retries: 0, bodyCut: 1 });
    expect(plan.steps.map((s) => s.body)).toEqual([{ assetIds: ['asset-1'] }]);
  });
});
