// The DNS answer the outbound-URL policy approved, handed to the socket so that the connection goes to
// exactly the address that was checked. Resolving again at connect time would let a hostile DNS server
// answer "public" to the check and "127.0.0.1" to the connect (DNS rebinding).
//
// One shared undici Agent serves every feed, so the approved answers live here, keyed by host name, for
// as long as a request to that host is in flight. A host with no approved answer gets no connection.
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { ResolvedAddress } from './outbound-url.ts';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export class PinnedAddresses {
  private readonly pins = new Map<string, { addresses: ResolvedAddress[]; holders: number }>();

  /** Approve `addresses` for `hostname` until the returned function is called. */
  pin(hostname: string, addresses: ResolvedAddress[]): () => void {
    const key = hostname.toLowerCase();
    const entry = this.pins.get(key);
    // Concurrent requests may have checked different (all approved) answers; the newest wins.
    if (entry) {
      entry.addresses = addresses;
      entry.holders += 1;
    } else {
      this.pins.set(key, { addresses, holders: 1 });
    }
    let unpinned = false;
    return () => {
      if (unpinned) return;
      unpinned = true;
      const current = this.pins.get(key);
      if (current && --current.holders === 0) this.pins.delete(key);
    };
  }

  get size(): number {
    return this.pins.size;
  }

  /** A `lookup` for net/tls.connect: answers only from pinned addresses, never from DNS. */
  readonly lookup = (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const entry = this.pins.get(hostname.toLowerCase());
    const wanted = options.family === 4 || options.family === 6 ? options.family : null;
    const addresses = (entry?.addresses ?? []).filter((a) => wanted === null || a.family === wanted);
    const first = addresses[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error(
        `no address for ${hostname} was approved by the outbound URL policy`,
      );
      error.code = 'ENOTFOUND';
      process.nextTick(callback, error, '', 0);
      return;
    }
    if (options.all === true) process.nextTick(callback, null, addresses);
    else process.nextTick(callback, null, first.address, first.family);
  };
}
