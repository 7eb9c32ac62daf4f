/**
 * Browser mode's transport: the protocol of shared/bridge/websocket-protocol.ts over one WebSocket,
 * reconnected with backoff when it drops. Calls in flight when it drops resolve to a NETWORK error,
 * or UNKNOWN_OUTCOME for a call the contract marks not idempotent (as data, like every other failure
 * that crosses the bridge). A call may be cancelled (`cancel(callId)`): the server aborts it.
 *
 * A browser cannot see why an upgrade failed: a refused secret (HTTP 401/403) and a stopped server
 * both arrive as a close without an open. After a few of those in a row the link asks whether the
 * server still answers HTTP; if it does, the secret is the problem and the link stops retrying and
 * says so, instead of knocking on the door every few seconds forever.
 */
import { isIdempotent } from '../../../shared/bridge/contract';
import type { CallName, CallResult, EventName } from '../../../shared/bridge/contract';
import type { ClientMessage, ServerMessage } from '../../../shared/bridge/websocket-protocol';
import type { ErrorData } from '../../../shared/errors';
import type { LinkSource, LinkStatus } from './link-status';

type Result = CallResult<unknown>;

export interface WebSocketLinkOptions {
  url: string;
  /** Injected for tests; defaults to the browser's. */
  createSocket?: (url: string) => WebSocket;
  random?: () => number;
  /** How long a call made while (re)connecting waits for the socket before failing. */
  connectWaitMs?: number;
  /**
   * Whether the server still answers plain HTTP, asked after sockets keep closing before they open.
   * True means the upgrade itself was refused (the secret). Without it, such closes count as refusals.
   */
  serverAnswers?: () => Promise<boolean>;
}

export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 30_000;
/** Closes without an open, in a row, before the link asks whether the secret is the problem. */
export const REFUSALS_BEFORE_CHECK = 3;

export const SECRET_REFUSED_PROBLEM = "This page's secret is no longer valid: open the URL that `npm run web` printed.";
const UNREACHABLE_PROBLEM =
  'Could not reach the Partner Console service. If this browser-mode session has ended or the link is stale, run `npm run web` again and open the new URL.';

/** WebSocket.OPEN, spelled out so the class also loads where there is no global WebSocket (Node 20 tests). */
const SOCKET_OPEN = 1;

export class WebSocketLink implements LinkSource {
  private socket: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { name: CallName; resolve: (r: Result) => void }>();
  /** Calls the page may cancel: its call id -> the message id once sent (null while waiting to send). */
  private readonly cancellable = new Map<number, number | null>();
  private readonly waitingForOpen = new Set<() => void>();
  private readonly eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly statusListeners = new Set<() => void>();
  private status: LinkStatus = { state: 'connecting', retryAt: null, problem: null, refused: false };
  private failures = 0;
  /** Sockets in a row that closed without ever opening. */
  private closedBeforeOpen = 0;
  /** Counts connect() calls, so that a late server check for an earlier attempt is ignored. */
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly createSocket: (url: string) => WebSocket;
  private readonly random: () => number;
  private readonly connectWaitMs: number;

  constructor(private readonly options: WebSocketLinkOptions) {
    this.createSocket = options.createSocket ?? ((url) => new WebSocket(url));
    this.random = options.random ?? Math.random;
    this.connectWaitMs = options.connectWaitMs ?? 10_000;
    this.serverAnswers = options.serverAnswers ?? (() => Promise.resolve(true));
  }
  private readonly serverAnswers: () => Promise<boolean>;

  start(): void {
    this.connect();
  }

  get = (): LinkStatus => this.status;

  subscribe = (listener: () => void): (() => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  retryNow = (): void => {
    if (this.status.state !== 'offline' || this.closed) return;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.connect();
  };

  invoke = async (name: CallName, request: unknown, callId?: number): Promise<Result> => {
    if (callId !== undefined) this.cancellable.set(callId, null);
    if (this.status.state === 'connecting') await this.waitForOpen();
    const socket = this.socket;
    if (callId !== undefined && !this.cancellable.has(callId)) return { ok: false, error: cancelledError(name) };
    if (!socket || socket.readyState !== SOCKET_OPEN) {
      if (callId !== undefined) this.cancellable.delete(callId);
      return { ok: false, error: offlineError(name, this.status.refused) };
    }
    const id = this.nextId++;
    const message: ClientMessage = { t: 'call', id, name, request };
    return new Promise<Result>((resolve) => {
      const settle = (result: Result) => {
        if (callId !== undefined) this.cancellable.delete(callId);
        resolve(result);
      };
      this.pending.set(id, { name, resolve: settle });
      if (callId !== undefined) this.cancellable.set(callId, id);
      try {
        socket.send(JSON.stringify(message));
      } catch {
        this.pending.delete(id);
        settle({ ok: false, error: offlineError(name, false) });
      }
    });
  };

  /** The page no longer wants the call: the server aborts it, and the caller is answered CANCELLED at once. */
  cancel = (callId: number): void => {
    if (!this.cancellable.has(callId)) return;
    const id = this.cancellable.get(callId);
    this.cancellable.delete(callId);
    if (id === null || id === undefined) return; // not sent yet: invoke sees it is gone and sends nothing
    const call = this.pending.get(id);
    this.pending.delete(id);
    const socket = this.socket;
    if (socket && socket.readyState === SOCKET_OPEN) {
      const message: ClientMessage = { t: 'cancel', id };
      try {
        socket.send(JSON.stringify(message));
      } catch {
        // The socket is going: the server cancels everything of it anyway.
      }
    }
    call?.resolve({ ok: false, error: cancelledError(call.name) });
  };

  on = (name: EventName, listener: (payload: unknown) => void): (() => void) => {
    let set = this.eventListeners.get(name);
    if (!set) this.eventListeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  };

  close(): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.socket?.close();
  }

