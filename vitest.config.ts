import { defineConfig } from 'vitest/config';

// Two projects: unit tests live beside the code they pin down (services/**),
// integration tests talk to the real stack (test/integration/**) and run one
// file at a time so that two suites never fight over the same consumer group
// or the machine's two cores.
export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'services/**/*.test.ts',
            'projections/**/*.test.ts',
            'schemas/**/*.test.ts',
            'test/integration/support/**/*.test.ts',
            'test/bench/**/*.test.ts',
            'test/chaos/**/*.test.ts',
            'test/fuzz/**/*.test.ts',
            'test/architecture/**/*.test.ts',
            'test/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ['test/integration/support/**'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
