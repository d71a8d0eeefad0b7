import { describe, expect, it } from 'vitest';
import { decodeDeliveryCursor, encodeDeliveryCursor, toItem, type DeliveryRow } from './delivery-log.ts';

describe('delivery cursors', () => {
  it('round-trip, and refuse what this API did not issue for the delivery log', () => {
    const cursor = { createdAt: 1_796_000_000, id: 'msg_0123456789abcdef' };
    expect(decodeDeliveryCursor(encodeDeliveryCursor(cursor))).toEqual(cursor);
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    // A story cursor's shape, junk, a negative time, an empty id, a fraction.
    expect(decodeDeliveryCursor(forged([1, 1, 'st_1']))).toBeNull();
    expect(decodeDeliveryCursor('not a cursor')).toBeNull();
    expect(decodeDeliveryCursor(forged(['deliveries', -1, 'msg_1']))).toBeNull();
    expect(decodeDeliveryCursor(forged(['deliveries', 1, '']))).toBeNull();
    expect(decodeDeliveryCursor(forged(['deliveries', 1.5, 'msg_1']))).toBeNull();
    expect(decodeDeliveryCursor(forged(['deliveries', 2 ** 32, 'msg_1']))).toBeNull();
  });
});

describe('a delivery as listed', () => {
  const row = (status: string): DeliveryRow => ({
    delivery_id: 'msg_1',
    webhook_id: 'wh_1',
    tenant_id: 'ten_1',
    event_type: 'news.alert',
    event_id: 'al_1',
    status,
    attempts: '3',
    last_http_status: status === 'succeeded' ? 200 : null,
    // the newest error the log holds, an earlier attempt's
    last_error: 'connection closed by 127.0.0.1:8121',
    first_at: '1796000000',
    last_at: '1796000300',
  });

  it('shows no error once it succeeded, and the last one while it is still being tried', () => {
    expect(toItem(row('succeeded'))).toMatchObject({
      status: 'succeeded',
      last_http_status: 200,
      last_error: null,
    });
    expect(toItem(row('pending')).last_error).toBe('connection closed by 127.0.0.1:8121');
  });
});
