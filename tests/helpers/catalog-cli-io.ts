/** The catalog CLI run in-process with its output captured, and the ids of the JSON Lines file it wrote. */
import { readFile } from 'node:fs/promises';
import type { CliIo } from '../../electron/catalog/cli-main';

export type CapturedIo = CliIo & { err: () => string; out: () => string };

/** A non-interactive terminal in `cwd` (stderr is no TTY, so no progress line) whose output the test reads. */
export function capturedIo(cwd: string, env: NodeJS.ProcessEnv = {}): CapturedIo {
  let err = '';
  let out = '';
  return {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t), isTTY: false } as CliIo['stderr'],
    env,
    cwd,
    onInterrupt: () => () => undefined,
    err: () => err,
    out: () => out,
  };
}

/** The numeric ids of a JSON Lines export, in file order. */
export async function fileIds(path: string): Promise<number[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: number }).id);
}
