#!/usr/bin/env node
/**
 * `npm start`: runs the desktop app. Finds the Electron runtime first (so a machine without one
 * learns that at once, not after a build), builds what is missing or older than its sources
 * (`vite build` for dist/renderer, scripts/build-main.mjs for dist/main), then launches Electron on
 * this folder (package.json's "main" is dist/main/main.cjs). Extra arguments go to the app.
 *
 * The runtime (scripts/electron-runtime.mjs): ELECTRON_OVERRIDE_DIST_PATH (a folder holding an
 * Electron build), else the binary Electron downloads into node_modules/electron/dist on first use.
 * When neither is there it tries the download once (node_modules/electron/install.js); with no
 * runtime after that it says so in one line and starts browser mode on the built-in demo instead
 * (electron/web/cli.ts: it prints the URL and opens it where there is a browser and a display), so
 * that the README's first command shows the app on any machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectron, noRuntimeMessage } from './electron-runtime.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NO_RUNTIME_EXIT_CODE = 3;

/** The one line `npm start` prints when it falls back to browser mode: why, and how to get the desktop window. */
export function browserFallbackLine(looked) {
  return (
    `npm start: no Electron runtime here (looked at ${looked.join(' and ') || 'ELECTRON_OVERRIDE_DIST_PATH'}), so Partner Console starts in browser mode on the built-in demo (its URL follows; opened where there is a browser); ` +
    'for the desktop window, point ELECTRON_OVERRIDE_DIST_PATH at an Electron build (e.g. `ELECTRON_OVERRIDE_DIST_PATH=/opt/electron-v45 npm start`) or run `npm start` with network access.'
  );
}

function newestMtime(entries) {
  let newest = 0;
  const visit = (target) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(target)) if (entry !== 'node_modules' && !entry.startsWith('.')) visit(path.join(target, entry));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const entry of entries) visit(path.join(root, entry));
  return newest;
}

function outdated(outputs, sources) {
  const paths = outputs.map((o) => path.join(root, o));
  if (!paths.every(existsSync)) return true;
  const oldestOutput = Math.min(...paths.map((p) => statSync(p).mtimeMs));
  return newestMtime(sources) > oldestOutput;
}

function run(label, command, args) {
  console.error(`npm start: ${label}…`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`npm start: ${label} failed${result.error ? ` (${result.error.message})` : ''}.`);
    process.exit(result.status ?? 1);
  }
}

function main() {
  let electron = findElectron();
  if (electron.path === null && !process.env.ELECTRON_OVERRIDE_DIST_PATH) {
    // Electron 45 fetches its binary on first use; try that once, quietly, before giving up.
    console.error('npm start: the Electron binary is not installed yet; downloading it…');
    const download = spawnSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
      cwd: root,
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (download.status !== 0) {
      const reason = `${download.stderr ?? ''}`.split('\n').find((line) => /error/i.test(line)) ?? 'no details';
      console.error(`npm start: the download failed (${reason.trim().slice(0, 200)}).`);
    }
    electron = findElectron();
  }
  const shared = ['shared', 'package.json', 'tsconfig.base.json'];
  // Harnesses that build first set PARTNER_WEB_NO_BUILD=1 (as for `npm run web`).
  if (process.env.PARTNER_WEB_NO_BUILD !== '1' && outdated(['dist/renderer/index.html'], ['renderer', 'index.html', 'vite.config.mts', ...shared]))
    run('building the renderer (vite build)', 'npx', ['vite', 'build']);
  if (electron.path === null) {
    console.error(browserFallbackLine(electron.looked));
    startBrowserMode(process.argv.slice(2));
    return;
  }
  if (outdated(['dist/main/main.cjs', 'dist/main/preload.cjs'], ['electron', 'scripts/build-main.mjs', ...shared]))
    run('building the main process', process.execPath, [path.join(root, 'scripts', 'build-main.mjs')]);

  const child = spawn(electron.path, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  child.on('error', (error) => {
    console.error(`npm start: could not run ${electron.path}: ${error.message}`);
    process.exit(NO_RUNTIME_EXIT_CODE);
  });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}

/** Browser mode (`npm run web`) in this process's terminal; its exit is ours. */
function startBrowserMode(args) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'electron', 'web', 'cli.ts'), ...args], { cwd: root, stdio: 'inherit' });
  child.on('error', (error) => {
    console.error(`npm start: could not start browser mode: ${error.message}`);
    console.error(noRuntimeMessage([]));
    process.exit(NO_RUNTIME_EXIT_CODE);
  });
  child.on('exit', (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
