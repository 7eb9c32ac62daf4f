/**
 * A Redis that accepts the connection but never becomes ready (loading its dataset, hung, a TCP proxy
 * with no backend): a loopback server that takes the connection and answers nothing until it is let
 * through to a real redis-server. One first-answer allowance, then headers only at once; back by itself
 * once Redis answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { FIRST_ANSWER_MS, RedisSlotStore } from '../../electron/client/redis-slot-store';
import { hasRedisServer, startRedisServer, until, type RedisServer } from '../helpers/redis-server';

const hasRedis = hasRedisServer();

/** Takes connections and holds what they send; `open()` lets every connection through to `target`. */
function silentGate(target: () => number): { server: net.Server; open(): void } {
  const held: { socket: net.Socket; data: Buffer[] }[] = [];
  let opened = false;
  const pass = (socket: net.Socket, data: Buffer[]): void => {
    socket.removeAllListeners('data');
    socket.pause(); // nothing read before the pipe below
    const upstream = net.connect(target(), '127.0.0.1', () => {
      for (const d of data) upstream.write(d);
      socket.pipe(upstream).pipe(socket);
    });
    socket.on('close', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  };
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    if (opened) return pass(socket, []);
    const entry = { socket, data: [] as Buffer[] };
    held.push(entry);
    socket.on('data', (d: Buffer) => entry.data.push(d));
  });
  return {
    server,
    open() {
      opened = true;
      for (const { socket, data } of held.splice(0)) pass(socket, data);
    },
  };
}

describe.skipIf(!hasRedis)('a Redis that accepts the connection and never answers', () => {
  let redis: RedisServer;
  let gate: ReturnType<typeof silentGate>;
  let store: RedisSlotStore | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    gate = silentGate(() => redis.port);
    await new Promise<void>((r) => gate.server.listen(0, '127.0.0.1', () => r()));
  });

  afterAll(async () => {
    await store?.close();
    gate?.server.close();
    await redis?.stop();
  });

  it('one first-answer allowance, then headers only at once and said once; back when Redis answers', async () => {
    const { port } = gate.server.address() as net.AddressInfo;
    store = new RedisSlotStore(`redis://127.0.0.1:${port}/0`, (l) => lines.push(l));
    expect(await store.reserve('test:never-ready', 20)).toBeNull();
    expect(store.status()).toMatchObject({ state: 'fallback', detail: `no answer within ${FIRST_ANSWER_MS} ms` });
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      expect(await store.reserve('test:never-ready', 20)).toBeNull();
      expect(performance.now() - t).toBeLessThan(500); // not another allowance each
    }
    expect(lines.filter((l) => /unreachable.*headers alone/.test(l))).toHaveLength(1);
    gate.open();
    await until(() => store!.status().state === 'connected');
    expect(await store.reserve('test:never-ready', 20)).not.toBeNull();
    expect(lines.filter((l) => /is back;/.test(l))).toHaveLength(1);
  });
});
