/**
 * What a command-line tool needs of its process beside its flags:
 * - the folder the person typed the command in: `npm run x` starts the tool at the package root and
 *   says where it was run in INIT_CWD (trusted only while the tool runs at that root, so that a tool
 *   started by another process keeps its own working folder);
 * - standard output and error whose reader went away (`| head -1`, a closed log pipe, a full disk):
 *   the tool goes on or ends as it would, instead of dying on EPIPE, or, under a crash guard that
 *   logs to the same stream, failing to log that failure over and over.
 */
import { resolve } from 'node:path';

export function invocationDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  const root = env.npm_config_local_prefix;
  return env.INIT_CWD && root && resolve(root) === resolve(cwd) ? env.INIT_CWD : cwd;
}

/** Nobody reads what is written any more: there is no one to tell. */
const nobodyReads = (): void => undefined;

export function tolerateClosedOutput(streams: NodeJS.WritableStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) if (!stream.listeners('error').includes(nobodyReads)) stream.on('error', nobodyReads);
}
