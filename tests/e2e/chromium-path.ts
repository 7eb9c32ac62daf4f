/**
 * Which Chromium Playwright should drive: its own download when present (machines with internet
 * work unchanged), else the system's (Debian's `chromium`, which is all this machine can get).
 */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

export function chromiumExecutable(): string | undefined {
  if (process.env.PARTNER_CHROMIUM) return process.env.PARTNER_CHROMIUM;
  try {
    const own = chromium.executablePath();
    if (own && existsSync(own)) return undefined; // Playwright finds its own
  } catch {
    // no bundled browser registered
  }
  return SYSTEM_CHROMIUM.find((p) => existsSync(p));
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
