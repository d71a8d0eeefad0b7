import { describe, expect, it } from 'vitest';
import { AppendBatcher, type RawRecord } from '../runtime/kafka/append-batcher.ts';
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import { SharedSends } from './shared-sends.ts';

const codec = {
  encode: async (topic: string, value: unknown) => Buffer.from(`${topic}:${JSON.stringify(value)}`),
};
const job = (id: string) => ({ delivery_id: id }) as unknown as WebhookDelivery;

describe('SharedSends', () => {
  it('puts the jobs of handlers sending together into one request, each handler’s in order', async () => {
    const requests: RawRecord[][] = [];
    const sends = new SharedSends(
      codec,
      new AppendBatcher(async (records) => {
        requests.push(records);
      }),
    );
    const topic = 'news.webhook-deliveries.v1';
    await Promise.all([
      sends.send(topic, [
        { key: 'wh_1', value: job('a') },
        { key: 'wh_2', value: job('b') },
      ]),
      sends.send(topic, [{ key: 'wh_1', value: job('c') }]),
    ]);
    expect(requests).toHaveLength(1);
    // Across handlers in whichever order their encoding finished; within one, in its order.
    const sent = requests[0]!.map((r) => `${r.key} ${r.value!.toString()}`);
    expect([...sent].sort()).toEqual([
      `wh_1 ${topic}:{"delivery_id":"a"}`,
      `wh_1 ${topic}:{"delivery_id":"c"}`,
      `wh_2 ${topic}:{"delivery_id":"b"}`,
    ]);
    expect(sent.indexOf(`wh_1 ${topic}:{"delivery_id":"a"}`)).toBe(
      sent.indexOf(`wh_2 ${topic}:{"delivery_id":"b"}`) - 1,
    );
  });

  it('fails every handler whose jobs were in a request that failed, and sends nothing for none', async () => {
    let calls = 0;
    const sends = new SharedSends(
      codec,
      new AppendBatcher(async () => {
        calls++;
        throw new Error('broker gone');
      }),
    );
    await sends.send('news.webhook-deliveries.v1', []);
    expect(calls).toBe(0);
    const results = await Promise.allSettled([
      sends.send('news.webhook-deliveries.v1', [{ key: 'wh_1', value: job('a') }]),
      sends.send('news.webhook-deliveries.v1', [{ key: 'wh_2', value: job('b') }]),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toBe(1);
  });
});
