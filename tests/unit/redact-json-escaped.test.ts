/** Issue 11 item 9: a token the server echoes JSON-escaped (PHP's `\/`, `\u002F`) is masked in the request log too. */
import { describe, expect, it } from 'vitest';
import { redactText, redactValue } from '../../electron/client/redact';
import { RequestLog } from '../../electron/telemetry/request-log';
import type { BudgetSample } from '../../shared/rate-limit';

const TOKEN = 'vend0r/Tok+en=/9x8y7z';

describe('JSON-escaped tokens', () => {
  it('masks the token written plain, with \\/ and with \\uXXXX escapes in either case', () => {
    for (const written of [TOKEN, TOKEN.replace(/\//g, '\\/'), TOKEN.replace(/\//g, '\\u002F'), TOKEN.replace(/\//g, '\\u002f').replace('T', '\\u0054')]) {
      const text = `{"echo":"${written}"}`;
      const masked = redactText(text, [TOKEN]);
      expect(masked, written).toBe('{"echo":"vend…7z"}');
      expect(JSON.stringify(JSON.parse(masked))).not.toContain('9x8y');
    }
    expect(redactValue({ [TOKEN]: TOKEN }, [TOKEN])).toEqual({ 'vend…7z': 'vend…7z' });
  });

  it('the request log never holds the raw token of an escaped echo, even once the body is parsed', () => {
    const log = new RequestLog();
    const sample: BudgetSample = {
      vendor: 'acme',
      endpoint: 'purchaseInfo',
      at: 1,
      status: 200,
      limit: 50,
      remaining: 49,
      reset: 0,
      latencyMs: 1,
      waitedMs: 0,
      attempt: 1,
      headerProblems: [],
    };
    const echoed = JSON.stringify({ you_sent: TOKEN }).replace(/\//g, '\\/'); // as PHP's json_encode writes it
    const entry = log.add(
      sample,
      {
        method: 'GET',
        url: 'http://h/purchase/info?id=1',
        requestHeaders: { authorization: `Bearer ${TOKEN}` },
        requestBody: null,
        status: 200,
        responseHeaders: {},
        responseBody: { text: echoed },
        error: null,
        startedAt: 0,
        endedAt: 1,
      },
      { tokens: [TOKEN], tokenHeaders: new Set(['authorization']) },
    );
    const detail = log.detail(entry.id, [TOKEN]);
    expect(detail?.responseBody).not.toContain('9x8y7z');
    expect(JSON.stringify(JSON.parse(detail!.responseBody!))).not.toContain(TOKEN);
  });
});
