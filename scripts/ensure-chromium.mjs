// Before the end-to-end specs: make sure a Chromium is there for Playwright. Playwright's own
// download is used where present; otherwise Debian's `chromium` (apt-get, as root), since this
// machine cannot download Playwright's browsers. Fails with one clear message when neither works.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SYSTEM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

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
  console.log("e2e: no Chromium found; installing Debian's chromium package (apt-get install -y chromium)");
  try {
    const sudo = root ? [] : ['sudo'];
    const run = (args) =>
      execFileSync(sudo[0] ?? args[0], sudo.length ? args : args.slice(1), { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    run(['apt-get', 'update', '-qq']);
    run(['apt-get', 'install', '-y', '-qq', 'chromium']);
  } catch {
    /* reported below */
  }
  path = found();
}
if (!path) {
  console.error(
    'e2e: no Chromium for Playwright. Install one with `npx playwright install chromium` (needs internet) ' +
      'or `apt-get install -y chromium` (Debian/Ubuntu), or set PARTNER_CHROMIUM=/path/to/chrome.',
  );
  process.exit(1);
}
console.log(`e2e: Chromium at ${path}`);
