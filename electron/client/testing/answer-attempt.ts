/** An answered Attempt record for tests that drive a bucket or a pacer without the client. */
import type { EndpointId } from '../../../shared/endpoints';
import type { RateLimitHeaders } from '../../../shared/rate-limit';
import { emptyWaitCauses } from '../../../shared/wait-causes';
import type { AnsweredAttempt } from '../attempt';
import type { Ticket } from '../header-model';

export interface AnswerFacts {
  ticket: Ticket;
  /** When the answer arrived (local clock). */
  at: number;
  status: number;
  rate: RateLimitHeaders;
  dateMs?: number | null;
  endpoint?: EndpointId;
}

export function answerAttempt(facts: AnswerFacts): AnsweredAttempt {
  const { ticket, at, status, rate } = facts;
  return {
    vendor: 'v',
    endpoint: facts.endpoint ?? 'listAssets',
    tokens: [],
    number: 1,
    priority: 'interactive',
    requestStartedAt: ticket.sentAt,
    ticket,
    sentAt: ticket.sentAt,
    receivedAt: at,
    wait: { ms: 0, causes: emptyWaitCauses() },
    result: { kind: 'answer', status, statusText: '', text: '', rate, dateMs: facts.dateMs ?? null, retryAfterMs: null },
  };
}
