import { readFileSync } from 'node:fs';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../runtime/events/types.generated.ts';
import { jobWith } from '../../test/support/webhook-records.ts';
import { statusPeek } from './status-peek.ts';

const deliveryType = avro.Type.forSchema(
  JSON.parse(
    readFileSync(new URL('../../schemas/news.webhook-deliveries.v1.avsc', import.meta.url), 'utf8'),
  ) as avro.Schema,
);
const statuses: WebhookDelivery['status'][] = [
  'pending',
  'succeeded',
  'failed_retrying',
  'dead_lettered',
  'disabled',
  'unknown',
];

describe('statusPeek', () => {
  it("reads every status of the delivery schema's records, whatever comes before it", () => {
    const peek = statusPeek(deliveryType)!;
    expect(peek).not.toBeNull();
    const payloads = ['', '{}', 'ü😀'.repeat(40), 'x'.repeat(70_000)];
    for (const status of statuses)
      for (const payload_json of payloads)
        for (const attempt of [1, 64, 2 ** 30])
          for (const due_at of [0, -1, 1_795_777_581_412, 2 ** 52]) {
            const record = jobWith({ status, payload_json, attempt, due_at, delivery_id: `msg_${attempt}` });
            const body = deliveryType.toBuffer(record);
            const framed = Buffer.concat([Buffer.from([0, 0, 0, 0, 7]), body]);
            expect(peek(framed, 5)).toBe(status);
          }
  });

  it('says nothing of bytes cut short, rather than misread them', () => {
    const peek = statusPeek(deliveryType)!;
    const body = deliveryType.toBuffer(jobWith({ status: 'succeeded' }));
    for (let end = 0; end < body.length - 20; end++) {
      const read = peek(body.subarray(0, end), 0);
      expect(read === undefined || read === 'succeeded').toBe(true);
    }
  });

  it('refuses a schema with a field before status it cannot skip', () => {
    const type = avro.Type.forSchema({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'x', type: ['null', 'string'] },
        { name: 'status', type: { type: 'enum', name: 'S', symbols: ['pending'] } },
      ],
    });
    expect(statusPeek(type)).toBeNull();
  });
});
