// Before the end-to-end specs: make sure a Chromium is there for Playwright. Playwright's own
// download is used where present; otherwise Debian's headless shell or `chromium` (apt-get, as root),
// since this machine cannot download Playwright's browsers. Fails with one clear message when neither
// works. Keep SYSTEM in the order of tests/e2e/chromium-path.ts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SYSTEM = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function found() {
  if (process.env.PARTNER_CHROMIUM && existsSync(process.env.PARTNER_CHROMIUM)) return process.env.PARTNER_CHROMIUM;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    /* none registered */
  }
  return SYSTEM.find((p) => existsSync(p));
}

let path = found();
if (!path && process.platform === 'linux' && existsSync('/usr/bin/apt-get')) {
  const root = process.getuid?.() === 0;
  console.log(
    "e2e: no Chromium found; installing Debian's chromium-headless-shell and chromium packages (apt-get install -y chromium-headless-shell chromium)",
  );
  try {
    const sudo = root ? [] : ['sudo'];
    const run = (args) =>
      execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', 'chromium-headless-shell', 'chromium']);
  } catch {
    /* reported below */
  }
  path = found();
}
if (!path) {
  console.error(
    'e2e: no Chromium for Playwright. Install one with `npx playwright install chromium` (needs internet) ' +
      'or `apt-get install -y chromium-headless-shell` (Debian), or set PARTNER_CHROMIUM=/path/to/chrome.',
  );
  process.exit(1);
}
console.log(`e2e: Chromium at ${path}`);
// The full browser opens a browser window per spec: about 2.5 s more CPU for each page the specs open.
if (!process.env.PARTNER_CHROMIUM && path === '/usr/bin/chromium' && process.platform === 'linux' && existsSync('/usr/bin/apt-get'))
  console.log('e2e: `apt-get install chromium-headless-shell` (Debian) makes these specs faster: Playwright then drives the headless shell.');
