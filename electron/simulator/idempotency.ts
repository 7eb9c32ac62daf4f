/**
 * A mode that honours idempotency keys on registration (off by default: the service's spec promises
 * none). A POST /purchase/register with an Idempotency-Key header is done once per vendor and key:
 * a replay gets the first answer again; one that arrives while the first is in flight gets 409; the
 * key with another request body gets 422 (as the IETF httpapi draft says). The key is claimed when
 * the request arrives, before any simulated latency, so that "in flight" spans its whole handling.
 * An attempt whose action never ran (a 429, a 5xx fault, a 4xx validation failure, a client gone early) frees the key again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActionResult } from './actions';
import { errorBody } from './http-io';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Keys remembered per simulator, oldest forgotten first: a day of demo traffic must not grow without bound. */
export const MAX_IDEMPOTENCY_KEYS = 10_000;

type Entry = { state: 'in-flight'; owner: IncomingMessage } | { state: 'done'; answer: ActionResult; request: string };

function keyOf(req: IncomingMessage): string | null {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  const key = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return key ? key : null;
}

export class IdempotencyBook {
  private readonly entries = new Map<string, Entry>();
  /** Requests that arrived while another with their key was in flight: they get 409, whenever they are answered. */
  private readonly arrivedInFlight = new WeakSet<IncomingMessage>();

  constructor(readonly enabled: boolean) {}

  /** On arrival of a registration: claims its key for this request when no one holds it. */
  arrive(req: IncomingMessage, res: ServerResponse, vendor: string | undefined): void {
    const key = this.enabled && vendor !== undefined ? keyOf(req) : null;
    if (key === null) return;
    const scoped = `${vendor}\n${key}`;
    const entry = this.entries.get(scoped);
    if (entry === undefined) this.remember(scoped, { state: 'in-flight', owner: req });
    else if (entry.state === 'in-flight') this.arrivedInFlight.add(req);
    // Answered without the action, or the client left: the key is free again.
    res.once('close', () => {
      const entry = this.entries.get(scoped);
      if (entry?.state === 'in-flight' && entry.owner === req) this.entries.delete(scoped);
    });
  }

  /** After the limiter: what a keyed registration gets instead of running (replay, 409, 422), or null to run it. */
  answerFor(req: IncomingMessage, vendor: string, request: string): ActionResult | null {
    const key = this.enabled ? keyOf(req) : null;
    if (key === null) return null;
    const scoped = `${vendor}\n${key}`;
    const entry = this.entries.get(scoped);
    if (this.arrivedInFlight.has(req) || (entry?.state === 'in-flight' && entry.owner !== req)) {
      return { status: 409, body: errorBody(409, `A request with this Idempotency-Key is still being processed: ${key}.`) };
    }
    if (entry === undefined) {
      this.remember(scoped, { state: 'in-flight', owner: req });
      return null;
    }
    if (entry.state === 'in-flight') return null;
    if (entry.request !== request) return { status: 422, body: errorBody(422, `This Idempotency-Key was used with another request: ${key}.`) };
    return entry.answer;
  }

  /**
   * The request was handled: an action that ran makes its answer the key's from now on. A 4xx
   * (a validation failure before the action) is not kept and frees the key, as Stripe does: a
   * corrected request with the same key then runs.
   */
  settle(req: IncomingMessage, vendor: string, request: string, answer: ActionResult): void {
    const key = this.enabled ? keyOf(req) : null;
    if (key === null) return;
    const scoped = `${vendor}\n${key}`;
    const entry = this.entries.get(scoped);
    if (entry?.state !== 'in-flight' || entry.owner !== req) return;
    if (answer.status >= 400 && answer.status < 500) this.entries.delete(scoped);
    else this.entries.set(scoped, { state: 'done', answer, request });
  }

  clear(): void {
    this.entries.clear();
  }

  private remember(scoped: string, entry: Entry): void {
    this.entries.set(scoped, entry);
    if (this.entries.size > MAX_IDEMPOTENCY_KEYS) this.entries.delete(this.entries.keys().next().value as string);
  }
}
