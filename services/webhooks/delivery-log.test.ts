import { describe, expect, it } from 'vitest';
import { decodeDeliveryCursor, encodeDeliveryCursor } from './delivery-log.ts';

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
