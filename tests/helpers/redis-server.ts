/**
 * A real redis-server on a free loopback port for tests (Debian's package; `.ci/run` installs it):
 * no data on disk, stopped with SIGKILL (as a crash), started again on the same port.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const hasRedisServer = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface RedisServer {
  port: number;
  /** redis://127.0.0.1:<port>/<db> */
  url(db?: number): string;
  /** Kills it (SIGKILL, as a crash); nothing happens when it is not running. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
}

async function spawnRedis(port: number, memoryKb?: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  // A ceiling on its memory (ulimit -v, then exec: the pid stays redis-server's) so that a runaway script kills only it.
  const child = memoryKb
    ? spawn('sh', ['-c', `ulimit -v ${Math.floor(memoryKb)} && exec redis-server "$@"`, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (/Ready to accept connections/.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited ${code}: ${out}`));
    });
  });
  return child;
}

/** `memoryKb`: the most virtual memory it may take (a test that could make a script run away). */
export async function startRedisServer(memoryKb?: number): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | null = await spawnRedis(port, memoryKb);
  return {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const gone = new Promise((r) => running.once('exit', r));
      running.kill('SIGKILL');
      await gone;
    },
    async start() {
      child ??= await spawnRedis(port, memoryKb);
    },
  };
}

/** Resolves once `check` holds; throws after `ms`. */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
