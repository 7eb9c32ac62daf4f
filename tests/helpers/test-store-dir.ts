/**
 * The machine budget store's folder for a test run (catalog exports use the store by default): one per run,
 * never the user's. vitest.config.ts gives it to every test process; the global setup removes it at the end.
 */
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEST_STORE_DIR = join(tmpdir(), `partner-console-tests-${process.pid}`);

/** Vitest global setup: nothing before; the folder goes after the run. */
export default function setup(): () => void {
  return () => rmSync(TEST_STORE_DIR, { recursive: true, force: true });
}
