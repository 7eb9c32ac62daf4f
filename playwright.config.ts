import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './tests/e2e/chromium-path';
import { e2eTarget } from './tests/e2e/real-service';

const executablePath = chromiumExecutable();
// npm run test:e2e:real: only the @real specs (and @purchase ones when allowed), web project only.
const target = e2eTarget(process.env);
if (target.kind === 'refused') throw new Error(target.error);
const real = target.kind === 'real' ? { grep: target.grep, ...(target.grepInvert ? { grepInvert: target.grepInvert } : {}) } : {};

export default defineConfig({
  testDir: 'tests/e2e',
  // One browser-mode server serves every spec; specs reset the state they change.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './tests/e2e/global-setup.ts',
  ...real,
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'web', testDir: 'tests/e2e/web', use: { browserName: 'chromium' } },
    ...(target.kind === 'real' ? [] : [{ name: 'electron', testDir: 'tests/e2e/electron' }]),
  ],
});
