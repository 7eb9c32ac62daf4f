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

export type Invoke = (name: CallName, request: unknown) => Promise<CallResult<unknown>>;
export type Subscribe = (name: EventName, listener: (payload: unknown) => void) => () => void;

type EventKey<N extends string> = `on${Capitalize<N>}`;

type EventSubscriptions = {
  [N in EventName as EventKey<N>]: (listener: (payload: EventPayload<N>) => void) => () => void;
};

export type PartnerBridge = {
  [N in CallName]: (request: CallRequest<N>) => Promise<CallResult<CallResponse<N>>>;
} & EventSubscriptions;

export type PartnerApi = {
  [N in CallName]: (request: CallRequest<N>) => Promise<CallResponse<N>>;
} & EventSubscriptions;

export function eventKey<N extends EventName>(name: N): EventKey<N> {
  return `on${name.charAt(0).toUpperCase()}${name.slice(1)}` as EventKey<N>;
}

export function createPartnerBridge(invoke: Invoke, subscribe: Subscribe): PartnerBridge {
  const bridge: Record<string, unknown> = {};
  for (const name of CALL_NAMES) bridge[name] = (request: unknown) => invoke(name, request ?? {});
  for (const name of EVENT_NAMES) {
    bridge[eventKey(name)] = (listener: (payload: unknown) => void) => subscribe(name, listener);
  }
  return Object.freeze(bridge) as PartnerBridge;
}

export function toPartnerApi(bridge: PartnerBridge): PartnerApi {
  const api: Record<string, unknown> = {};
  const wire = bridge as unknown as Record<string, (arg: unknown) => unknown>;
  for (const name of CALL_NAMES) {
    api[name] = async (request: unknown) => {
      const result = (await wire[name]!(request)) as CallResult<unknown>;
      if (result.ok) return result.value;
      throw new PartnerError(result.error);
    };
  }
  for (const name of EVENT_NAMES) api[eventKey(name)] = wire[eventKey(name)];
  return Object.freeze(api) as PartnerApi;
}
