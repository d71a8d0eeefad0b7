import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { PinnedAddresses } from './pinned-addresses.ts';

function lookup(pins: PinnedAddresses, hostname: string, options: { all?: boolean; family?: number }) {
  return new Promise<{ address: string | LookupAddress[]; family?: number }>((resolve, reject) =>
    pins.lookup(hostname, options, (error, address, family) =>
      error ? reject(error) : resolve({ address, family }),
    ),
  );
}

describe('PinnedAddresses', () => {
  const v4 = { address: '93.184.216.34', family: 4 as const };
  const v6 = { address: '2606:2800:220:1::1', family: 6 as const };

  it('answers only with the addresses pinned for the host', async () => {
    const pins = new PinnedAddresses();
    const unpin = pins.pin('Feeds.Example', [v4, v6]);
    expect(await lookup(pins, 'feeds.example', { all: true })).toEqual({ address: [v4, v6] });
    expect(await lookup(pins, 'feeds.example', {})).toEqual({ address: v4.address, family: 4 });
    expect(await lookup(pins, 'feeds.example', { family: 6 })).toEqual({ address: v6.address, family: 6 });
    unpin();
    await expect(lookup(pins, 'feeds.example', {})).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('never falls back to DNS for a host nobody checked', async () => {
    await expect(lookup(new PinnedAddresses(), 'localhost', { all: true })).rejects.toThrow(
      'no address for localhost was approved by the outbound URL policy',
    );
  });

  it('keeps a pin while any request for the host holds it, then forgets it', () => {
    const pins = new PinnedAddresses();
    const first = pins.pin('a.example', [v4]);
    const second = pins.pin('a.example', [v4]);
    first();
    first();
    expect(pins.size).toBe(1);
    second();
    expect(pins.size).toBe(0);
  });
});
