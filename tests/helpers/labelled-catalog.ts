/**
 * A small catalog service on loopback whose item titles name the token that asked ("tok-A 3"), so a file
 * shows whose catalog each line came from; `refuse` makes every request a 401 (a start that fails at once), `refuseAfter` the later ones.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LabelledCatalog {
  url: string;
  /** Requests answered so far. */
  requests: number;
  /** While true, every request gets 401. */
  refuse: boolean;
  /** Requests after this many get 401 (a run that stops after its first pages). */
  refuseAfter: number;
  close(): Promise<void>;
}

export async function labelledCatalog(total: number): Promise<LabelledCatalog> {
  const state = { requests: 0, refuse: false, refuseAfter: Infinity };
  const server = createServer((req, res) => {
    state.requests += 1;
    const url = new URL(req.url ?? '/', 'http://x');
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    const refused = state.refuse || state.requests > state.refuseAfter;
    if (refused || url.pathname !== '/assets/list') {
      res.writeHead(refused ? 401 : 404, { 'content-type': 'application/json' }).end('{"error":"no"}');
      return;
    }
    const from = Number(url.searchParams.get('last_id') ?? 0);
    const size = Number(url.searchParams.get('per-page') ?? 10);
    const ids = Array.from({ length: size }, (_, i) => from + i + 1).filter((id) => id <= total);
    const last = ids[ids.length - 1] ?? null;
    const body = { items: ids.map((id) => ({ id, title: `${token} ${id}` })), last_id: last, has_more: last !== null && last < total, total };
    res.writeHead(200, { 'content-type': 'application/json', 'x-rate-limit-limit': '50', 'x-rate-limit-remaining': '49', 'x-rate-limit-reset': '0' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
