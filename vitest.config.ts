import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests own loopback ports and real clocks: keep files in parallel, tests in order.
    pool: 'forks',
    // Two files at a time. The default (cores - 1) is ONE on a 2-core machine (CI's), which ran every
    // file in turn: most of the integration files wait on real time, not on the CPU.
    maxWorkers: 2,
  },
});
