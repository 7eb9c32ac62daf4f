/**
 * The HAR export's own masking and shape: tokens the log could not know when it stored an entry (a
 * profile added later, a token header configured later) are masked in the export; an entry whose detail
 * the bounded log let go still makes a valid HAR entry; the replay reads our export back.
 */
import harSdk from '@har-sdk/validator';
import type { Har } from 'har-format';
import { describe, expect, it } from 'vitest';
import type { BudgetSample } from '../../shared/rate-limit';
import { readHarText, replayPlan } from '../../shared/har-replay';
import { buildHar, harText } from '../../electron/telemetry/har';
import { RequestLog } from '../../electron/telemetry/request-log';
import type { RecordedExchange } from '../../electron/telemetry/exchange';

const TOKEN = 'secret-token-0123456789';
const sample = (over: Partial<BudgetSample>): BudgetSample => ({
  vendor: 'acme',
  endpoint: 'purchaseInfo',
  at: Date.UTC(2026, 0, 2, 3, 4, 5),
  status: 200,
  limit: 50,
  remaining: 49,
  reset: 0,
  latencyMs: 30,
  waitedMs: 12,
  attempt: 1,
  headerProblems: [],
  ...over,
});
const exchange = (over: Partial<RecordedExchange>): RecordedExchange => ({
  method: 'GET',
  url: `https://user:pw@partner.example:8443/api/purchase/info?purchase_id=p_1&sig=${TOKEN}`,
  requestHeaders: { 'X-Partner-Key': TOKEN, Accept: 'application/json' },
  requestBody: null,
  status: 200,
  responseHeaders: { 'content-type': 'application/json; charset=UTF-8', 'x-rate-limit-remaining': '49' },
  responseBody: { text: `{"id":"p_1","echo":"${TOKEN}"}` },
  error: null,
  startedAt: 0,
  endedAt: 30,
  ...over,
});

describe('HAR export', () => {
  it('masks tokens the log did not know when it stored the entry: header, query value, body echo', async () => {
    const log = new RequestLog();
    // Stored while nobody knew the token or its header.
    log.add(sample({}), exchange({}), { tokens: [], tokenHeaders: new Set() });
    log.add(
      sample({ endpoint: 'registerPurchase', status: 0, latencyMs: 15000, attempt: 1 }),
      exchange({
        method: 'POST',
        url: 'https://partner.example:8443/api/purchase/register',
        requestBody: `{"asset_id":7,"note":"${TOKEN}"}`,
        status: 0,
        responseHeaders: {},
        responseBody: { text: null },
        error: 'TimeoutError: timed out',
      }),
      { tokens: [], tokenHeaders: new Set() },
    );
    const mask = { tokens: [TOKEN], tokenHeaders: new Set(['x-partner-key']) };
    const built = buildHar(
      log.exported(() => true, mask.tokens),
      { name: 'Partner Console', version: '1.0.0' },
      mask,
      'test',
    );
    const text = harText(built.har, mask);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain('user:pw');

    const har = JSON.parse(text) as Har;
    expect(await new harSdk.HarValidator().verify(JSON.parse(text))).toEqual([]);
    const [info, register] = har.log.entries;
    expect(info!.request.url).toBe('https://partner.example:8443/api/purchase/info?purchase_id=p_1&sig=secr%E2%80%A6' + TOKEN.slice(-2));
    expect(info!.request.headers.find((h) => h.name === 'X-Partner-Key')!.value).toBe(`secr…${TOKEN.slice(-2)}`);
    expect(info!.startedDateTime).toBe(new Date(Date.UTC(2026, 0, 2, 3, 4, 5) - 30 - 12).toISOString());
    expect(info!.timings).toMatchObject({ blocked: 12, wait: 30 });
    expect(info!.time).toBe(42);
    expect(register!.response).toMatchObject({ status: 0, statusText: '', httpVersion: '' });
    expect((register as unknown as { _error: string })._error).toBe('TIMEOUT');

    // Our export reads back as a replay plan: the base path before /purchase/... is allowed.
    const read = readHarText(text);
    if (!read.ok) throw new Error(read.message);
    const plan = replayPlan(read.har);
    // Time 0 is the earliest start: the registration began waiting 15 s before its answer was due.
    expect(plan.steps.map((s) => [s.endpoint, s.offsetMs])).toEqual([
      ['registerPurchase', 0],
      ['purchaseInfo', 15_000 - 30],
    ]);
    expect(plan.steps.find((s) => s.endpoint === 'purchaseInfo')!.query).toMatchObject({ purchase_id: 'p_1' });
  });

  it('writes an entry whose headers and bodies the bounded log let go, with a comment that says so', async () => {
    const log = new RequestLog({ capacity: 10, detailCapacity: 1 });
    log.add(sample({ endpoint: 'categories' }), exchange({ url: 'http://127.0.0.1:9/assets/categories' }), { tokens: [TOKEN], tokenHeaders: new Set() });
    log.add(sample({ endpoint: 'categories', at: sample({}).at + 100 }), exchange({ url: 'http://127.0.0.1:9/assets/categories' }), {
      tokens: [TOKEN],
      tokenHeaders: new Set(),
    });
    const mask = { tokens: [TOKEN], tokenHeaders: new Set<string>() };
    const built = buildHar(
      log.exported(() => true, mask.tokens),
      { name: 'Partner Console', version: '1.0.0' },
      mask,
      'test',
    );
    expect(built).toMatchObject({ entries: 2, withoutDetail: 1 });
    const text = harText(built.har, mask);
    const har = JSON.parse(text) as Har;
    expect(await new harSdk.HarValidator().verify(JSON.parse(text))).toEqual([]);
    expect(har.log.entries[0]!.comment).toContain('newest requests only');
    expect(har.log.entries[0]!.request.url).toBe('http://127.0.0.1:9/assets/categories');
  });

  it('writes the request URL with its target exactly as sent, as Copy as curl does, masking a token learnt since', () => {
    const log = new RequestLog();
    const sent = `https://partner.example/api/assets/list?q=a+b&name=%7Eme&flag&sig=${TOKEN}`;
    log.add(sample({ endpoint: 'listAssets' }), exchange({ url: sent }), { tokens: [], tokenHeaders: new Set() });
    const mask = { tokens: [TOKEN], tokenHeaders: new Set<string>() };
    const [exported] = log.exported(() => true, mask.tokens);
    const har = buildHar([exported!], { name: 'Partner Console', version: '1.0.0' }, mask, 'test').har;
    const masked = `secr%E2%80%A6${TOKEN.slice(-2)}`;
    expect(har.log.entries[0]!.request.url).toBe(`https://partner.example/api/assets/list?q=a+b&name=%7Eme&flag&sig=${masked}`);
    expect(har.log.entries[0]!.request.url).toBe(`${exported!.origin}${exported!.target.replace(TOKEN, masked)}`);
  });
});
