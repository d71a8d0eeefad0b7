import { describe, expect, it } from 'vitest';
import { createLogger } from '../runtime/logger.ts';
import { formatDuration, formatProgress, ProgressMeter, ProgressReporter } from './progress.ts';

/** A clock the test moves by hand. */
const manualClock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, tick: (ms: number) => void (now += ms) };
};

describe('ProgressMeter', () => {
  it('knows no rate or ETA before a second has passed', () => {
    const clock = manualClock();
    const meter = new ProgressMeter(1_000, clock.now);
    clock.tick(500);
    meter.advance(100);
    expect(meter.snapshot()).toEqual({
      done: 100,
      total: 1_000,
      elapsedMs: 500,
      ratePerSecond: null,
      etaMs: null,
    });
  });

  it('estimates the time left from the rate so far', () => {
    const clock = manualClock();
    const meter = new ProgressMeter(10_000, clock.now);
    clock.tick(2_000);
    meter.advance(2_000);
    const p = meter.snapshot();
    expect(p.ratePerSecond).toBe(1_000);
    expect(p.etaMs).toBe(8_000);
  });

  it('measures the rate over the recent window, so the ETA follows a change of pace', () => {
    const clock = manualClock();
    const meter = new ProgressMeter(100_000, clock.now, 10_000);
    for (let s = 0; s < 20; s++) {
      clock.tick(1_000);
      meter.advance(100); // slow at first: 100/s
    }
    for (let s = 0; s < 10; s++) {
      clock.tick(1_000);
      meter.advance(5_000); // then 5,000/s
    }
    const p = meter.snapshot();
    expect(p.done).toBe(52_000);
    expect(p.ratePerSecond).toBe(5_000); // not the 1,733/s average since the start
    expect(p.etaMs).toBe(((100_000 - 52_000) / 5_000) * 1_000);
  });

  it('shows a stall as a falling rate rather than a frozen one', () => {
    const clock = manualClock();
    const meter = new ProgressMeter(10_000, clock.now, 10_000);
    clock.tick(5_000);
    meter.advance(5_000);
    clock.tick(5_000); // nothing for 5 s
    expect(meter.snapshot().ratePerSecond).toBe(500);
  });

  it('never counts past the total, and says done when done', () => {
    const clock = manualClock();
    const meter = new ProgressMeter(10, clock.now);
    clock.tick(2_000);
    meter.advance(25);
    expect(meter.snapshot()).toMatchObject({ done: 10, etaMs: 0 });
  });

  it('has an ETA of zero for an empty replay', () => {
    expect(new ProgressMeter(0).snapshot()).toMatchObject({ done: 0, total: 0, etaMs: 0 });
  });
});

describe('formatProgress', () => {
  it('shows done / total, percent, rate and ETA on one line', () => {
    expect(
      formatProgress('replay', {
        done: 12_345,
        total: 200_000,
        elapsedMs: 1_500,
        ratePerSecond: 8_100.4,
        etaMs: 23_400,
      }),
    ).toBe('replay  12,345 / 200,000 events  6.2%  8,100 events/s  ETA 0:23');
  });

  it('shows dashes while the rate is unknown, and 100% for nothing to do', () => {
    expect(
      formatProgress('catch-up', { done: 0, total: 0, elapsedMs: 0, ratePerSecond: null, etaMs: null }),
    ).toBe('catch-up  0 / 0 events  100.0%  - events/s  ETA -:--');
  });
});

describe('formatDuration', () => {
  it('writes m:ss under an hour and h:mm:ss beyond', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(75_000)).toBe('1:15');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });
});

describe('ProgressReporter', () => {
  const written = (isTTY: boolean, columns?: number) => {
    const chunks: string[] = [];
    const lines: unknown[] = [];
    const logger = createLogger('test', 'info', {
      write: (line: string) => void lines.push(JSON.parse(line)),
    });
    const clock = manualClock();
    const meter = new ProgressMeter(1_000, clock.now);
    const reporter = new ProgressReporter(
      'replay',
      meter,
      { isTTY, columns, write: (t) => chunks.push(t) },
      logger,
    );
    clock.tick(2_000);
    meter.advance(500);
    reporter.render();
    reporter.finish();
    return { chunks, lines };
  };

  it('rewrites one line in place on a terminal, cut to its width, and ends it when finished', () => {
    const { chunks, lines } = written(true, 30);
    expect(chunks[0]).toBe('\rreplay  500 / 1,000 events  5\x1b[K');
    expect(chunks.at(-1)).toBe('\n');
    expect(lines).toEqual([]);
  });

  it('logs structured progress lines when not on a terminal', () => {
    const { chunks, lines } = written(false);
    expect(chunks).toEqual([]);
    expect(lines[0]).toMatchObject({
      phase: 'replay',
      done: 500,
      total: 1_000,
      percent: 50,
      eventsPerSecond: 250,
      etaSeconds: 2,
    });
  });
});
