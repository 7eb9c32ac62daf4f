/**
 * A loopback proxy in front of the simulator that can rewrite what passes (a hostile service made
 * from the honest one): `rewrite` may change a request's path+query before it is forwarded, and
 * `rewriteAnswer` the body of its answer before it is passed back.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';

/** Headers of one connection, not passed on. */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export interface ForwardProxy {
  url: string;
  close(): Promise<void>;
}

export interface Passing {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export async function startForwardProxy(
  target: string,
  rewrite: (req: Passing) => string = (req) => req.url,
  rewriteAnswer: (req: Passing, body: string) => string = (_req, body) => body,
): Promise<ForwardProxy> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const passing: Passing = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body };
        const url = rewrite(passing);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP_HEADERS.has(k)) headers[k] = v;
        const answer = await fetch(target + url, { method: req.method, headers, body: chunks.length ? body : undefined });
        const text = rewriteAnswer(passing, await answer.text());
        const out: Record<string, string> = {};
        answer.headers.forEach((v, k) => {
          if (!HOP_HEADERS.has(k)) out[k] = v;
        });
        res.writeHead(answer.status, out).end(text);
      })().catch(() => res.socket?.destroy());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
