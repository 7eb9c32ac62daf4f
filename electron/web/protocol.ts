/**
 * Browser mode's bridge protocol, server side. The message types live in
 * shared/bridge/websocket-protocol.ts so the page's transport and this server read one definition;
 * this file re-exports them and adds what only the server needs.
 *
 * The contract with the page (renderer/api transport):
 *
 * 1. `npm run web` prints ONE URL: `Partner Console (browser mode): http://127.0.0.1:PORT/#secret=S`.
 *    S is fresh per run (32 random bytes, base64url). It rides in the fragment, so the browser never
 *    sends it in a request line and it never reaches a log.
 * 2. The page reads S from `location.hash` (key `secret`, see SECRET_FRAGMENT_KEY), should keep it in
 *    sessionStorage (a reload then still works) and remove it from the address bar with
 *    history.replaceState, then opens `ws://${location.host}/bridge?secret=${encodeURIComponent(S)}`.
 * 3. The server refuses the upgrade (plain HTTP answer, no WebSocket) with 401 when the secret is
 *    missing or wrong, 403 when the Origin header is not the server's own http origin, 404 for any
 *    other path. A refused socket fires `error` then `close` (code 1006) in the page: show "This
 *    browser-mode session has ended or the link is stale: run `npm run web` again and open the new URL".
 * 4. Calls: the page sends `{t:'call', id, name, request}` (id: a non-negative integer, unique per
 *    socket) and gets `{t:'result', id, result}` where result is a CallResult (`{ok:true,value}` or
 *    `{ok:false,error:ErrorData}`), exactly what window.partner's functions resolve to in the desktop app.
 *    Results may arrive in any order.
 * 5. Events: `{t:'event', name, payload}` for every contract event, batched by the services
 *    (<= ~20 messages per second per event name). Every connected page gets every event.
 * 6. A message the server cannot read (not JSON, not a call, binary) gets
 *    `{t:'error', id, message}` (id when it could tell which call it was, else null); the socket stays open.
 *    A frame over 1 MiB closes the socket (code 1009).
 * 7. If the socket closes, pending calls should resolve to `{ok:false, error:{code:'NETWORK', …}}` in the page.
 * 8. `{t:'cancel', id}` aborts call `id` (its answer is CANCELLED); closing the socket aborts all its
 *    calls; a socket may have at most MAX_CALLS_IN_FLIGHT calls unanswered (more are BAD_REQUEST).
 */
import type { CallResult } from '../../shared/bridge/contract';
import { clientMessageSchema } from '../../shared/bridge/websocket-protocol';
import { MAX_HAR_BYTES } from '../../shared/har-replay';
import type { ClientMessage, ServerMessage } from '../../shared/bridge/websocket-protocol';

export { SECRET_FRAGMENT_KEY, WEB_BRIDGE_PATH, clientMessageSchema } from '../../shared/bridge/websocket-protocol';
export type { ClientMessage, ServerMessage } from '../../shared/bridge/websocket-protocol';

/** stdout's line with the URL starts with this (tests and scripts parse it). */
export const URL_LINE_PREFIX = 'Partner Console (browser mode): ';
/** The query parameter of the WebSocket URL that carries the secret. */
export const SECRET_QUERY_KEY = 'secret';
/** Largest message accepted from a page: the largest call is a HAR file's requests for a replay (within MAX_HAR_BYTES). */
export const MAX_CLIENT_MESSAGE_BYTES = MAX_HAR_BYTES + 1024 * 1024;

export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; id: number | null; message: string };

/** Reads one text frame from a page; never throws. */
export function parseClientMessage(text: string): ParsedClientMessage {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, id: null, message: 'Not JSON: send {"t":"call","id":N,"name":…,"request":…}.' };
  }
  const parsed = clientMessageSchema.safeParse(data);
  if (parsed.success) return { ok: true, message: parsed.data };
  const rawId = typeof data === 'object' && data !== null ? (data as { id?: unknown }).id : undefined;
  const id = typeof rawId === 'number' && Number.isInteger(rawId) && rawId >= 0 ? rawId : null;
  const problems = parsed.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : 'message'}: ${issue.message}`)
    .join('; ');
  return { ok: false, id, message: `Not a call message (${problems}): send {"t":"call","id":N,"name":…,"request":…}.` };
}

export function resultMessage(id: number, result: CallResult<unknown>): ServerMessage {
  return { t: 'result', id, result };
}

export function eventMessage(name: string, payload: unknown): ServerMessage {
  return { t: 'event', name, payload };
}

export function errorMessage(id: number | null, message: string): ServerMessage {
  return { t: 'error', id, message };
}
