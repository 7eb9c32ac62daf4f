/**
 * Where the integration tests find the processes they spawn: electron/catalog/cli.ts,
 * electron/simulator/cli.ts, electron/reports/cli.ts and the ledger tests' app process bundled once per run by esbuild (cli-bundles-setup.ts, vitest's global
 * setup), their packages left to node_modules. `node --import tsx` costs each process a second or two
 * of CPU before its first request; eight processes at once and a dozen in a row spent most of their time there.
 */
import { join, resolve } from 'node:path';

/** Under the repository (ignored by git), so that packages resolve from node_modules as tsx's run would. */
export const CLI_BUNDLE_DIR = join(resolve(__dirname, '../..'), '.tmp', 'test-cli');

/** The bundles, by name, and the source each is built from. */
export const CLI_SOURCES = {
  catalog: 'electron/catalog/cli.ts',
  simulator: 'electron/simulator/cli.ts',
  report: 'electron/reports/cli.ts',
  'ledger-child': 'tests/integration/fixtures/ledger-child.ts',
} as const;

export const CATALOG_CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'catalog.mjs');
export const SIMULATOR_CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'simulator.mjs');
export const REPORT_CLI_BUNDLE = join(CLI_BUNDLE_DIR, 'report.mjs');
/** The app process of the ledger's kill -9 and two-process tests. */
export const LEDGER_CHILD_BUNDLE = join(CLI_BUNDLE_DIR, 'ledger-child.mjs');
