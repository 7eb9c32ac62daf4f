#!/usr/bin/env node
/**
 * `npm start`: runs the desktop app. Finds the Electron runtime first (so a machine without one
 * learns that at once, not after a build), builds what is missing or older than its sources
 * (`vite build` for dist/renderer, scripts/build-main.mjs for dist/main), then launches Electron on
 * this folder (package.json's "main" is dist/main/main.cjs). Extra arguments go to the app.
 *
 * The runtime: ELECTRON_OVERRIDE_DIST_PATH (a folder holding an Electron build), else the binary
 * that `npm install` downloads into node_modules/electron/dist. require('electron') is not used to
 * find it: in Electron 45 that tries to download the binary when it is missing.
 * With no runtime it prints one paragraph and exits with code 3.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NO_RUNTIME_EXIT_CODE = 3;

/** Where the executable sits inside an Electron build folder, per platform (as electron's install.js names it). */
function executableInDist(platform = process.platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/** The Electron executable to run, or null with the places looked at. */
export function findElectron(env = process.env, platform = process.platform) {
  const looked = [];
  const packageDir = path.join(root, 'node_modules', 'electron');
  const pathTxt = path.join(packageDir, 'path.txt');
  const relative = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : executableInDist(platform);
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const candidate = path.join(env.ELECTRON_OVERRIDE_DIST_PATH, relative);
    if (existsSync(candidate)) return { path: candidate, looked };
    looked.push(`${candidate} (from ELECTRON_OVERRIDE_DIST_PATH)`);
  }
  const installed = path.join(packageDir, 'dist', relative);
  if (existsSync(installed)) return { path: installed, looked };
  looked.push(installed);
  return { path: null, looked };
}

export function noRuntimeMessage(looked) {
  return [
    `Partner Console cannot start its desktop window: no Electron runtime was found (looked at ${looked.join(' and ')}).`,
    'The electron npm package is installed but its binary is not: `npm install` downloads it from Electron\'s releases, which failed or was skipped here (no network access to them on this machine).',
    'To use an Electron you already have, point ELECTRON_OVERRIDE_DIST_PATH at the folder that contains it (e.g. `ELECTRON_OVERRIDE_DIST_PATH=/opt/electron-v45 npm start`, the folder of the `electron` executable, or of Electron.app on macOS);',
    'with network access, `npx install-electron` (or `rm -rf node_modules/electron && npm install`) fetches it.',
    'Meanwhile `npm run web` serves the same app, with the same services, in your browser.',
  ].join(' ');
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
  const electron = findElectron();
  if (electron.path === null) {
    console.error(noRuntimeMessage(electron.looked));
    process.exit(NO_RUNTIME_EXIT_CODE);
  }
  const shared = ['shared', 'package.json', 'tsconfig.base.json'];
  if (outdated(['dist/renderer/index.html'], ['renderer', 'index.html', 'vite.config.mts', ...shared])) run('building the renderer (vite build)', 'npx', ['vite', 'build']);
  if (outdated(['dist/main/main.cjs', 'dist/main/preload.cjs'], ['electron', 'scripts/build-main.mjs', ...shared])) run('building the main process', process.execPath, [path.join(root, 'scripts', 'build-main.mjs')]);

  const child = spawn(electron.path, [root, ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
  child.on('error', (error) => {
    console.error(`npm start: could not run ${electron.path}: ${error.message}`);
    process.exit(NO_RUNTIME_EXIT_CODE);
  });
  child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
