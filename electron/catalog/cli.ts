/** `npm run catalog -- --base-url URL --token T [...]`: see cli-args.ts for the flags. */
import { invocationDir, tolerateClosedOutput } from '../cli-process';
import { runCatalogCli } from './cli-main';

function onInterrupt(handler: () => void): () => void {
  let count = 0;
  const listener = (): void => {
    count += 1;
    // A second Ctrl-C quits at once; the checkpoint is replaced atomically, so it is never torn.
    if (count > 1) process.exit(130);
    handler();
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
}

tolerateClosedOutput();
let settled = false;
// Node ends a process whose event loop is empty even while a promise still waits (an unref'd timer):
// that must never pass for success, with no summary. Say so and fail instead.
process.on('beforeExit', () => {
  if (settled) return;
  settled = true;
  process.stderr.write(
    'catalog: internal error: the download stopped waiting on nothing before it finished; the checkpoint is intact, resume with --resume.\n',
  );
  process.exitCode = 1;
});

runCatalogCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: invocationDir(),
  onInterrupt,
}).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (e: unknown) => {
    settled = true;
    process.stderr.write(`catalog: unexpected error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
