import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Integration files that count requests, rates or timeouts over real seconds: they run one at a time,
 * after the rest, so that no other file's CPU use shifts their seconds (two at a time, a foreign-use
 * count and a resumed download's request count came out one off now and then).
 */
const REAL_TIME = [
  'alerts-app', 'app-fleet-use', 'app-review-defects', 'app-services', 'app-sessions', 'budget-foreign-use', 'budget-store-redis',
  'budget-store-scopes', 'cancel-spends-nothing', 'catalog-cli', 'catalog-fleet', 'catalog-hostile', 'client-simulator',
  'ledger-processes', 'simulator-cli', 'har-replay', 'simulator-faults', 'transport-no-resend', 'web-bridge', 'web-cli', 'web-services',
].map((name) => `tests/integration/${name}.test.ts`);

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests own loopback ports and real clocks: tests in order within a file.
    pool: 'forks',
    projects: [
      {
        extends: true,
        // Two files at a time (the default, cores - 1, is one on the 2-core CI machine).
        test: { name: 'parallel', include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'], exclude: [...configDefaults.exclude, ...REAL_TIME], maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'real-time', include: REAL_TIME, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
