/**
 * The simulator in its own process for benchmarks, so that the clients under test and the server
 * do not share an event loop. Controlled over its HTTP control API (/_sim/*), as the app does.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface SimProcess {
  url: string;
  control<T = unknown>(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

export async function startSimProcess(args: string[]): Promise<SimProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'electron/simulator/cli.ts', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}:\n${output}`)));
  });
  return {
    url,
    async control<T>(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown): Promise<T> {
      const res = await fetch(url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`control ${method} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
