import { describe, expect, it } from 'vitest';
import type { Webhook } from '../runtime/events/types.generated.ts';
import { createLogger } from '../runtime/logger.ts';
import type { JobContext } from './delivery-consumer.ts';
import type { Append, AttemptResult } from './delivery-worker.ts';
import { jobProcessor } from './job-processor.ts';
import { jobWith, webhookWith } from '../../test/support/webhook-records.ts';

const logger = createLogger('test', 'silent');
const context = (
  signal = new AbortController().signal,
  released: (what: 'slot' | 'key') => void = () => {},
): JobContext => ({
  topic: 'news.webhook-deliveries.v1',
  partition: 0,
  offset: '42',
  signal,
  lease: { releaseSlot: () => released('slot'), releaseKey: () => released('key') },
});

function setUp(result: AttemptResult | Error, failAppends = 0) {
  let attempts = 0;
  const events: string[] = [];
  const written: Append[][] = [];
  const remembered: Webhook[] = [];
  let failures = failAppends;
  const process = jobProcessor({
    worker: {
      attempt: async () => {
        events.push('attempt');
        attempts++;
        if (result instanceof Error) throw result;
        return result;
      },
    },
    append: async (appends) => {
      events.push('append');
      if (failures-- > 0) throw new Error('broker not available');
      written.push([...appends]);
    },
    directory: { remember: (w) => remembered.push(w) },
    logger,
    appendRetry: { maxAttempts: Infinity, initialBackoffMs: 1, maxBackoffMs: 1 },
  });
  return { process, written, remembered, events, attempts: () => attempts };
}

const outcome: Append = {
  kind: 'delivery',
  topic: 'news.webhook-deliveries.v1',
  record: jobWith({ status: 'succeeded', last_http_status: 200 }),
};

describe('jobProcessor', () => {
  it('retries the appends alone: the endpoint is not called again because Kafka hiccuped', async () => {
    const { process, written, attempts } = setUp({ status: 'succeeded', appends: [outcome] }, 3);
    await process(jobWith(), context());
    expect(attempts()).toBe(1);
    expect(written).toEqual([[outcome]]);
  });

  it('gives up without finishing when the partition is revoked, so the job stays uncommitted', async () => {
    const abort = new AbortController();
    const { process, written } = setUp({ status: 'succeeded', appends: [outcome] }, Number.POSITIVE_INFINITY);
    const running = process(jobWith(), context(abort.signal));
    abort.abort(new Error('revoked'));
    await expect(running).rejects.toThrow('revoked');
    expect(written).toEqual([]);
  });

  it('uses a disabled webhook state at once, after it was written', async () => {
    const state = webhookWith({ active: false, version: 2 });
    const { process, remembered } = setUp({
      status: 'disabled',
      appends: [{ kind: 'webhook', state }, outcome],
    });
    await process(jobWith(), context());
    expect(remembered).toEqual([state]);
  });

  it('dead-letters a job whose attempt failed unexpectedly, instead of retrying it forever', async () => {
    const { process, written } = setUp(new RangeError('attempt must be an integer'));
    await process(jobWith({ attempt: 2 }), context());
    expect(written).toHaveLength(1);
    expect(written[0]!.map((a) => a.kind)).toEqual(['dead-letter', 'delivery']);
    const logged = written[0]![1]!;
    expect(logged).toMatchObject({ record: { status: 'dead_lettered', attempt: 2 } });
    expect(logged.kind === 'delivery' && logged.record.last_error).toMatch(/attempt must be an integer/);
  });

  it('hands its slot and key back once the attempt is over, before appending, also after a failure', async () => {
    const results: (AttemptResult | Error)[] = [
      { status: 'succeeded', appends: [outcome] },
      new Error('bug'),
    ];
    for (const result of results) {
      const { process, events } = setUp(result, 1);
      await process(
        jobWith(),
        context(undefined, (what) => events.push(`released ${what}`)),
      );
      // The webhook's next job may start while this one's outcome is appended.
      expect(events).toEqual(['attempt', 'released key', 'append', 'append']);
    }
  });

  it("keeps the webhook's key after a 410 until the disabled state is written and remembered", async () => {
    const state = webhookWith({ active: false, version: 2 });
    const { process, events } = setUp({ status: 'disabled', appends: [{ kind: 'webhook', state }, outcome] });
    await process(
      jobWith(),
      context(undefined, (what) => events.push(`released ${what}`)),
    );
    // Only the slot: the key is released when the job settles, after the state was remembered.
    expect(events).toEqual(['attempt', 'released slot', 'append']);
  });
});
