/**
 * Where the integration tests find the catalog command line: electron/catalog/cli.ts bundled once per
 * run by esbuild (catalog-cli-bundle-setup.ts, vitest's global setup), its packages left to node_modules.
 * `node --import tsx` costs each process a second or two of CPU before its first request; eight
 * processes at once and a dozen in a row spent most of their time there.
 */
import { join, resolve } from 'node:path';

/** Under the repository (ignored by git), so that its packages resolve from node_modules as tsx's run would. */
export const CATALOG_CLI_BUNDLE = join(resolve(__dirname, '../..'), '.tmp', 'test-cli', 'catalog.mjs');
