/**
 * The services over WebSockets: each accepted socket may call, and every socket gets every event.
 * Sockets reach this only after the upgrade check (secret and Origin) in server.ts. A socket's calls
 * are capped, cancellable one by one ({t:'cancel', id}), and all cancelled when it closes.
 */
import { WebSocket } from 'ws';
import type { RawData } from 'ws';
import type { EventName } from '../../shared/bridge/contract';
import { toErrorData } from '../../shared/errors';
import type { AppServices } from '../app';
import { checkCall } from '../shell/call-gate';
import { CallsInFlight, tooManyCalls } from '../shell/calls-in-flight';
import type { ShellLog } from '../shell/log';
import { errorMessage, eventMessage, parseClientMessage, resultMessage } from './protocol';
import type { ServerMessage } from './protocol';

/**
 * A page that stops reading (a frozen tab) is cut off once this much is queued for it on top of the
 * answers it asked for. Answers count only past MAX_EXEMPT_ANSWER_BYTES: one alone may be bigger
 * than this (a whole-log HAR), and a page that reads drains it while events keep coming; a page that
 * does not read still piles up events, or answers to calls it keeps making, until it passes this.
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Queued answer bytes not held against a page: well above the largest answer (a whole-log HAR: some 20 MiB at most). */
const MAX_EXEMPT_ANSWER_BYTES = 64 * 1024 * 1024;

export interface WsBridge {
  accept(socket: WebSocket): void;
  readonly clientCount: number;
  /** Closes every socket (1001 going away) and drops the event subscription; idempotent. */
  close(): void;
}

export function createWsBridge(services: Pick<AppServices, 'dispatch' | 'onEvent'>, log: ShellLog): WsBridge {
  const clients = new Set<WebSocket>();
  const calls = new WeakMap<WebSocket, CallsInFlight>();

  /** Bytes of answers (results, errors) handed to each socket and not yet written out. */
  const answerBytesQueued = new WeakMap<WebSocket, number>();

  const send = (socket: WebSocket, message: ServerMessage) => {
    if (socket.readyState !== WebSocket.OPEN) return;
    const exempt = Math.min(answerBytesQueued.get(socket) ?? 0, MAX_EXEMPT_ANSWER_BYTES);
    if (socket.bufferedAmount - exempt > MAX_BUFFERED_BYTES) {
      log('a page stopped reading its socket; closing it');
      socket.terminate();
      return;
    }
    let text: string;
    try {
      text = JSON.stringify(message);
    } catch (error) {
      log('could not serialise a message', error);
      return;
    }
    const answerBytes = message.t === 'event' ? 0 : Buffer.byteLength(text);
    answerBytesQueued.set(socket, (answerBytesQueued.get(socket) ?? 0) + answerBytes);
    socket.send(text, (error) => {
      answerBytesQueued.set(socket, (answerBytesQueued.get(socket) ?? 0) - answerBytes);
      if (error) log('send failed', error.message);
    });
  };

  const unsubscribe = services.onEvent((name: EventName, payload: unknown) => {
    if (clients.size === 0) return;
    const message = eventMessage(name, payload);
    for (const socket of clients) send(socket, message);
  });

  async function onMessage(socket: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    if (isBinary) return send(socket, errorMessage(null, 'Binary frames are not accepted: send JSON text.'));
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    const parsed = parseClientMessage(text);
    if (!parsed.ok) return send(socket, errorMessage(parsed.id, parsed.message));
    const inFlight = calls.get(socket);
    if (!inFlight) return;
    if (parsed.message.t === 'cancel') return inFlight.cancel(parsed.message.id);
    const { id, name, request } = parsed.message;
    const gate = checkCall(name, request);
    if (!gate.ok) return send(socket, resultMessage(id, gate.result));
    const signal = inFlight.begin(id);
    if (signal === null) return send(socket, resultMessage(id, tooManyCalls()));
    let result;
    try {
      result = await services.dispatch(gate.name, request ?? {}, signal);
    } catch (error) {
      log(`dispatch of ${name} threw`, error);
      result = { ok: false as const, error: toErrorData(error) };
    } finally {
      inFlight.end(id);
    }
    send(socket, resultMessage(id, result));
  }

  /** The socket is gone: its calls are abandoned (queued ones are never sent). */
  function forget(socket: WebSocket): void {
    clients.delete(socket);
    calls.get(socket)?.cancelAll();
    calls.delete(socket);
  }

  let closed = false;
  return {
    accept(socket) {
      if (closed) {
        socket.close(1001, 'server stopping');
        return;
      }
      clients.add(socket);
      calls.set(socket, new CallsInFlight());
      socket.on('message', (data, isBinary) => {
        onMessage(socket, data, isBinary).catch((error: unknown) => log('message handling failed', error));
      });
      socket.on('close', () => forget(socket));
      socket.on('error', (error) => {
        // e.g. a frame over maxPayload: ws closes the socket with 1009 itself; nothing else to do.
        log('socket error', error.message);
        forget(socket);
      });
    },
    get clientCount() {
      return clients.size;
    },
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const socket of clients) {
        socket.close(1001, 'server stopping');
        forget(socket);
      }
    },
  };
}
