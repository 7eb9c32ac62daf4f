/**
 * HAR over the bridge: the Requests view's export (its filter passed whole; main builds the file) and
 * the simulator panel's replay of a HAR file through the app's own client into the built-in simulator.
 */
import { z } from 'zod';
import { ENDPOINT_IDS } from '../endpoints';
import { harReplayInputSchema } from '../har-replay';
import { logFilterSchema } from '../request-log-filter';
import { profileScoped } from './profile-scoped';

const none = z.object({}).strict();

export const harExportSchema = z.object({
  fileName: z.string(),
  /** The HAR 1.2 file's text, tokens masked. */
  text: z.string(),
  entries: z.number().int(),
  /** Entries whose headers and bodies the bounded log no longer held. */
  withoutDetail: z.number().int(),
});

const replayEndpointSchema = z.object({
  endpoint: z.enum(ENDPOINT_IDS),
  /** Requests of the HAR for this endpoint. */
  planned: z.number().int(),
  /** Handed to the client so far. */
  sent: z.number().int(),
  /** Calls that ended with an answer the client took as success, and the others. */
  ok: z.number().int(),
  failed: z.number().int(),
  /** Attempts the client made (its own retries included), and how many of them got 429. */
  attempts: z.number().int(),
  rateLimited: z.number().int(),
});

export const replayStatusSchema = z.object({
  state: z.enum(['running', 'done', 'stopped']),
  startedAt: z.number(),
  /** From the HAR's first request to its last one's start. */
  durationMs: z.number(),
  planned: z.number().int(),
  sent: z.number().int(),
  finished: z.number().int(),
  /** Left out: other URLs, the recording client's own retries, and requests whose body was recorded cut. */
  skipped: z.object({ notAnEndpoint: z.number().int(), retries: z.number().int(), bodyCut: z.number().int() }),
  endpoints: z.array(replayEndpointSchema),
});

export const harCalls = {
  /** The request log, filtered as the Requests view shows it, as a HAR 1.2 file. */
  requestLogHar: { request: logFilterSchema, response: harExportSchema },
  /** Replays a HAR (read by shared/har-replay.ts) as the shown demo profile's vendor into the built-in simulator; NOT_FOUND off the demo, CONFLICT while one runs. */
  simReplayHar: { request: z.object({ har: harReplayInputSchema }).extend(profileScoped.shape), response: replayStatusSchema },
  simReplayStatus: { request: none, response: replayStatusSchema.nullable() },
  simReplayStop: { request: none, response: replayStatusSchema.nullable() },
};
