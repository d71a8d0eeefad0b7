import { defineConfig } from 'vitest/config';

// Two projects: unit tests live beside the code they pin down (services/**),
// integration tests talk to the real stack (test/integration/**) and run one
// file at a time so that two suites never fight over the same consumer group
// or the machine's two cores.
//
// The unit files run first, one per core; the integration files after them, one at a time. Vitest's
// default is one worker fewer than the cores, which on two is one: 259 unit files took 271 s, and 163 s
// with two workers (most of it each file's module loading, not its tests). Worker processes, not
// threads: a test that bounds the CPU a parse used reads process.cpuUsage(), which in a thread counts
// the other thread's tests too.
export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers: '100%',
          sequence: { groupOrder: 0 },
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
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
