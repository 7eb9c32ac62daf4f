/**
 * A budget store URL pointing at something that speaks Redis's protocol but does not run our scripts
 * (a proxy or a look-alike answering every command with +OK): its answers are not slots, so the
 * client must not take them for the fleet's schedule (it would skip the header pacing) nor count them.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSlotStore } from '../../electron/client/redis-slot-store';
import { until } from '../helpers/redis-server';

/** Command names of every complete RESP array in `buf`, and the bytes left over. */
function commands(buf: Buffer): { names: string[]; rest: Buffer } {
  const names: string[] = [];
  let at = 0;
  for (;;) {
    const text = buf.toString('latin1', at);
    const head = /^\*(\d+)\r\n/.exec(text);
    if (!head) break;
    let pos = head[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(head[1]); i++) {
      const len = /^\$(\d+)\r\n/.exec(text.slice(pos));
      if (!len || text.length < pos + len[0].length + Number(len[1]) + 2) return { names, rest: buf.subarray(at) };
      pos += len[0].length;
      args.push(text.slice(pos, pos + Number(len[1])));
      pos += Number(len[1]) + 2;
    }
    names.push(args[0]!.toUpperCase());
    at += pos;
  }
  return { names, rest: buf.subarray(at) };
}

let server: Server;
let port = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { names, rest } = commands(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const name of names) {
        const info = '# Server\r\nredis_version:7.0.0\r\n';
        socket.write(name === 'INFO' ? `$${info.length}\r\n${info}\r\n` : '+OK\r\n');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

describe('a store answering garbage', () => {
  it('reserves nothing (headers only), counts nothing and says it is not usable', async () => {
    const lines: string[] = [];
    const store = new RedisSlotStore(`redis://127.0.0.1:${port}/0`, (line) => lines.push(line));
    try {
      await until(() => store.status().state === 'connected', 5000);
      expect(await store.reserve('partner-console:budget:x:acme:listAssets', 2)).toBeNull();
      expect(await store.granted(['partner-console:budget:x:acme:listAssets'], 5)).toBeNull();
      expect(store.status()).toMatchObject({ state: 'fallback' });
      expect(store.status().detail).toMatch(/not .*answer|unexpected/i);
    } finally {
      await store.close();
    }
  });
});
