/** One handler per call of the contract; the mapped type makes TypeScript refuse a missing one. */
import type { z } from 'zod';
import type { CallName, CallResponse, Calls } from '../../../shared/bridge/contract';

/** The request after the contract's schema parsed it (defaults applied). */
export type ParsedRequest<N extends CallName> = z.output<Calls[N]['request']>;

/** What a handler gets besides the request: the page's cancellation (pass `signal` to the client). */
export interface CallContext {
  signal?: AbortSignal;
}

export type CallHandler<N extends CallName> = (request: ParsedRequest<N>, call?: CallContext) => Promise<CallResponse<N>>;

export type CallHandlers = { [N in CallName]: CallHandler<N> };

/** A group of handlers by concern; the composition root spreads them into one CallHandlers. */
export type HandlerGroup<K extends CallName> = { [N in K]: CallHandler<N> };
