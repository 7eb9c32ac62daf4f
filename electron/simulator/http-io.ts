/** Small HTTP helpers: JSON answers in the service's error shape, Accept negotiation, body reading. */
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HeaderBag } from './faults';

export const JSON_TYPE = 'application/json; charset=UTF-8';
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ErrorBody {
  name: string;
  message: string;
  code: 0;
  status: number;
}

export function statusText(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

/** The service's error body: {"name": <status text>, "message", "code": 0, "status"}. */
export function errorBody(status: number, message: string): ErrorBody {
  return { name: statusText(status), message, code: 0, status };
}

/** Writes a JSON answer with an explicit Date (Node's cached Date header can lag a second behind). */
export function sendJson(res: ServerResponse, status: number, body: unknown, dateMs: number, headers: HeaderBag = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  headers['Content-Type'] = JSON_TYPE;
  headers['Content-Length'] = String(Buffer.byteLength(text));
  headers['Date'] = new Date(dateMs).toUTCString();
  res.writeHead(status, statusText(status), headers);
  res.end(text);
}

/**
 * Does the Accept header admit a JSON answer? Missing or empty: yes. Otherwise some media range
 * among application/json, application/* and * / * must have q > 0.
 */
export function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';');
    const t = type.trim().toLowerCase();
    if (t !== 'application/json' && t !== '*/*' && t !== 'application/*') continue;
    let q = 1;
    for (const p of params) {
      const [k = '', v = ''] = p.split('=');
      if (k.trim().toLowerCase() === 'q') q = Number(v.trim());
    }
    if (q > 0) return true;
  }
  return false;
}

export type BodyResult = { ok: true; text: string } | { ok: false; reason: 'too-large' | 'aborted' };

/** Reads the whole body (discarding beyond MAX_BODY_BYTES so the connection stays usable). */
export function readBody(req: IncomingMessage): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? { ok: false, reason: 'too-large' } : { ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => resolve({ ok: false, reason: 'aborted' }));
    req.on('close', () => {
      if (!req.complete) resolve({ ok: false, reason: 'aborted' });
    });
  });
}
