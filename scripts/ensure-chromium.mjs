// Before the end-to-end specs: make sure Playwright has a Chromium, and a full one for the notifications
// spec. Playwright's own download is used where present; otherwise Debian's headless shell and `chromium`
// (apt-get, as root), since this machine cannot download Playwright's browsers. Fails with one clear
// message when that does not work. Keep the paths in the order of tests/e2e/chromium-path.ts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SHELL = '/usr/lib/chromium/chromium-headless-shell';
// The notifications spec needs a full browser: the headless shell denies Web Notifications.
const FULL = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function ownBrowser() {
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    /* none registered */
  }
  return undefined;
}

function found() {
  if (process.env.PARTNER_CHROMIUM && existsSync(process.env.PARTNER_CHROMIUM)) return process.env.PARTNER_CHROMIUM;
  return ownBrowser() ?? [SHELL, ...FULL].find((p) => existsSync(p));
}

function fullFound() {
  if (process.env.PARTNER_CHROMIUM && existsSync(process.env.PARTNER_CHROMIUM)) return process.env.PARTNER_CHROMIUM;
  return ownBrowser() ?? FULL.find((p) => existsSync(p));
}

let path = found();
let full = fullFound();
if ((!path || !full) && process.platform === 'linux' && existsSync('/usr/bin/apt-get')) {
  const root = process.getuid?.() === 0;
  const packages = [...(existsSync(SHELL) ? [] : ['chromium-headless-shell']), ...(full ? [] : ['chromium'])];
  console.log(`e2e: installing Debian's ${packages.join(' and ')} (apt-get install -y ${packages.join(' ')})`);
  try {
    const sudo = root ? [] : ['sudo'];
    const run = (args) =>
      execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', ...packages]);
  } catch {
    /* reported below */
  }
  path = found();
  full = fullFound();
}
if (!path || !full) {
  console.error(
    (path ? 'e2e: no full Chromium for the notifications spec (the headless shell denies Web Notifications). ' : 'e2e: no Chromium for Playwright. ') +
      'Install one with `npx playwright install chromium` (needs internet) ' +
      'or `apt-get install -y chromium-headless-shell chromium` (Debian), or set PARTNER_CHROMIUM=/path/to/chrome.',
  );
  process.exit(1);
}
console.log(`e2e: Chromium at ${path}`);
// The full browser opens a browser window per spec: about 2.5 s more CPU for each page the specs open.
if (!process.env.PARTNER_CHROMIUM && path === '/usr/bin/chromium' && process.platform === 'linux' && existsSync('/usr/bin/apt-get'))
  console.log('e2e: `apt-get install chromium-headless-shell` (Debian) makes these specs faster: Playwright then drives the headless shell.');
