/**
 * Builds the bridge objects from the contract, so that no side writes the API by hand.
 *
 * - `createPartnerBridge` makes the wire-level object: one named function per call that
 *   resolves to a CallResult (a value or plain error data), one `onX` per event. The preload
 *   exposes exactly this as `window.partner` (contextBridge copies Errors without their custom
 *   fields, so errors travel as data), and browser mode builds the same over a WebSocket.
 * - `toPartnerApi` turns a bridge into what the renderer's hooks call: the same names, resolving
 *   to the value or throwing a PartnerError that keeps its code and hint.
 */
import { PartnerError } from '../errors';
import type { CallName, CallRequest, CallResponse, CallResult, EventName, EventPayload } from './contract';
import { CALL_NAMES, EVENT_NAMES } from './contract';

/** `callId` (unique per page) names the call for a later `cancel(callId)`. */
export type Invoke = (name: CallName, request: unknown, callId?: number) => Promise<CallResult<unknown>>;
export type Subscribe = (name: EventName, listener: (payload: unknown) => void) => () => void;
/** The page no longer wants the call: main aborts it (a queued request is never sent). */
export type Cancel = (callId: number) => void;

/** What the renderer may pass with a call: react-query's signal, so a superseded query spends nothing. */
export interface CallOptions {
  signal?: AbortSignal;
}

type EventKey<N extends string> = `on${Capitalize<N>}`;

type EventSubscriptions = {
  [N in EventName as EventKey<N>]: (listener: (payload: EventPayload<N>) => void) => () => void;
};

export type PartnerBridge = {
  [N in CallName]: (request: CallRequest<N>, callId?: number) => Promise<CallResult<CallResponse<N>>>;
} & EventSubscriptions & { cancelCall: Cancel };

export type PartnerApi = {
  [N in CallName]: (request: CallRequest<N>, options?: CallOptions) => Promise<CallResponse<N>>;
} & EventSubscriptions;

export function eventKey<N extends EventName>(name: N): EventKey<N> {
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as EventKey<N>;
}

export function createPartnerBridge(invoke: Invoke, subscribe: Subscribe, cancel: Cancel = () => {}): PartnerBridge {
  const bridge: Record<string, unknown> = {};
  for (const name of CALL_NAMES)
    bridge[name] = (request: unknown, callId?: number) => invoke(name, request ?? {}, typeof callId === 'number' ? callId : undefined);
  bridge.cancelCall = (callId: number) => cancel(callId);
  for (const name of EVENT_NAMES) {
    bridge[eventKey(name)] = (listener: (payload: unknown) => void) => subscribe(name, listener);
  }
  return Object.freeze(bridge) as PartnerBridge;
}

export function toPartnerApi(bridge: PartnerBridge): PartnerApi {
  const api: Record<string, unknown> = {};
  const wire = bridge as unknown as Record<string, (arg: unknown, callId?: number) => unknown>;
  let nextCallId = 1;
  for (const name of CALL_NAMES) {
    api[name] = async (request: unknown, options?: CallOptions) => {
      const signal = options?.signal;
      if (signal?.aborted) throw new PartnerError({ code: 'CANCELLED', message: `${name} was cancelled before it was sent.`, retryable: true });
      const callId = nextCallId++;
      const onAbort = () => bridge.cancelCall(callId);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const result = (await wire[name]!(request, signal ? callId : undefined)) as CallResult<unknown>;
        if (result.ok) return result.value;
        throw new PartnerError(result.error);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    };
  }
  for (const name of EVENT_NAMES) api[eventKey(name)] = wire[eventKey(name)];
  return Object.freeze(api) as PartnerApi;
}
