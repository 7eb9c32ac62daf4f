/**
 * Finds an Electron runtime to run the desktop app with: ELECTRON_OVERRIDE_DIST_PATH (a folder
 * holding an Electron build), else the binary Electron downloads into node_modules/electron/dist on first use.
 * Used by scripts/start.mjs and the Playwright `_electron` spec. Does not require('electron'): in
 * Electron 45 that starts a download when the binary is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Where the executable sits inside an Electron build folder (as electron's install.js names it). */
export function executableInDist(platform = process.platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

export function findElectron(env = process.env, platform = process.platform, packageDir = path.join(root, 'node_modules', 'electron')) {
  const looked = [];
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

/** One paragraph: what failed, how to point at a local Electron, and the browser-mode alternative. */
export function noRuntimeMessage(looked) {
  return [
    `Partner Console cannot start its desktop window: no Electron runtime was found (looked at ${looked.join(' and ')}).`,
    "The electron npm package is installed but its binary is not, and downloading it from Electron's releases failed (this machine may have no network access to them).",
    'To use an Electron you already have, point ELECTRON_OVERRIDE_DIST_PATH at the folder that contains it (e.g. `ELECTRON_OVERRIDE_DIST_PATH=/opt/electron-v45 npm start`, the folder of the `electron` executable, or of Electron.app on macOS);',
    'with network access, `npm start` fetches it by itself.',
    'Meanwhile `npm run web` serves the same app, with the same services, in your browser.',
  ].join(' ');
}
