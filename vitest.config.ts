import { defineConfig } from 'vitest/config';
import { integrationSlots } from './test/integration/support/slots.ts';

// The integration files that watch or load the whole stack, each apart from the other integration files.
// bench-isolation compares every topic, group, table and Redis key before and after, so nothing else may
// touch the stack meanwhile; the unit files do not, so it runs beside them (early), where it is mostly
// waiting on its benchmarks' fixed starts and ends. The others run after every other file, one at a
// time: chaos kills the stack's processes; three-brokers kills a broker; slow-loris measures the API's
// latency under attack.
const early = ['test/integration/bench-isolation.test.ts'];
const alone = [
  'test/integration/chaos.test.ts',
  'test/integration/three-brokers.test.ts',
  'test/integration/slow-loris.test.ts',
];

// Four projects. Unit tests live beside the code they pin down (services/**); integration tests talk
// to the real stack (test/integration/**).
//
// The unit files run first, three workers on the two cores, with bench-isolation beside them (Vitest
// requires one maxWorkers in a group). Vitest's default is one worker fewer than the cores, which on
// two is one: 259 unit files took 271 s, and 163 s with two workers (most of it each file's module
// loading, not its tests). On 2026-12-03: the unit files alone 105 s with two workers, 96 s with three;
// bench-isolation alone about 146 s; the two side by side 172 s where one after the other took 251 s.
// Worker processes, not threads: a test that bounds the CPU a parse used reads process.cpuUsage(),
// which in a thread counts the other thread's tests too.
//
// Then the integration files, three at a time (INTEGRATION_SLOTS), each worker slot in a Kafka namespace of its own so that
// one file's services never see the other's events (test/integration/support/slots.ts): one at a time
// they kept a quarter of the two cores busy, waiting on groups, polls and retries (slots.ts has the
// measurements). Then the files of `alone`, one at a time.
export default defineConfig({
  test: {
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
          // Beside bench-isolation the two cores run at a load of 5–6, and a test that encodes audio with
          // ffmpeg took over Vitest's default 5 s (2026-12-03 CI). Nothing here is a timed test; a test
          // that hangs still fails, after 30 s.
          testTimeout: 30_000,
          include: [
            'services/**/*.test.ts',
            'projections/**/*.test.ts',
            'schemas/**/*.test.ts',
            'test/integration/support/**/*.test.ts',
            'test/support/**/*.test.ts',
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
          name: 'integration-early',
          include: early,
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: ['test/integration/support/**', ...early, ...alone],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          setupFiles: ['test/integration/slot-namespace.ts'],
          maxWorkers: integrationSlots,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'integration-alone',
          include: alone,
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
