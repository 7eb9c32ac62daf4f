// npm run test:e2e:real: the @real web specs against the staging service named by PARTNER_BASE_URL,
// PARTNER_VENDOR and PARTNER_TOKEN (playwright.config.ts refuses without them). Extra arguments go to Playwright.
import { spawnSync } from 'node:child_process';

const missing = ['PARTNER_BASE_URL', 'PARTNER_VENDOR', 'PARTNER_TOKEN'].filter((name) => !process.env[name]?.trim());
if (missing.length > 0) {
  console.error(
    `npm run test:e2e:real needs ${missing.join(', ')} in the environment (the staging service's base URL, the vendor and its token); nothing was run.`,
  );
  process.exit(2);
}
const result = spawnSync('npx', ['playwright', 'test', '--project', 'web', ...process.argv.slice(2)], {
  stdio: 'inherit',
  shell: process.platform === 'win32',
  env: { ...process.env, PARTNER_E2E_REAL: '1' },
});
process.exit(result.status ?? 1);
