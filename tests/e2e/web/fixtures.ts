/**
 * The web specs' `test`: each Playwright worker starts browser mode once (tests/e2e/browser-mode.ts,
 * as `npm run web` in its own process, with its own throw-away data folder) on the built-in demo, or
 * on a real staging service for `npm run test:e2e:real` (tests/e2e/real-service.ts). Specs in one
 * worker run one after another on its server; specs in different workers share no profile, ledger or
 * simulator. A PARTNER_WEB_URL set by the caller is used as is (then playwright.config.ts runs one worker).
 */
import { test as base } from '@playwright/test';
import { startBrowserMode } from '../browser-mode';
import { e2eTarget } from '../real-service';

export { expect } from '@playwright/test';

export const test = base.extend<object, { webServer: string }>({
  webServer: [
    async ({}, use) => {
      const given = process.env.PARTNER_WEB_URL;
      if (given) return use(given);
      const target = e2eTarget(process.env);
      if (target.kind === 'refused') throw new Error(target.error);
      if (target.kind === 'real') Object.assign(process.env, target.childEnv);
      const server = await startBrowserMode(target.kind === 'real' ? target.args : []);
      // helpers.webUrl() reads it: this worker's process only.
      process.env.PARTNER_WEB_URL = server.url;
      try {
        await use(server.url);
      } finally {
        delete process.env.PARTNER_WEB_URL;
        await server.stop();
      }
    },
    { scope: 'worker', auto: true, timeout: 60_000 },
  ],
});
