import { describe, expect, it } from 'vitest';
import { defaultRetrySchedule, topicCatalog } from '../runtime/kafka/topics.ts';
import { createRetryPlan, deliveryDeadLetterTopic } from './retry-plan.ts';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

describe('createRetryPlan with the default schedule', () => {
  const plan = createRetryPlan(defaultRetrySchedule);

  it('makes 8 attempts in all: the first delivery and one per delay', () => {
    expect(defaultRetrySchedule).toEqual(['5s', '5m', '30m', '2h', '5h', '10h', '10h']);
    expect(plan.maxAttempts).toBe(8);
  });

  it('sends attempt k+1 to the retry topic of the k-th delay, due after that delay', () => {
    const decisions = [1, 2, 3, 4, 5, 6, 7].map((attempt) => plan.afterFailure(attempt));
    expect(decisions).toEqual([
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-5s', delayMs: 5 * second, attempt: 2 },
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-5m', delayMs: 5 * minute, attempt: 3 },
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-30m', delayMs: 30 * minute, attempt: 4 },
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-2h', delayMs: 2 * hour, attempt: 5 },
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-5h', delayMs: 5 * hour, attempt: 6 },
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-10h', delayMs: 10 * hour, attempt: 7 },
      { kind: 'retry', topic: 'news.webhook-deliveries.v1.retry-10h', delayMs: 10 * hour, attempt: 8 },
    ]);
  });

  it('dead-letters the job when the 8th attempt fails', () => {
    expect(plan.afterFailure(8)).toEqual({ kind: 'dead-letter', topic: 'news.webhook-deliveries.v1.dlq' });
  });

  it('only names topics that provisioning creates', () => {
    const provisioned = new Set(topicCatalog(defaultRetrySchedule).map((t) => t.name));
    for (let attempt = 1; attempt <= plan.maxAttempts; attempt += 1) {
      expect(provisioned).toContain(plan.afterFailure(attempt).topic);
    }
    expect(provisioned).toContain(deliveryDeadLetterTopic);
  });

  it('refuses attempt numbers outside 1..8', () => {
    for (const attempt of [0, -1, 9, 1.5, Number.NaN]) {
      expect(() => plan.afterFailure(attempt)).toThrow(RangeError);
    }
  });
});

describe('createRetryPlan with a shortened schedule', () => {
  it('follows whatever schedule it is given', () => {
    const plan = createRetryPlan(['200ms', '1s']);
    expect(plan.maxAttempts).toBe(3);
    expect(plan.afterFailure(1)).toEqual({
      kind: 'retry',
      topic: 'news.webhook-deliveries.v1.retry-200ms',
      delayMs: 200,
      attempt: 2,
    });
    expect(plan.afterFailure(2)).toEqual({
      kind: 'retry',
      topic: 'news.webhook-deliveries.v1.retry-1s',
      delayMs: 1000,
      attempt: 3,
    });
    expect(plan.afterFailure(3)).toEqual({ kind: 'dead-letter', topic: deliveryDeadLetterTopic });
  });

  it('with no delays, dead-letters after the first failure', () => {
    const plan = createRetryPlan([]);
    expect(plan.maxAttempts).toBe(1);
    expect(plan.afterFailure(1)).toEqual({ kind: 'dead-letter', topic: deliveryDeadLetterTopic });
  });

  it('refuses a schedule with a delay that is not a duration, when built', () => {
    expect(() => createRetryPlan(['5s', 'soon'])).toThrow(/"soon" is not a duration/);
  });
});

describe('RetryPlan.nextAttempt', () => {
  const plan = createRetryPlan(defaultRetrySchedule);
  const provisioned = new Set(topicCatalog(defaultRetrySchedule).map((t) => t.name));

  it('computes the same time for the same delivery and attempt, as a replay must', () => {
    const failed = { attempt: 2, deliveryId: 'dl_replayed', retryAfterMs: null };
    expect(plan.nextAttempt(failed)).toEqual(plan.nextAttempt({ ...failed }));
  });

  it('spreads the deliveries of one step within ±10% of its delay, on its topic', () => {
    const delays = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const decision = plan.nextAttempt({ attempt: 2, deliveryId: `dl_${i}`, retryAfterMs: null });
      expect(decision).toMatchObject({
        kind: 'retry',
        topic: 'news.webhook-deliveries.v1.retry-5m',
        attempt: 3,
      });
      if (decision.kind !== 'retry') continue;
      expect(decision.delayMs).toBeGreaterThanOrEqual(4.5 * minute);
      expect(decision.delayMs).toBeLessThanOrEqual(5.5 * minute);
      delays.add(decision.delayMs);
    }
    expect(delays.size).toBeGreaterThan(190);
  });

  it('keeps the number of attempts whatever the receiver asks', () => {
    for (const retryAfterMs of [null, 0, 3 * hour, 99 * hour]) {
      const decisions = [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) =>
        plan.nextAttempt({ attempt, deliveryId: 'dl_1', retryAfterMs }),
      );
      expect(decisions.map((d) => (d.kind === 'retry' ? d.attempt : d.kind))).toEqual([
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        'dead-letter',
      ]);
      for (const d of decisions) expect(provisioned).toContain(d.topic);
    }
  });

  it('puts a retry postponed by Retry-After on a retry topic that waits as long', () => {
    const decision = plan.nextAttempt({ attempt: 1, deliveryId: 'dl_1', retryAfterMs: 3 * hour });
    expect(decision).toMatchObject({
      kind: 'retry',
      topic: 'news.webhook-deliveries.v1.retry-5h',
      attempt: 2,
      retryAfter: 'postponed',
    });
    if (decision.kind === 'retry') {
      expect(decision.delayMs).toBeGreaterThanOrEqual(3 * hour);
      expect(decision.delayMs).toBeLessThanOrEqual(3.3 * hour);
    }
  });
});
