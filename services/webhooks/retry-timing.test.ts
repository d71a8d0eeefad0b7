import { describe, expect, it } from 'vitest';
import {
  RETRY_SPREAD,
  receiverWait,
  retryAfterNote,
  retryTime,
  spreadDelay,
  spreadDraw,
  type RetryStep,
} from './retry-timing.ts';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

const topic = (delay: string) => `news.webhook-deliveries.v1.retry-${delay}`;
const steps: RetryStep[] = [
  { topic: topic('5s'), delayMs: 5 * second },
  { topic: topic('5m'), delayMs: 5 * minute },
  { topic: topic('30m'), delayMs: 30 * minute },
  { topic: topic('2h'), delayMs: 2 * hour },
  { topic: topic('5h'), delayMs: 5 * hour },
  { topic: topic('10h'), delayMs: 10 * hour },
];
const step5m = steps[1]!;
const step10h = steps[5]!;

describe('spreadDraw', () => {
  it('is the same for the same delivery and attempt, on every call', () => {
    expect(spreadDraw('dl_1', 3)).toBe(spreadDraw('dl_1', 3));
  });

  it('differs between attempts of one delivery and between deliveries', () => {
    expect(spreadDraw('dl_1', 3)).not.toBe(spreadDraw('dl_1', 4));
    expect(spreadDraw('dl_1', 3)).not.toBe(spreadDraw('dl_2', 3));
  });

  it('spreads deliveries evenly over [0, 1)', () => {
    const draws = Array.from({ length: 10_000 }, (_, i) => spreadDraw(`dl_${i}`, 2));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThan(1);
    // Ten bins of about 1000 each: no bin is empty or holds a crowd.
    const bins = new Array<number>(10).fill(0);
    for (const d of draws) bins[Math.floor(d * 10)]! += 1;
    for (const count of bins) expect(count).toBeGreaterThan(850);
    for (const count of bins) expect(count).toBeLessThan(1150);
  });
});

