/**
 * A service on loopback whose ids are snowflakes (64-bit, past 2^53), written as JSON number text
 * as real services do; optionally one deeply nested item. Pages by last_id (compared exactly),
 * records every last_id and registration body as the bytes it received.
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An id as the service writes it: a bigint as number text, a string as a JSON string. */
export type ServiceId = bigint | string;

export interface CatalogItemSpec {
  id: ServiceId;
  /** Raw JSON text added as the item's `deep` field. */
  deep?: string;
}

export interface SnowflakeService {
  url: string;
  /** Every last_id asked for, as received ('' for none). */
  lastIds: string[];
  /** Every POST /purchase/register body, as received. */
  registerBodies: string[];
  close(): Promise<void>;
}

const idText = (id: ServiceId): string => (typeof id === 'bigint' ? id.toString() : JSON.stringify(id));
const idKey = (id: ServiceId): bigint => (typeof id === 'bigint' ? id : BigInt(id));

/** Ids differing only past 2^53 (they round to the same double), and snowflakes. */
export const SNOWFLAKE_IDS: readonly bigint[] = [
  9007199254740992n,
  9007199254740993n,
  9007199254740994n,
  9007199254740995n,
  1234567890123456789n,
  1234567890123456790n,
  1234567890123456791n,
  1234567890123456800n,
];

/** `/assets/list` pages of `pageSize` items after last_id (ascending ids), and a register that echoes the asset id. */
export async function startSnowflakeService(items: readonly CatalogItemSpec[], pageSize = 3): Promise<SnowflakeService> {
  const sorted = [...items].sort((a, b) => (idKey(a.id) < idKey(b.id) ? -1 : 1));
  const lastIds: string[] = [];
  const registerBodies: string[] = [];
  let purchases = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    };
    if (req.method === 'GET' && url.pathname === '/assets/list') {
      const raw = url.searchParams.get('last_id');
      lastIds.push(raw ?? '');
      const after = raw === null ? null : BigInt(raw);
      const rest = sorted.filter((item) => after === null || idKey(item.id) > after);
      const page = rest.slice(0, pageSize);
      const body = page.map((item) => `{"id":${idText(item.id)},"title":"Asset ${String(item.id)}"${item.deep === undefined ? '' : `,"deep":${item.deep}`}}`);
      const last = page[page.length - 1];
      send(200, `{"items":[${body.join(',')}],"last_id":${last ? idText(last.id) : 'null'},"has_more":${rest.length > page.length},"total":${sorted.length}}`);
      return;
    }
    if (req.method === 'GET' && url.pathname === '/assets/categories') return send(200, '[]');
    if (req.method === 'POST' && url.pathname === '/purchase/register') {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => {
        registerBodies.push(text);
        // The asset id echoed as the bytes that came in.
        const asset = /"asset_id":("[^"]*"|-?\d+)/.exec(text)?.[1] ?? 'null';
        const reference = /"client_reference":("[^"]*")/.exec(text)?.[1] ?? 'null';
        purchases++;
        send(200, `{"id":"P-${purchases}","asset_id":${asset},"state":"registered","client_reference":${reference}}`);
      });
      return;
    }
    send(404, '{"message":"not found"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lastIds,
    registerBodies,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
