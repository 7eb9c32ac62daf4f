/** `npm run report -- --profile NAME --from DATE --to DATE --format csv|json`: see cli-args.ts for the flags. */
import { invocationDir, tolerateClosedOutput } from '../cli-process';
import { runReportCli } from './cli-main';

tolerateClosedOutput();
runReportCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: invocationDir() }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`report: unexpected error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
