import { describe, expect, it } from 'vitest';
import { cachedLookup } from './cached-lookup.ts';
import type { ResolvedAddress } from './outbound-url.ts';

/** A resolver that counts its questions and answers from a table (or fails), when told to. */
function fakeResolver(table: Record<string, string[]>) {
  const asked: string[] = [];
  const pending: (() => void)[] = [];
  let held = false;
  const lookup = (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const answer = () =>
      table[hostname]
        ? Promise.resolve(table[hostname].map((address) => ({ address, family: 4 as const })))
        : Promise.reject(
            Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
          );
    if (!held) return answer();
    return new Promise((resolve, reject) => {
      pending.push(() => void answer().then(resolve, reject));
    });
  };
  return {
    lookup,
    asked,
    hold: () => (held = true),
    release: () => {
      held = false;
      for (const go of pending.splice(0)) go();
    },
  };
}

const addressesOf = (answers: ResolvedAddress[]) => answers.map((a) => a.address);

describe('cachedLookup', () => {
  it('answers a host from memory until its time is up, then asks again', async () => {
    let now = 1_000;
    const table = { 'hooks.example.com': ['93.184.216.34'] };
    const resolver = fakeResolver(table);
    const lookup = cachedLookup(resolver.lookup, { ttlMs: 30_000, clock: () => now });

    expect(addressesOf(await lookup('hooks.example.com'))).toEqual(['93.184.216.34']);
    now += 29_999;
    expect(addressesOf(await lookup('hooks.example.com'))).toEqual(['93.184.216.34']);
    expect(resolver.asked).toEqual(['hooks.example.com']);

    // The receiver moved: followed once the answer has expired.
    table['hooks.example.com'] = ['93.184.216.35'];
    now += 1;
    expect(addressesOf(await lookup('hooks.example.com'))).toEqual(['93.184.216.35']);
    expect(resolver.asked).toHaveLength(2);
  });

  it('does not remember a failure: the next lookup asks again', async () => {
    const table: Record<string, string[]> = {};
    const resolver = fakeResolver(table);
    const lookup = cachedLookup(resolver.lookup, { ttlMs: 30_000 });

    await expect(lookup('new.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    table['new.example.com'] = ['93.184.216.36'];
    expect(addressesOf(await lookup('new.example.com'))).toEqual(['93.184.216.36']);
    expect(resolver.asked).toEqual(['new.example.com', 'new.example.com']);
  });

  it('asks once for lookups of the same host under way together, and shares a failure too', async () => {
    const table: Record<string, string[]> = { 'a.example.com': ['93.184.216.1'] };
    const resolver = fakeResolver(table);
    const lookup = cachedLookup(resolver.lookup, { ttlMs: 30_000 });

    resolver.hold();
    const together = Promise.all([lookup('a.example.com'), lookup('a.example.com'), lookup('a.example.com')]);
    const failing = Promise.allSettled([lookup('b.example.com'), lookup('b.example.com')]);
    resolver.release();
    expect((await together).map(addressesOf)).toEqual([['93.184.216.1'], ['93.184.216.1'], ['93.184.216.1']]);
    expect((await failing).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(resolver.asked).toEqual(['a.example.com', 'b.example.com']);
  });

  it('forgets the oldest answer first past its capacity', async () => {
    const resolver = fakeResolver({ a: ['1.1.1.1'], b: ['2.2.2.2'], c: ['3.3.3.3'] });
    const lookup = cachedLookup(resolver.lookup, { ttlMs: 30_000, capacity: 2 });
    for (const host of ['a', 'b', 'c', 'b', 'c', 'a']) await lookup(host);
    // a was forgotten when c came; b and c were held.
    expect(resolver.asked).toEqual(['a', 'b', 'c', 'a']);
  });

  it('hands out copies, so a caller cannot change what the next one gets', async () => {
    const lookup = cachedLookup(fakeResolver({ a: ['1.1.1.1'] }).lookup, { ttlMs: 30_000 });
    const first = await lookup('a');
    first.push({ address: '10.0.0.1', family: 4 });
    expect(addressesOf(await lookup('a'))).toEqual(['1.1.1.1']);
  });

  it('asks every time when turned off, and refuses a negative time', async () => {
    const resolver = fakeResolver({ a: ['1.1.1.1'] });
    const lookup = cachedLookup(resolver.lookup, { ttlMs: 0 });
    await lookup('a');
    await lookup('a');
    expect(resolver.asked).toEqual(['a', 'a']);
    expect(() => cachedLookup(resolver.lookup, { ttlMs: -1 })).toThrow(/ttlMs/);
  });
});
