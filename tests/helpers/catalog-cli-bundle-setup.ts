/** Vitest global setup: bundles the catalog CLI before any test file runs (fresh each run, never a stale one). */
import { mkdirSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build } from 'esbuild';
import { CATALOG_CLI_BUNDLE } from './catalog-cli-bundle';

export default async function setup(): Promise<void> {
  mkdirSync(dirname(CATALOG_CLI_BUNDLE), { recursive: true });
  // Written beside and renamed: another run in this worktree never spawns a half-written file.
  const partial = `${CATALOG_CLI_BUNDLE}.${process.pid}.tmp`;
  await build({
    entryPoints: [join(resolve(__dirname, '../..'), 'electron/catalog/cli.ts')],
    outfile: partial,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  renameSync(partial, CATALOG_CLI_BUNDLE);
}
