import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { KeyedSlots } from './keyed-slots.ts';
import { PartitionLane, type LaneJob } from './partition-lane.ts';

const logger = createLogger('test', 'silent');

function gate() {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { open, fail, opened };
}

function setUp(
  options: {
    limit?: number;
    highWater?: number;
    commitIntervalMs?: number;
    commit?: (next: bigint) => Promise<void>;
  } = {},
) {
  const commits: bigint[] = [];
  const fetching: boolean[] = [];
  const lane = new PartitionLane({
    slots: new KeyedSlots(options.limit ?? 16),
    commit: async (next) => {
      await options.commit?.(next);
      commits.push(next);
    },
    commitIntervalMs: options.commitIntervalMs,
    setFetching: (on) => fetching.push(on),
    logger,
    highWater: options.highWater,
  });
  return { lane, commits, fetching };
}

/** A job that runs until its gate opens, recording when it started. */
function job(offset: number, key: string, dueAt: number, started: number[], g = gate()) {
  const entry: LaneJob = {
    offset: BigInt(offset),
    key,
    dueAt,
    run: async () => {
      started.push(offset);
      await g.opened;
    },
  };
  return { entry, ...g };
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

describe('PartitionLane', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts a job only when it is due, and the jobs behind it after it', async () => {
    const { lane } = setUp();
    const started: number[] = [];
    const first = job(10, 'wh_a', 1_005_000, started);
    const second = job(11, 'wh_b', 1_006_000, started);
    lane.push([first.entry, second.entry]);
    await settle();
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toEqual([10, 11]);
  });

  it('starts a job due before the one ahead of it at its own time, not with that one', async () => {
    // Spread due times (retry-timing.ts): offset 11 was appended after 10 but is due 3 s earlier.
    const { lane } = setUp();
    const started: number[] = [];
    const later = job(10, 'wh_a', 1_008_000, started);
    const sooner = job(11, 'wh_b', 1_005_000, started);
    const soonest = job(12, 'wh_c', 1_002_000, started);
    lane.push([later.entry, sooner.entry, soonest.entry]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(started).toEqual([12]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(started).toEqual([12, 11]);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(started).toEqual([12, 11]);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toEqual([12, 11, 10]);
  });

  it('starts jobs due together in offset order, one webhook at a time', async () => {
    const { lane } = setUp();
    const started: number[] = [];
    const jobs = [job(20, 'wh_a', 1_003_000, started), job(21, 'wh_a', 1_001_000, started)];
    const third = job(22, 'wh_b', 1_001_000, started);
    lane.push([...jobs.map((j) => j.entry), third.entry]);
    await vi.advanceTimersByTimeAsync(5_000);
    // 21 was due first and holds wh_a; 20 waits for it, not for a slot.
    expect(started).toEqual([21, 22]);
    jobs[1]!.open();
    await settle();
    expect(started).toEqual([21, 22, 20]);
  });

  it('does not commit past a job still waiting, however many behind it are finished', async () => {
    const { lane, commits } = setUp();
    const started: number[] = [];
    const waiting = job(30, 'wh_a', 1_010_000, started);
    const done = job(31, 'wh_b', 0, started);
    lane.push([waiting.entry, done.entry]);
    done.open();
    await settle();
    expect(started).toEqual([31]);
    expect(commits).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    waiting.open();
    await settle();
    expect(commits).toEqual([32n]);
  });

  it('commits only past finished jobs, never past one still running', async () => {
    const { lane, commits } = setUp();
    const started: number[] = [];
    const slow = job(0, 'wh_slow', 0, started);
    const fast = job(1, 'wh_fast', 0, started);
    lane.push([slow.entry, fast.entry, { offset: 2n, key: 'wh_x', dueAt: null }]);
    await settle();
    expect(started).toEqual([0, 1]);
    fast.open();
    await settle();
    expect(commits).toEqual([]);
    expect(lane.commitPoint).toBe(null);
    slow.open();
    await settle();
    expect(commits).toEqual([3n]);
  });

  it('commits the records with nothing to do at once', async () => {
    const { lane, commits } = setUp();
    lane.push([
      { offset: 5n, key: 'wh_a', dueAt: null },
      { offset: 7n, key: 'wh_a', dueAt: null },
    ]);
    await settle();
    expect(commits).toEqual([8n]);
  });

  it('leaves a job whose run failed uncommitted, and the ones after it too', async () => {
    const { lane, commits } = setUp();
    const started: number[] = [];
    const failing = job(0, 'wh_a', 0, started);
    const after = job(1, 'wh_b', 0, started);
    lane.push([failing.entry, after.entry]);
    failing.fail(new Error('aborted'));
    after.open();
    await settle();
    expect(commits).toEqual([]);
  });

  it('pauses fetching while it holds highWater jobs, and resumes at half', async () => {
    const { lane, fetching } = setUp({ highWater: 4, limit: 1 });
    const started: number[] = [];
    const jobs = [0, 1, 2, 3].map((i) => job(i, 'wh_a', 0, started));
    lane.push(jobs.map((j) => j.entry));
    await settle();
    expect(fetching).toEqual([false]);
    jobs[0]!.open();
    await settle();
    expect(fetching).toEqual([false]);
    jobs[1]!.open();
    await settle();
    expect(fetching).toEqual([false, true]);
  });

  it('after drop(), starts nothing more and commits nothing more', async () => {
    const { lane, commits } = setUp();
    const started: number[] = [];
    const running = job(0, 'wh_a', 0, started);
    const later = job(1, 'wh_b', 1_010_000, started);
    lane.push([running.entry, later.entry]);
    await settle();
    lane.drop();
    running.open();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(started).toEqual([0]);
    expect(commits).toEqual([]);
  });

  it('lets running jobs finish and commit when it stops starting new ones', async () => {
    const { lane, commits } = setUp();
    const started: number[] = [];
    const running = job(0, 'wh_a', 0, started);
    const later = job(1, 'wh_b', 1_001_000, started);
    lane.push([running.entry, later.entry]);
    await settle();
    lane.stopStarting();
    const idle = lane.idle();
    running.open();
    await idle;
    await lane.flush();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started).toEqual([0]);
    expect(commits).toEqual([1n]);
  });

  it('commits at once after a quiet spell, then at most once per interval, up to the latest finished job', async () => {
    const { lane, commits } = setUp({ commitIntervalMs: 500 });
    lane.push([{ offset: 0n, key: 'wh_a', dueAt: null }]);
    await settle();
    expect(commits).toEqual([1n]);
    lane.push([{ offset: 1n, key: 'wh_a', dueAt: null }]);
    lane.push([{ offset: 2n, key: 'wh_b', dueAt: null }]);
    await vi.advanceTimersByTimeAsync(499);
    expect(commits).toEqual([1n]);
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([1n, 3n]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(commits).toEqual([1n, 3n]);
    lane.push([{ offset: 3n, key: 'wh_a', dueAt: null }]);
    await settle();
    expect(commits).toEqual([1n, 3n, 4n]);
  });

  it('flush() commits what is finished without waiting for the interval', async () => {
    const { lane, commits } = setUp({ commitIntervalMs: 60_000 });
    lane.push([{ offset: 0n, key: 'wh_a', dueAt: null }]);
    await settle();
    lane.push([{ offset: 1n, key: 'wh_a', dueAt: null }]);
    await settle();
    expect(commits).toEqual([1n]);
    await lane.flush();
    expect(commits).toEqual([1n, 2n]);
  });

  it('tries a failed commit again a second later', async () => {
    let failures = 1;
    const { lane, commits } = setUp({
      commit: async () => {
        if (failures-- > 0) throw new Error('rebalance in progress');
      },
    });
    lane.push([{ offset: 0n, key: 'wh_a', dueAt: null }]);
    await settle();
    expect(commits).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(commits).toEqual([1n]);
  });
});
