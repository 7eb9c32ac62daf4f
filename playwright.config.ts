import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable, fullChromiumExecutable } from './tests/e2e/chromium-path';
import { e2eTarget } from './tests/e2e/real-service';

const executablePath = chromiumExecutable();
// The headless shell denies Web Notifications: the specs that need them run on a full Chromium, in a
// project of their own (one more browser-mode server and browser, ~8 s, instead of ~2.5 s of CPU more
// for every page every spec opens).
const FULL_BROWSER_SPECS = ['**/manager-alerts.spec.ts'];
const fullExecutable = fullChromiumExecutable();
const fullBrowser =
  fullExecutable === undefined ? { channel: 'chromium' } : { launchOptions: { executablePath: fullExecutable ?? executablePath, args: CHROMIUM_ARGS } };
// npm run test:e2e:real: only the @real specs (and @purchase ones when allowed), web project only.
const target = e2eTarget(process.env);
if (target.kind === 'refused') throw new Error(target.error);
const real = target.kind === 'real' ? { grep: target.grep, ...(target.grepInvert ? { grepInvert: target.grepInvert } : {}) } : {};

export default defineConfig({
  testDir: 'tests/e2e',
  // Each worker starts its own browser-mode server (tests/e2e/web/fixtures.ts), so PARTNER_E2E_WORKERS=N runs N
  // spec files at a time on a machine with the cores for it. One by default: on 2 cores two workers (each a
  // server and a Chromium) made every spec 2-3 times slower and timed out. A real service, or a server given
  // by PARTNER_WEB_URL, is shared: one at a time.
  workers: target.kind === 'real' || process.env.PARTNER_WEB_URL ? 1 : Math.max(1, Number(process.env.PARTNER_E2E_WORKERS) || 1),
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  ...real,
  use: {
    // A failing spec keeps its trace (actions with their timings, console, network, sources) and a screenshot.
    // Left out of the trace, because passing specs pay for them all along: the screencast (encoding its frames
    // made them ~1.7x slower on 2 cores) and the DOM snapshot around every action (~15% of the suite's time);
    // PARTNER_E2E_TRACE_SNAPSHOTS=1 records those snapshots when rerunning a failing spec.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: process.env.PARTNER_E2E_TRACE_SNAPSHOTS === '1' },
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'web', testDir: 'tests/e2e/web', testIgnore: FULL_BROWSER_SPECS, use: { browserName: 'chromium' } },
    { name: 'web-full-browser', testDir: 'tests/e2e/web', testMatch: FULL_BROWSER_SPECS, use: { browserName: 'chromium', ...fullBrowser } },
    ...(target.kind === 'real' ? [] : [{ name: 'electron', testDir: 'tests/e2e/electron' }]),
  ],
});
