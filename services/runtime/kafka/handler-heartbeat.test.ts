import { describe, expect, it } from 'vitest';
import { retryBatch, type HandlerRetry } from './handler-failures.ts';
import { handlerHeartbeat } from './handler-heartbeat.ts';

/** What KafkaJS throws from heartbeat() once the coordinator has forgotten the member. */
const unknownMember = () =>
  Object.assign(new Error('The coordinator is not aware of this member'), {
    name: 'KafkaJSProtocolError',
    type: 'UNKNOWN_MEMBER_ID',
  });

const retry: HandlerRetry = {
  policy: { maxAttempts: 3, initialBackoffMs: 1, maxBackoffMs: 1 },
  signal: new AbortController().signal,
  whileWaiting: async () => undefined,
  onFailure: () => undefined,
  sleep: async () => undefined,
};

describe("a handler's heartbeat", () => {
  it('reports a failed heartbeat and lets the handler finish its batch', async () => {
    const failures: unknown[] = [];
    const heartbeat = handlerHeartbeat(
      async () => {
        throw unknownMember();
      },
      (error) => failures.push(error),
    );
    let handled = 0;
    // A handler that beats after each article, as the enricher does.
    const handle = async () => {
      for (let i = 0; i < 3; i++) {
        handled++;
        await heartbeat();
      }
    };
    await expect(retryBatch(handle, retry)).resolves.toEqual({ kind: 'processed' });
    expect(handled).toBe(3);
    expect(failures).toHaveLength(3);
  });

  it('would otherwise fail the batch as if its messages were bad (what happened before)', async () => {
    const raw = async () => {
      throw unknownMember();
    };
    const outcome = await retryBatch(async () => raw(), retry);
    expect(outcome.kind).toBe('split'); // then one message at a time, each to its dead letter
  });

  it('passes a successful heartbeat through, and does not hide the handler’s own failures', async () => {
    let beats = 0;
    const heartbeat = handlerHeartbeat(
      async () => void beats++,
      () => undefined,
    );
    await heartbeat();
    expect(beats).toBe(1);
    const bad = new Error('the provider refused the article');
    const outcome = await retryBatch(async () => {
      await heartbeat();
      throw bad;
    }, retry);
    expect(outcome).toEqual({ kind: 'split', error: bad });
    expect(beats).toBe(4);
  });
});
