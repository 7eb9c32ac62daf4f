/** Vitest global setup: bundles the command lines the tests spawn, before any test file runs (fresh each run, never stale). */
import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { CLI_BUNDLE_DIR, CLI_SOURCES } from './cli-bundles';

/** Vitest calls a global setup once per project (the three inherit it): one build serves them all. */
const BUILT = Symbol.for('partner-console.cli-bundles');

export default function setup(): Promise<void> {
  const memo = globalThis as { [BUILT]?: Promise<void> };
  return (memo[BUILT] ??= buildBundles());
}

async function buildBundles(): Promise<void> {
  const root = resolve(__dirname, '../..');
  // Built beside and renamed: another run in this worktree never spawns a half-written file.
  const partial = join(CLI_BUNDLE_DIR, `.partial-${process.pid}`);
  mkdirSync(partial, { recursive: true });
  try {
    await build({
      entryPoints: Object.fromEntries(Object.entries(CLI_SOURCES).map(([name, source]) => [name, join(root, source)])),
      outdir: partial,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      logLevel: 'warning',
    });
    for (const file of readdirSync(partial)) renameSync(join(partial, file), join(CLI_BUNDLE_DIR, file));
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
