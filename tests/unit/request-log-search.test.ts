/**
 * The request log's search over bodies (main keeps them; the page does not), the token header it
 * notes for Copy as curl, and copyCurlWithToken's refusals: a shell without a clipboard writer (browser
 * mode) refuses, and the answer never holds the token.
 */
import { describe, expect, it } from 'vitest';
import type { BudgetSample } from '../../shared/rate-limit';
import { RequestLog, findTokenHeader } from '../../electron/telemetry/request-log';
import type { MaskContext, RecordedExchange } from '../../electron/telemetry/exchange';
import { curlHandlers } from '../../electron/app/handlers/curl';
import type { AppContext } from '../../electron/app/handlers/context';
import { PartnerError } from '../../shared/errors';
import { LONG_KEPT_DETAIL_CHARS } from '../../shared/request-log-filter';

const TOKEN = 'secret-token-xyz';
const mask: MaskContext = { tokens: [TOKEN], tokenHeaders: new Set(['authorization']) };

const sample = (at: number, endpoint: BudgetSample['endpoint']): BudgetSample => ({
  vendor: 'demo',
  endpoint,
  at,
  status: 200,
  limit: 50,
  remaining: 49,
  reset: 0,
  latencyMs: 5,
  waitedMs: 0,
  attempt: 1,
  headerProblems: [],
});

function exchange(
  url: string,
  requestBody: string | null,
  responseBody: string | null,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): RecordedExchange {
  return {
    method: requestBody ? 'POST' : 'GET',
    url,
    requestHeaders: headers,
    requestBody,
    status: 200,
    responseHeaders: {},
    responseBody: { text: responseBody },
    error: null,
    startedAt: 0,
    endedAt: 1,
  };
}

describe('request log search', () => {
  const log = new RequestLog({ capacity: 10, detailCapacity: 3 });
  const register = log.add(
    sample(1, 'registerPurchase'),
    exchange('http://127.0.0.1:9/purchase/register', '{"asset_id":7001,"client_reference":"pc-Ref-42"}', `{"purchase_id":"p_abc","echo":"${TOKEN}"}`),
    mask,
  );
  const list = log.add(sample(2, 'listAssets'), exchange('http://127.0.0.1:9/assets/list?per-page=2', null, '{"items":[{"id":88123},{"id":88124}]}'), mask);

  it('finds a client reference in a request body and an asset or purchase id in a response body, case-insensitively', () => {
    expect(log.search('PC-ref-42', mask.tokens).ids).toEqual([register.id]);
    expect(log.search('88124', mask.tokens).ids).toEqual([list.id]);
    expect(log.search('p_abc', mask.tokens).ids).toEqual([register.id]);
    // Metadata as before: the path, newest first.
    expect(log.search('/', mask.tokens).ids).toEqual([list.id, register.id]);
    expect(log.search('  ', mask.tokens).ids).toEqual([]);
  });

  it('never finds a token, not even a piece of it, in an echoing body', () => {
    expect(log.search(TOKEN, mask.tokens).ids).toEqual([]);
    expect(log.search('token-xy', mask.tokens).ids).toEqual([]);
  });

  it('searches bodies only where the log keeps them, and says how many it had', () => {
    for (let i = 0; i < 3; i++) log.add(sample(10 + i, 'categories'), exchange('http://127.0.0.1:9/assets/categories', null, '[]'), mask);
    // The catalog page left the newest 3: its body is no longer searched. The registration, a small purchase call, still is.
    expect(log.search('88124', mask.tokens)).toEqual({ ids: [], scanned: 5, withBodies: 4 });
    expect(log.search('pc-ref-42', mask.tokens).ids).toEqual([register.id]);
  });

  it("keeps small purchase calls' bodies for as long as the log keeps the entry, never a large one nor a catalog page", () => {
    const long = new RequestLog({ capacity: 50, detailCapacity: 10 });
    const body = (reference: string) => `{"asset_id":7001,"client_reference":"${reference}"}`;
    const small = long.add(sample(1, 'registerPurchase'), exchange('http://127.0.0.1:9/purchase/register', body('ref-small'), '{"purchase_id":"p_1"}'), mask);
    const info = long.add(
      sample(2, 'purchaseInfo'),
      exchange('http://127.0.0.1:9/purchase/info?purchase_id=p_1', null, '{"state":"registered","note":"n-1"}'),
      mask,
    );
    long.add(
      sample(3, 'registerPurchase'),
      exchange('http://127.0.0.1:9/purchase/register', body('ref-large'), `{"purchase_id":"p_2","pad":"${'x'.repeat(LONG_KEPT_DETAIL_CHARS)}"}`),
      mask,
    );
    const page = long.add(sample(4, 'listAssets'), exchange('http://127.0.0.1:9/assets/list', null, '{"items":[{"id":55501}]}'), mask);
    for (let i = 0; i < 40; i++) long.add(sample(10 + i, 'categories'), exchange('http://127.0.0.1:9/assets/categories', null, '[]'), mask);
    expect(long.search('ref-small', mask.tokens).ids).toEqual([small.id]);
    expect(long.search('n-1', mask.tokens).ids).toEqual([info.id]);
    expect(long.detail(small.id, mask.tokens)).toMatchObject({ detailKept: true, requestBody: body('ref-small') });
    expect(long.search('ref-large', mask.tokens).ids).toEqual([]); // over LONG_KEPT_DETAIL_CHARS
    expect(long.search('55501', mask.tokens).ids).toEqual([]);
    expect(long.detail(page.id, mask.tokens)!.detailKept).toBe(false);
    expect(long.search('nothing', mask.tokens)).toMatchObject({ scanned: 44, withBodies: 10 + 2 });
    // Gone with its entry when the log lets it go: the bound is the log's.
    for (let i = 0; i < 10; i++) long.add(sample(60 + i, 'categories'), exchange('http://127.0.0.1:9/assets/categories', null, '[]'), mask);
    expect(long.search('ref-small', mask.tokens).ids).toEqual([]);
  });

  it('notes the header that carried the token (name and scheme, never the token), and the origin without credentials', () => {
    expect(findTokenHeader({ accept: 'x', 'x-api-key': TOKEN }, [TOKEN])).toEqual({ header: 'x-api-key', scheme: null });
    expect(findTokenHeader({ authorization: `Token ${TOKEN}` }, [TOKEN])).toEqual({ header: 'authorization', scheme: 'Token' });
    expect(findTokenHeader({ authorization: 'Bearer other' }, [TOKEN])).toBeNull();
    const l = new RequestLog();
    const e = l.add(sample(1, 'listAssets'), exchange('https://user:pw@partner.example:8443/api/assets/list', null, '{}'), mask);
    const d = l.detail(e.id, mask.tokens)!;
    expect(d).toMatchObject({ origin: 'https://partner.example:8443', path: '/api/assets/list', tokenHeader: { header: 'authorization', scheme: 'Bearer' } });
    expect(JSON.stringify(d)).not.toContain(TOKEN);
  });
});

