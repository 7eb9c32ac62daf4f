/**
 * A page's calls in flight, in either shell (IPC per window, WebSocket per socket): each call gets
 * an AbortSignal that reaches the client (a queued request is then never sent), a page may hold
 * only so many at once, and a page that goes away (socket closed, window reloaded) cancels them
 * all, so nothing keeps spending the vendor's budget for a page no one is looking at.
 * Pure: no electron import.
 */
import type { CallResult } from '../../shared/bridge/contract';

/** Far above what the dashboard needs (a few queries per view), far below a flood. */
export const MAX_CALLS_IN_FLIGHT = 64;

export class CallsInFlight {
  private readonly calls = new Map<number, AbortController>();

  constructor(private readonly cap = MAX_CALLS_IN_FLIGHT) {}

  get size(): number {
    return this.calls.size;
  }

  /** The signal of a new call, or null when the page already has `cap` calls in flight (or reuses an id). */
  begin(id: number): AbortSignal | null {
    if (this.calls.size >= this.cap || this.calls.has(id)) return null;
    const controller = new AbortController();
    this.calls.set(id, controller);
    return controller.signal;
  }

  end(id: number): void {
    this.calls.delete(id);
  }

  /** The page no longer wants this call; unknown ids (already answered) are ignored. */
  cancel(id: number): void {
    this.calls.get(id)?.abort();
    this.calls.delete(id);
  }

  /** The page is gone: every call it made is abandoned. */
  cancelAll(): void {
    for (const controller of this.calls.values()) controller.abort();
    this.calls.clear();
  }
}

export function tooManyCalls(cap = MAX_CALLS_IN_FLIGHT): CallResult<never> {
  return {
    ok: false,
    error: {
      code: 'BAD_REQUEST',
      message: `Too many calls in flight from this page (${cap}); nothing was sent.`,
      retryable: true,
      hint: 'Wait for answers before asking again.',
    },
  };
}
