/**
 * Where the integration tests find the command lines they spawn: electron/catalog/cli.ts and
 * electron/simulator/cli.ts bundled once per run by esbuild (cli-bundles-setup.ts, vitest's global
 * setup), their packages left to node_modules. `node --import tsx` costs each process a second or two
 * of CPU before its first request; eight processes at once and a dozen in a row spent most of their time there.
 */
import { join, resolve } from 'node:path';

/** Under the repository (ignored by git), so that packages resolve from node_modules as tsx's run would. */
export const CLI_BUNDLE_DIR = join(resolve(__dirname, '../..'), '.tmp', 'test-cli');

/** The bundles, by name, and the source each is built from. */
export const CLI_SOURCES = { catalog: 'electron/catalog/cli.ts', simulator: 'electron/simulator/cli.ts' } as const;

export const CATALOG_CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'catalog.mjs');
export const SIMULATOR_CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'simulator.mjs');