describe('request log details', () => {
  it('keeps the headers and bodies of every one of the newest 1,000 entries, from the first request on', () => {
    const log = new RequestLog();
    const ids = Array.from(
      { length: 1200 },
      (_, i) => log.add(sample(i, 'categories'), exchange('http://127.0.0.1:9/assets/categories', null, `[${i}]`), mask).id,
    );
    const kept = (id: number) => log.detail(id, mask.tokens)!.responseBody !== null;
    expect(ids.slice(-1000).filter((id) => !kept(id))).toEqual([]);
    expect(ids.slice(0, 200).filter(kept)).toEqual([]);
    const early = new RequestLog();
    const first = Array.from(
      { length: 700 },
      (_, i) => early.add(sample(i, 'categories'), exchange('http://127.0.0.1:9/assets/categories', null, `[${i}]`), mask).id,
    );
    expect(first.filter((id) => early.detail(id, mask.tokens)!.responseBody === null)).toEqual([]);
  });
});

describe('copyCurlWithToken', () => {
  const detail = {
    id: 5,
    at: 0,
    vendor: 'demo',
    endpoint: 'listAssets',
    method: 'GET',
    path: '/assets/list',
    target: '/assets/list',
    status: 200,
    latencyMs: 1,
    waitedMs: 0,
    attempt: 1,
    limit: 20,
    remaining: 19,
    reset: 0,
    errorCode: null,
    requestHeaders: { authorization: 'Bearer secr…yz' },
    requestBody: null,
    requestBodyCut: false,
    responseHeaders: {},
    responseBody: null,
    headerProblems: [],
    origin: 'http://127.0.0.1:9',
    detailKept: true,
    tokenHeader: { header: 'authorization', scheme: 'Bearer' },
  };
  const context = (writeClipboard?: (text: string) => void, tokens = [TOKEN]) =>
    ({
      env: { shell: writeClipboard ? 'desktop' : 'web', ...(writeClipboard ? { writeClipboard } : {}) },
      telemetry: { requestDetail: (id: number) => (id === 5 ? detail : null) },
      store: { knownTokens: () => tokens },
      demo: { tokens: () => [] },
    }) as unknown as AppContext;

  it('is refused in browser mode (no clipboard writer), in words', async () => {
    const error = await curlHandlers(context())
      .copyCurlWithToken({ requestId: 5 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PartnerError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'Copy with token is only in the desktop app.' });
  });

  it('writes the plain token to the clipboard only', async () => {
    const written: string[] = [];
    const answer = await curlHandlers(context((t) => written.push(t))).copyCurlWithToken({ requestId: 5 });
    expect(JSON.stringify(answer)).not.toContain(TOKEN);
    expect(written).toEqual([`curl --globoff --path-as-is 'http://127.0.0.1:9/assets/list' -H 'authorization: Bearer ${TOKEN}'`]);
  });

  it('refuses when the token is no longer known, or two known tokens mask alike', async () => {
    const written: string[] = [];
    await expect(curlHandlers(context((t) => written.push(t), [])).copyCurlWithToken({ requestId: 5 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(curlHandlers(context((t) => written.push(t), [TOKEN, 'secret-other-xyz'])).copyCurlWithToken({ requestId: 5 })).rejects.toMatchObject({
      message: expect.stringContaining('look alike'),
    });
    expect(written).toEqual([]);
  });
});
