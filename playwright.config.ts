import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumExecutable } from './tests/e2e/chromium-path';

const executablePath = chromiumExecutable();

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
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'web', testDir: 'tests/e2e/web', use: { browserName: 'chromium' } },
    { name: 'electron', testDir: 'tests/e2e/electron' },
  ],
});
