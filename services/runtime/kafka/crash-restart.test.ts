import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Consumer } from 'kafkajs';
import { createLogger } from '../logger.ts';
import { restartAfterFatalCrash, runRestartingAfterCrash } from './crash-restart.ts';

const events = { CRASH: 'consumer.crash', GROUP_JOIN: 'consumer.group_join' } as Consumer['events'];

/** The part of a KafkaJS consumer the restart listens to: its instrumentation events. */
function fakeConsumer() {
  const listeners = new Map<string, Set<(event: { payload: unknown }) => void>>();
  return {
    events,
    on: ((name: string, listener: (event: { payload: unknown }) => void) => {
      const set = listeners.get(name) ?? new Set();
      set.add(listener);
      listeners.set(name, set);
      return () => set.delete(listener);
    }) as unknown as Consumer['on'],
    emit(name: string, payload: unknown) {
      for (const listener of listeners.get(name) ?? []) listener({ payload });
    },
    listening: (name: string) => listeners.get(name)?.size ?? 0,
  };
}

/** What KafkaJS emits when a consumer looked for its coordinator while no broker answered. */
const coordinatorNotFound = {
  error: Object.assign(new Error('Failed to find group coordinator'), {
    name: 'KafkaJSGroupCoordinatorNotFound',
    retriable: false,
  }),
  groupId: 'g',
};

describe('a consumer that crashed for good', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());
  const logger = createLogger('test', 'silent');

  it('is run again after a pause that doubles while it keeps crashing, and resets once it joins', async () => {
    const consumer = fakeConsumer();
    const reruns: number[] = [];
    const start = Date.now();
    restartAfterFatalCrash({
      consumer,
      logger,
      group: 'g',
      rerun: async () => void reruns.push(Date.now() - start),
    });
    consumer.emit(events.CRASH, { ...coordinatorNotFound, restart: false });
    await vi.advanceTimersByTimeAsync(999);
    expect(reruns).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(reruns).toEqual([1_000]);
    // It crashed again while starting: 2 s this time.
    consumer.emit(events.CRASH, { ...coordinatorNotFound, restart: false });
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reruns).toEqual([1_000, 3_000]);
    // It joined its group: the next crash waits 1 s again.
    consumer.emit(events.GROUP_JOIN, { memberAssignment: {} });
    consumer.emit(events.CRASH, { ...coordinatorNotFound, restart: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reruns).toEqual([1_000, 3_000, 4_000]);
  });

  it('leaves a crash KafkaJS restarts itself to KafkaJS', async () => {
    const consumer = fakeConsumer();
    const rerun = vi.fn(async () => undefined);
    restartAfterFatalCrash({ consumer, logger, group: 'g', rerun });
    consumer.emit(events.CRASH, { error: new Error('Connection error'), groupId: 'g', restart: true });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rerun).not.toHaveBeenCalled();
  });

  it('tries again when the restart itself fails, within the longest pause', async () => {
    const consumer = fakeConsumer();
    let calls = 0;
    const rerun = vi.fn(async () => {
      calls++;
      if (calls < 8) throw new Error('not connected');
    });
    restartAfterFatalCrash({ consumer, logger, group: 'g', rerun, maxPauseMs: 4_000 });
    consumer.emit(events.CRASH, { ...coordinatorNotFound, restart: false });
    // 1 + 2 + 4 + 4 + 4 + 4 + 4 + 4 s.
    await vi.advanceTimersByTimeAsync(26_999);
    expect(calls).toBe(7);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(8);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(8);
  });

  it('starts nothing once stopped, even a restart already waiting, and stops listening', async () => {
    const consumer = fakeConsumer();
    const rerun = vi.fn(async () => undefined);
    const restart = restartAfterFatalCrash({ consumer, logger, group: 'g', rerun });
    consumer.emit(events.CRASH, { ...coordinatorNotFound, restart: false });
    restart.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rerun).not.toHaveBeenCalled();
    expect(consumer.listening(events.CRASH)).toBe(0);
    expect(consumer.listening(events.GROUP_JOIN)).toBe(0);
  });

  it('is run with the configuration it was started with', async () => {
    const consumer = fakeConsumer();
    const configs: unknown[] = [];
    const run = async (config: unknown) => void configs.push(config);
    const config = { autoCommit: false, eachBatch: async () => undefined };
    const restart = await runRestartingAfterCrash({ ...consumer, run }, config, {
      logger,
      group: 'g',
    });
    consumer.emit(events.CRASH, { ...coordinatorNotFound, restart: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(configs).toEqual([config, config]);
    restart.stop();
  });

  it('stops listening when the first run fails, which its caller sees', async () => {
    const consumer = fakeConsumer();
    const run = async () => {
      throw new Error('no broker');
    };
    await expect(runRestartingAfterCrash({ ...consumer, run }, {}, { logger, group: 'g' })).rejects.toThrow(
      'no broker',
    );
    expect(consumer.listening(events.CRASH)).toBe(0);
  });
});
