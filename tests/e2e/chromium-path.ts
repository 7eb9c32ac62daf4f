/**
 * Which Chromium Playwright should drive: its own download when present (machines with internet
 * work unchanged), else Debian's headless shell (package chromium-headless-shell: the kind of browser
 * Playwright's own headless runs use), else the system's full browser (Debian's `chromium`).
 * The full browser, headless, opens a whole browser window per context, with a renderer of its own for
 * the omnibox popup: on this 2-core machine opening the app took about 4.4 s of CPU with it, 1.8 s
 * with the headless shell.
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const FULL_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
// The shell's binary itself: /usr/bin/chromium-headless-shell is a script that does not exec it.
const SYSTEM_CHROMIUM = ['/usr/lib/chromium/chromium-headless-shell', ...FULL_CHROMIUM];

export function chromiumExecutable(): string | undefined {
  if (process.env.PARTNER_CHROMIUM) return process.env.PARTNER_CHROMIUM;
  if (ownBrowserPresent()) return undefined; // Playwright finds its own
  return SYSTEM_CHROMIUM.find((p) => existsSync(p));
}

/**
 * A full Chromium (not the headless shell), for the specs that need what only it has: the headless
 * shell denies Web Notifications whatever the context grants. Playwright's own full build when it has
 * one (undefined: its `chromium` channel), else the system's; null when there is none.
 */
export function fullChromiumExecutable(): string | undefined | null {
  if (process.env.PARTNER_CHROMIUM) return process.env.PARTNER_CHROMIUM;
  if (ownBrowserPresent()) return undefined;
  return FULL_CHROMIUM.find((p) => existsSync(p)) ?? null;
}

/** Playwright's own downloaded Chromium is on disk. */
function ownBrowserPresent(): boolean {
  try {
    const own = chromium.executablePath();
    return Boolean(own && existsSync(own));
  } catch {
    return false; // no bundled browser registered
  }
}

/** Flags that keep a headless Chromium off a closed network and quiet in CI. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];
