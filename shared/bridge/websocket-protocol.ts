/**
 * Browser mode's wire protocol over a WebSocket (the desktop app uses IPC instead).
 *
 * The server prints one URL, `http://127.0.0.1:PORT/#secret=S`; the secret rides in the fragment so it
 * never reaches a server log. The page reads it and connects to `ws://127.0.0.1:PORT/bridge?secret=S`.
 * The server refuses a missing or wrong secret and any Origin other than its own.
 */
import { z } from 'zod';

export const WEB_BRIDGE_PATH = '/bridge';
export const SECRET_FRAGMENT_KEY = 'secret';

export const clientMessageSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('call'),
    id: z.number().int().nonnegative(),
    name: z.string(),
    request: z.unknown(),
  }),
  /** The page no longer wants call `id` (a superseded search, a page left): the server aborts it. */
  z.object({ t: z.literal('cancel'), id: z.number().int().nonnegative() }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export type ServerMessage =
  | { t: 'result'; id: number; result: { ok: true; value: unknown } | { ok: false; error: unknown } }
  | { t: 'event'; name: string; payload: unknown }
  /** A message the server could not read; id when it could tell which call it was. */
  | { t: 'error'; id: number | null; message: string };
