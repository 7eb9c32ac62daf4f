#!/usr/bin/env node
/**
 * `npm run build:main`: bundles the Electron main process and the preload into dist/main/ with
 * esbuild (CommonJS, since package.json says "type": "module" the files end in .cjs).
 *
 * - main.cjs: platform node, target node22 (Electron 45's Node), everything bundled except
 *   `electron` and the native `better-sqlite3` (the local store: a compiled .node binding cannot
 *   be bundled; electron-builder ships it unpacked, rebuilt for Electron), so the packaged app
 *   needs only that one module (zod, conf, ws included; ws's optional native helpers
 *   bufferutil/utf-8-validate stay external and are simply absent).
 * - preload.cjs: a sandboxed preload can require only `electron` (and a few built-ins), so it is
 *   one self-contained file; platform browser, so any accidental Node import fails the build.
 *   The preload needs only the contract's call and event NAMES, not its zod schemas (validation
 *   happens in main), so the contract module is replaced by its two name lists: ~10 KiB instead
 *   of ~460 KiB of zod parsed on every page load. Any other runtime import of the contract from the
 *   preload's code then fails the build ("No matching export"), never silently.
 *
 *   node scripts/build-main.mjs [--no-sourcemap]
 */
import { readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist', 'main');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const sourcemap = !process.argv.includes('--no-sourcemap');

const common = {
  bundle: true,
  format: 'cjs',
  sourcemap,
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: root,
  tsconfig: path.join(root, 'tsconfig.node.json'),
  external: ['electron'],
};

/** Replaces shared/bridge/contract.ts with its CALL_NAMES and EVENT_NAMES, evaluated from the real module. */
async function contractNamesOnly() {
  const contractPath = path.join(root, 'shared', 'bridge', 'contract.ts');
  const compiled = await build({
    entryPoints: [contractPath],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    logLevel: 'silent',
    absWorkingDir: root,
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', compiled.outputFiles[0].text)(module, module.exports, createRequire(import.meta.url));
  const { CALL_NAMES, EVENT_NAMES } = module.exports;
  if (!Array.isArray(CALL_NAMES) || !Array.isArray(EVENT_NAMES)) throw new Error('shared/bridge/contract.ts no longer exports CALL_NAMES and EVENT_NAMES');
  const contents = [
    `export const CALL_NAMES = ${JSON.stringify(CALL_NAMES)};`,
    `export const EVENT_NAMES = ${JSON.stringify(EVENT_NAMES)};`,
    'export function isCallName(name) { return typeof name === "string" && CALL_NAMES.includes(name); }',
  ].join('\n');
  return {
    name: 'contract-names-only',
    setup(builder) {
      builder.onResolve({ filter: /(^|\/)contract$/ }, (args) => {
        const target = path.resolve(args.resolveDir, `${args.path}.ts`);
        return target === contractPath ? { path: contractPath, namespace: 'contract-names' } : undefined;
      });
      builder.onLoad({ filter: /.*/, namespace: 'contract-names' }, () => ({ contents, loader: 'js' }));
    },
  };
}

const contractNames = await contractNamesOnly();
rmSync(outdir, { recursive: true, force: true });
const started = Date.now();
const results = await Promise.allSettled([
  build({
    ...common,
    entryPoints: { main: 'electron/main.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    target: 'node22',
    external: [...common.external, 'better-sqlite3', 'bufferutil', 'utf-8-validate'],
    define: { __APP_VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__importMetaUrl' },
    // ESM dependencies that read import.meta.url get this file's URL in the CommonJS bundle.
    banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  build({
    ...common,
    entryPoints: { preload: 'electron/preload.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    platform: 'browser',
    target: 'chrome140',
    plugins: [contractNames],
  }),
]);
if (results.some((r) => r.status === 'rejected')) {
  // esbuild has already printed each error with its location.
  console.error('build-main failed: see the errors above.');
  process.exit(1);
}
const size = (file) => `${(statSync(path.join(outdir, file)).size / 1024).toFixed(0)} KiB`;
console.log(`Built dist/main/main.cjs (${size('main.cjs')}) and dist/main/preload.cjs (${size('preload.cjs')}) in ${Date.now() - started} ms.`);
