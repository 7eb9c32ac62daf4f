/**
 * searchRequestLog (the Requests view's text search, over the bodies only main keeps) and
 * copyCurlWithToken: the logged request as curl with the real token, written to the clipboard here,
 * so that the token never crosses the bridge. The log holds only the masked token; the plain one is
 * the known token whose masked form is the one logged (refused when two known tokens look alike).
 */
import { PartnerError } from '../../../shared/errors';
import { curlRefusal, toCurl } from '../../../shared/curl';
import { maskToken } from '../../profiles/mask-token';
import type { AppContext } from './context';
import type { HandlerGroup } from './types';

function refuse(code: 'NOT_FOUND' | 'BAD_REQUEST', message: string, hint?: string): PartnerError {
  return new PartnerError({ code, message, ...(hint ? { hint } : {}), retryable: false });
}

export function curlHandlers(ctx: AppContext): HandlerGroup<'searchRequestLog' | 'copyCurlWithToken'> {
  return {
    searchRequestLog: async ({ text }) => ctx.telemetry.searchRequestLog(text),
    async copyCurlWithToken({ requestId }) {
      const write = ctx.env.writeClipboard;
      if (!write) {
        throw refuse('NOT_FOUND', 'Copy with token is only in the desktop app.', 'Use Copy as curl and set PARTNER_TOKEN in your shell.');
      }
      const detail = ctx.telemetry.requestDetail(requestId);
      if (!detail) throw refuse('NOT_FOUND', `The request log no longer holds entry ${requestId}.`);
      const refusal = curlRefusal(detail);
      if (refusal) throw refuse('BAD_REQUEST', refusal);
      const at = detail.tokenHeader;
      if (!at) throw refuse('BAD_REQUEST', 'This request carried no token the app knows.', 'Use Copy as curl.');
      const logged = detail.requestHeaders[at.header] ?? '';
      const masked = at.scheme === null ? logged : logged.slice(at.scheme.length + 1);
      const known = [...new Set([...ctx.store.knownTokens(), ...ctx.demo.tokens()])];
      const matches = known.filter((t) => maskToken(t) === masked);
      if (matches.length !== 1) {
        throw refuse(
          'BAD_REQUEST',
          matches.length === 0
            ? 'The token this request used is no longer known to the app.'
            : 'Two known tokens look alike: the app cannot tell which one this request used.',
          'Use Copy as curl and set PARTNER_TOKEN yourself.',
        );
      }
      const command = toCurl(
        { method: detail.method, origin: detail.origin, target: detail.target, headers: detail.requestHeaders, body: detail.requestBody, tokenHeader: at },
        { kind: 'plain', token: matches[0]! },
      );
      write(command);
      return { ok: true as const, tokenHeader: at.header };
    },
  };
}