describe('spreadDelay', () => {
  it('moves the delay by at most ±10%', () => {
    expect(RETRY_SPREAD).toBe(0.1);
    expect(spreadDelay(5 * minute, 0)).toBe(4.5 * minute);
    expect(spreadDelay(5 * minute, 0.5)).toBe(5 * minute);
    expect(spreadDelay(5 * minute, 0.999_999)).toBeLessThanOrEqual(5.5 * minute);
    expect(spreadDelay(5 * minute, 0.999_999)).toBeGreaterThan(5.49 * minute);
  });

  it('gives deliveries that failed together due times across the whole window', () => {
    const delays = Array.from({ length: 1000 }, (_, i) => spreadDelay(5 * minute, spreadDraw(`dl_${i}`, 3)));
    expect(Math.min(...delays)).toBeLessThan(4.55 * minute);
    expect(Math.max(...delays)).toBeGreaterThan(5.45 * minute);
    // No second of the window carries more than a few percent of them.
    const perSecond = new Map<number, number>();
    for (const d of delays)
      perSecond.set(Math.floor(d / second), (perSecond.get(Math.floor(d / second)) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThan(40);
  });
});

describe('receiverWait', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');

  it('reads Retry-After on 429 and 503, in seconds or as an HTTP date', () => {
    expect(receiverWait(429, '120', now)).toBe(120 * second);
    expect(receiverWait(503, 'Sun, 01 Mar 2026 14:00:00 GMT', now)).toBe(2 * hour);
  });

  it('does not read it on other statuses, or without a response', () => {
    for (const status of [500, 502, 504, 400, 301, null]) expect(receiverWait(status, '120', now)).toBeNull();
  });

  it('ignores a header that is absent or unreadable', () => {
    for (const value of [undefined, '', 'soon', '-5', '1.5', '12 34']) {
      expect(receiverWait(503, value, now)).toBeNull();
    }
  });
});

describe('retryTime', () => {
  const draw = 0.75; // +5% on the schedule's delay, +7.5% on an honoured Retry-After
  const planned = 5.25 * minute;

  it('without Retry-After: the spread delay, on the schedule’s topic', () => {
    expect(retryTime({ step: step5m, steps, draw, retryAfterMs: null })).toEqual({
      topic: topic('5m'),
      delayMs: planned,
      retryAfter: 'none',
    });
  });

  it('never shortens the schedule: a shorter (or zero) Retry-After leaves the spread delay', () => {
    for (const retryAfterMs of [0, 30 * second, 5 * minute]) {
      expect(retryTime({ step: step5m, steps, draw, retryAfterMs })).toEqual({
        topic: topic('5m'),
        delayMs: planned,
        retryAfter: 'within-plan',
      });
    }
  });

  it('honours a longer Retry-After, spread upwards only', () => {
    const time = retryTime({ step: step5m, steps, draw, retryAfterMs: 20 * minute });
    expect(time.retryAfter).toBe('postponed');
    expect(time.delayMs).toBe(1_290_000); // 20 min + 7.5%
    for (const d of [0, 0.3, 0.999]) {
      const { delayMs } = retryTime({ step: step5m, steps, draw: d, retryAfterMs: 20 * minute });
      expect(delayMs).toBeGreaterThanOrEqual(20 * minute);
      expect(delayMs).toBeLessThanOrEqual(22 * minute);
    }
  });

  it('moves a postponed job to the shortest retry topic whose delay covers the wait', () => {
    const at = (retryAfterMs: number) => retryTime({ step: step5m, steps, draw, retryAfterMs }).topic;
    // 5.1 min, spread to 5.48, is within the 5m topic's own spread (up to 5.5 min).
    expect(at(5.1 * minute)).toBe(topic('5m'));
    expect(at(20 * minute)).toBe(topic('30m'));
    // 31 min, spread to 33.3, is beyond the 30m topic's (up to 33 min).
    expect(at(31 * minute)).toBe(topic('2h'));
  });

  it('caps a Retry-After beyond the longest delay of the schedule, on the longest topic', () => {
    const time = retryTime({ step: step5m, steps, draw, retryAfterMs: 3 * 24 * hour });
    expect(time).toEqual({ topic: topic('10h'), delayMs: 38_700_000, retryAfter: 'capped' }); // 10 h + 7.5%
    // The cap holds on the longest step too, where the plan's own spread may reach further.
    for (const d of [0, 0.5, 0.999]) {
      const last = retryTime({ step: step10h, steps, draw: d, retryAfterMs: 3 * 24 * hour });
      expect(last.delayMs).toBeGreaterThanOrEqual(spreadDelay(10 * hour, d));
      expect(last.delayMs).toBeLessThanOrEqual(11 * hour);
      expect(last.topic).toBe(topic('10h'));
    }
  });

  it('never chooses a topic shorter than the schedule’s', () => {
    const time = retryTime({ step: step10h, steps, draw: 0.9, retryAfterMs: 10.5 * hour });
    expect(time.topic).toBe(topic('10h'));
  });
});

describe('retryAfterNote', () => {
  it('says when Retry-After postponed or was capped, and nothing otherwise', () => {
    expect(
      retryAfterNote({ topic: 't', delayMs: 2 * hour + 5 * minute, retryAfter: 'postponed' }, 2 * hour),
    ).toBe(' (Retry-After honoured: next attempt in 2 h 5 min)');
    expect(retryAfterNote({ topic: 't', delayMs: 10 * hour, retryAfter: 'capped' }, 3 * 24 * hour)).toBe(
      ' (Retry-After of 3 d capped: next attempt in 10 h)',
    );
    expect(retryAfterNote({ topic: 't', delayMs: 45 * second, retryAfter: 'within-plan' }, 10 * second)).toBe(
      '',
    );
    expect(retryAfterNote({ topic: 't', delayMs: 45 * second, retryAfter: 'none' }, null)).toBe('');
  });
});
