/**
 * A token scheme the profile check accepts, with '.' or '~' in it ('Partner.v1'), stays readable in
 * the masked request log (only the token after it is masked), and "Copy with token" finds the token
 * again from it. Before, such a scheme was masked with the token, and Copy with token refused.
 */
import { describe, expect, it } from 'vitest';
import { curlHandlers } from '../../electron/app/handlers/curl';
import type { AppContext } from '../../electron/app/handlers/context';
import { maskHeaderValue } from '../../electron/telemetry/exchange';
import type { MaskContext } from '../../electron/telemetry/exchange';
import { RequestLog } from '../../electron/telemetry/request-log';
import { maskToken } from '../../electron/profiles/mask-token';
import type { BudgetSample } from '../../shared/rate-limit';

const TOKEN = 'secret-token-abcdef123456';
const mask: MaskContext = { tokens: [TOKEN], tokenHeaders: new Set() };

const sample: BudgetSample = {
  at: 1000,
  vendor: 'acme',
  endpoint: 'listAssets',
  status: 200,
  latencyMs: 1,
  waitedMs: 0,
  attempt: 1,
  limit: 20,
  remaining: 1,
  reset: 1,
  headerProblems: [],
};

/** The log holding one request whose Authorization header was `value`. */
function logged(value: string): RequestLog {
  const log = new RequestLog();
  log.add(
    sample,
    {
      method: 'GET',
      url: 'https://partner.example/api/assets/list',
      requestHeaders: { authorization: value },
      requestBody: null,
      status: 200,
      responseHeaders: {},
      responseBody: { text: null },
      error: null,
      startedAt: 0,
      endedAt: 1,
    },
    mask,
  );
  return log;
}

describe('token schemes beyond letters, digits, - and _', () => {
  it('keeps any scheme the profile accepts and masks only the token after it', () => {
    for (const scheme of ['Bearer', 'Partner.v1', 'Token~2', "X!#$%&'*+-.^_`|~9"]) {
      expect(maskHeaderValue('Authorization', `${scheme} ${TOKEN}`, mask)).toBe(`${scheme} ${maskToken(TOKEN)}`);
    }
  });

  it('never shows a first word that holds a known token, nor one that is no scheme', () => {
    expect(maskHeaderValue('Authorization', `${TOKEN}.x rest`, mask)).toBe(maskToken(`${TOKEN}.x rest`));
    expect(maskHeaderValue('Authorization', `Part(ner) ${TOKEN}`, mask)).toBe(maskToken(`Part(ner) ${TOKEN}`));
  });

  it('copies the request with the real token after a Partner.v1 scheme', async () => {
    const log = logged(`Partner.v1 ${TOKEN}`);
    const detail = log.detail(1, mask.tokens)!;
    expect(detail.tokenHeader).toEqual({ header: 'authorization', scheme: 'Partner.v1' });
    expect(detail.requestHeaders.authorization).toBe(`Partner.v1 ${maskToken(TOKEN)}`);

    const clipboard: string[] = [];
    const ctx = {
      env: { writeClipboard: (text: string) => void clipboard.push(text) },
      telemetry: { requestDetail: (id: number) => log.detail(id, mask.tokens) },
      store: { knownTokens: () => [TOKEN] },
      demo: { tokens: () => [] },
    } as unknown as AppContext;
    await expect(curlHandlers(ctx).copyCurlWithToken({ requestId: 1 })).resolves.toEqual({ ok: true, tokenHeader: 'authorization' });
    expect(clipboard[0]).toContain(`'authorization: Partner.v1 ${TOKEN}'`);
  });
});
