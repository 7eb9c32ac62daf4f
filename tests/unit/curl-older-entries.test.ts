/**
 * Copy as curl on an entry whose headers and bodies the bounded log let go: the entry keeps where it
 * went, and the copy is refused with the reason instead of a command rebuilt from the connected
 * profile's base URL (path prefix doubled, maybe another host, no token header, no body).
 */
import { describe, expect, it } from 'vitest';
import { curlHandlers } from '../../electron/app/handlers/curl';
import type { AppContext } from '../../electron/app/handlers/context';
import type { RecordedExchange } from '../../electron/telemetry/exchange';
import { RequestLog } from '../../electron/telemetry/request-log';
import { curlRefusal, toCurl } from '../../shared/curl';
import type { BudgetSample } from '../../shared/rate-limit';

const TOKEN = 'secret-token-abcdef123456';
const mask = { tokens: [TOKEN], tokenHeaders: new Set<string>() };

const sample = (at: number): BudgetSample => ({
  at,
  vendor: 'acme',
  endpoint: 'listAssets',
  status: 200,
  latencyMs: 10,
  waitedMs: 0,
  attempt: 1,
  limit: 20,
  remaining: 10,
  reset: 1,
  headerProblems: [],
});
const exchange = (url: string): RecordedExchange => ({
  method: 'GET',
  url,
  requestHeaders: { authorization: `Bearer ${TOKEN}` },
  requestBody: null,
  status: 200,
  responseHeaders: {},
  responseBody: { text: '{}' },
  error: null,
  startedAt: 0,
  endedAt: 10,
});

/** Two requests under a path prefix; the log keeps the detail of the newest only. */
function twoRequests(): RequestLog {
  const log = new RequestLog({ capacity: 10, detailCapacity: 1 });
  log.add(sample(1000), exchange('https://partner.example.com/api/v1/assets/list?page=2'), mask);
  log.add(sample(2000), exchange('https://partner.example.com/api/v1/assets/list?page=3'), mask);
  return log;
}

function appWith(log: RequestLog, clipboard: string[]): AppContext {
  return {
    env: { writeClipboard: (text: string) => void clipboard.push(text) },
    telemetry: { requestDetail: (id: number) => log.detail(id, mask.tokens) },
    store: { knownTokens: () => [TOKEN] },
    demo: { tokens: () => [] },
  } as unknown as AppContext;
}

describe('Copy as curl on an older entry', () => {
  it('keeps the origin of an entry whose details were let go, and says they were', () => {
    const older = twoRequests().detail(1, mask.tokens)!;
    expect(older).toMatchObject({ origin: 'https://partner.example.com', path: '/api/v1/assets/list?page=2', detailKept: false, requestHeaders: {} });
  });

  it('refuses it with the reason; the newest is copied with its own origin, the prefix once', () => {
    const log = twoRequests();
    expect(curlRefusal(log.detail(1, mask.tokens)!)).toBe(
      'Details of older requests are not kept (the log keeps headers and bodies of the newest only), so this one cannot be copied as curl.',
    );
    const newest = log.detail(2, mask.tokens)!;
    expect(curlRefusal(newest)).toBeNull();
    const command = toCurl({ ...newest, headers: newest.requestHeaders, body: newest.requestBody });
    expect(command).toBe(`curl --globoff --path-as-is 'https://partner.example.com/api/v1/assets/list?page=3' -H 'authorization: Bearer '"$PARTNER_TOKEN"`);
  });

  it('refuses a request that was never sent', () => {
    const log = new RequestLog();
    log.add(sample(1000), null, mask);
    expect(curlRefusal(log.detail(1, mask.tokens)!)).toMatch(/^This request was never sent/);
  });

  it('Copy with token refuses the older entry with the same reason and writes nothing', async () => {
    const clipboard: string[] = [];
    const copy = curlHandlers(appWith(twoRequests(), clipboard)).copyCurlWithToken;
    await expect(copy({ requestId: 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^Details of older requests are not kept/),
    });
    expect(clipboard).toEqual([]);
    await expect(copy({ requestId: 2 })).resolves.toEqual({ ok: true, tokenHeader: 'authorization' });
    expect(clipboard).toEqual([`curl --globoff --path-as-is 'https://partner.example.com/api/v1/assets/list?page=3' -H 'authorization: Bearer ${TOKEN}'`]);
  });
});
