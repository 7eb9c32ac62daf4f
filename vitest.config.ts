import { configDefaults, defineConfig } from 'vitest/config';
import { TEST_STORE_DIR } from './tests/helpers/test-store-dir';

/**
 * Integration files that count requests, rates or timeouts over real seconds: they run one at a time,
 * after the rest, so that no other file's CPU use shifts their seconds (two at a time, a foreign-use
 * count and a resumed download's request count came out one off now and then).
 */
const REAL_TIME = [
  'alerts-app',
  'app-fleet-use',
  'app-review-defects',
  'app-services',
  'app-sessions',
  'budget-foreign-use',
  'budget-store-redis',
  'budget-store-scopes',
  'cancel-spends-nothing',
  'catalog-cli',
  'catalog-fleet',
  'catalog-hostile',
  'client-simulator',
  'ledger-processes',
  'har-replay',
  'simulator-faults',
  'transport-no-resend',
  'web-services',
].map((name) => `tests/integration/${name}.test.ts`);
// web-bridge, web-cli and simulator-cli run with the rest: they wait for a condition (a URL line, a
// message, an exit) and count nothing over seconds.

/**
 * Unit files that stub globals, mock modules, install fake timers or listen on `process`: each gets a
 * fresh module graph. The other unit files share one per worker (isolate: false), which spares each
 * file re-importing zod, the client and the simulator.
 */
const UNIT_ISOLATED = [
  'bridge-cancel',
  'client-fleet',
  'download-reveal',
  'shell-desktop',
  'shell-ipc',
  'shell-notifier',
  'shell-permissions',
  'shell-preload',
  'shell-protocol',
  'shell-vault',
  'simulator-faults',
  'transport-node-fetch',
  'renderer/secret',
  'renderer/server-probe',
  'renderer/websocket-link',
].map((name) => `tests/unit/${name}.test.ts`);

export default defineConfig({
  test: {
    environment: 'node',
    // The catalog and simulator CLIs' bundles, built once: the files that spawn them skip tsx's start-up in each process.
    globalSetup: ['tests/helpers/cli-bundles-setup.ts', 'tests/helpers/test-store-dir.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Catalog exports share this machine's budget store by default: the tests' processes share one of their
    // own, never the user's (every process the tests start inherits it).
    env: { PARTNER_CONSOLE_STORE_DIR: TEST_STORE_DIR },
    // Integration tests own loopback ports and real clocks: tests in order within a file.
    pool: 'forks',
    // Two files at a time in all (the default, cores - 1, is one on the 2-core CI machine).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...UNIT_ISOLATED],
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'parallel',
          include: [...UNIT_ISOLATED, 'tests/integration/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...REAL_TIME],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'real-time', include: REAL_TIME, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