  private connect(): void {
    this.attempt++;
    this.setStatus({ state: 'connecting', retryAt: null, problem: null, refused: false });
    let socket: WebSocket;
    try {
      socket = this.createSocket(this.options.url);
    } catch (e) {
      this.dropped(`Could not open the connection: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      this.failures = 0;
      this.closedBeforeOpen = 0;
      this.setStatus({ state: 'open', retryAt: null, problem: null, refused: false });
      for (const wake of [...this.waitingForOpen]) wake();
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (!opened) {
        // A refused upgrade (wrong secret, stale link) and a stopped server look the same from here.
        this.closedBeforeOpen++;
        this.dropped(UNREACHABLE_PROBLEM);
        return;
      }
      this.dropped(event.code === 1009 ? 'The connection was closed: a message was too large.' : 'The connection to the Partner Console service dropped.');
    };
  }

  private dropped(problem: string): void {
    // Calls in flight cannot be answered any more: their outcome is unknown to us.
    for (const [id, call] of this.pending) {
      this.pending.delete(id);
      call.resolve({ ok: false, error: droppedError(call.name) });
    }
    if (this.closed) return;
    const delay = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** this.failures) * (0.5 + this.random() / 2);
    this.failures = Math.min(this.failures + 1, 10);
    if (this.closedBeforeOpen < REFUSALS_BEFORE_CHECK) {
      this.scheduleReconnect(delay, problem);
      return;
    }
    // Offline without a retry time while we find out whether retrying can help at all.
    this.setStatus({ state: 'offline', retryAt: null, problem, refused: false });
    for (const wake of [...this.waitingForOpen]) wake();
    const attempt = this.attempt;
    const settle = (answers: boolean) => {
      if (this.closed || this.attempt !== attempt || this.reconnectTimer) return;
      if (answers) this.setStatus({ state: 'offline', retryAt: null, problem: SECRET_REFUSED_PROBLEM, refused: true });
      else this.scheduleReconnect(delay, problem);
    };
    this.serverAnswers().then(settle, () => settle(false));
  }

  private scheduleReconnect(delay: number, problem: string): void {
    this.setStatus({ state: 'offline', retryAt: Date.now() + delay, problem, refused: false });
    for (const wake of [...this.waitingForOpen]) wake();
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect();
    }, delay);
  }

  private waitForOpen(): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waitingForOpen.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, this.connectWaitMs);
      this.waitingForOpen.add(wake);
    });
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return; // Not ours to crash on; the server only sends JSON.
    }
    if (message.t === 'event') {
      const listeners = this.eventListeners.get(message.name);
      if (!listeners) return;
      for (const listener of [...listeners]) {
        try {
          listener(message.payload);
        } catch (e) {
          console.error(`listener of ${message.name} failed`, e);
        }
      }
    } else if (message.t === 'result') {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      call.resolve(message.result as Result);
    } else if (message.t === 'error') {
      const call = message.id === null ? undefined : this.pending.get(message.id);
      if (!call || message.id === null) {
        console.warn('bridge error', message.message);
        return;
      }
      this.pending.delete(message.id);
      call.resolve({ ok: false, error: { code: 'INTERNAL', message: message.message, retryable: false } });
    }
  }

  private setStatus(status: LinkStatus): void {
    this.status = status;
    for (const listener of [...this.statusListeners]) listener();
  }
}

function offlineError(name: CallName, refused: boolean): ErrorData {
  return {
    code: 'NETWORK',
    message: 'Not connected to the Partner Console service; nothing was sent.',
    retryable: true,
    hint: refused ? SECRET_REFUSED_PROBLEM : `Wait for the connection to come back, then try ${name} again.`,
  };
}

function cancelledError(name: CallName): ErrorData {
  return { code: 'CANCELLED', message: `${name} was cancelled.`, retryable: true };
}

/** A call that is not idempotent (the contract says) may have happened: say so instead of inviting a second one. */
function droppedError(name: CallName): ErrorData {
  if (!isIdempotent(name)) {
    return {
      code: 'UNKNOWN_OUTCOME',
      message: 'The connection to the Partner Console service dropped before the answer arrived.',
      retryable: false,
      hint: 'It may or may not have gone through. Check the session purchases (Purchase info) before registering again.',
    };
  }
  return {
    code: 'NETWORK',
    message: 'The connection to the Partner Console service dropped before the answer arrived.',
    retryable: true,
    hint: 'Safe to try again once the connection is back.',
  };
}
