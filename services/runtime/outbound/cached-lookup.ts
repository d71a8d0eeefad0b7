// A host's addresses, remembered for a short while. Every webhook delivery and every feed poll checks
// its URL's host (outbound-url.ts), and the system lookup behind that check is getaddrinfo on libuv's
// thread pool: four threads, shared with file I/O and zlib, each held for the resolver's round trip. A
// dispatcher sending thousands of deliveries a second to a few receivers asked the resolver the same
// question thousands of times a second, and with a resolver 20 ms away the pool answered at most ~200
// lookups a second, whatever the receivers could take. (The same lookup of `localhost`, answered from
// /etc/hosts, costs 41 µs of CPU.)
//
// Safe against rebinding as before: what is remembered is what the policy checked, and connections go
// to the addresses of the check (PinnedAddresses), never to a fresh answer. getaddrinfo gives no TTL,
// so answers are kept for a fixed time, short enough that a receiver moving to new addresses is
// followed within it. Failures are not remembered: a name that does not resolve yet is asked again on
// the next attempt. Lookups of the same host under way at once share one question.
import { integer } from '../config.ts';

export interface CachedLookupOptions {
  /** How long an answer is used; 0 turns the cache off. */
  ttlMs: number;
  /** Hosts remembered at most; past it the oldest answer is forgotten first. */
  capacity?: number;
  clock?: () => number;
}

/** A host's lookup (outbound-url.ts's HostLookup), whatever an address is. */
type Lookup<A> = (hostname: string) => Promise<A[]>;

interface Answer<A> {
  addresses: A[];
  expiresAt: number;
}

export const defaultDnsCacheMs = 30_000;

/** The setting of each service that checks outbound URLs. */
export const dnsCacheSetting = integer(defaultDnsCacheMs / 1000, 0, 3_600).describe(
  'How long the addresses a host name resolved to are used for outbound requests (webhooks, feeds) before it is resolved again; 0: every request resolves.',
);
const defaultCapacity = 10_000;

export function cachedLookup<A>(lookup: Lookup<A>, options: CachedLookupOptions): Lookup<A> {
  const { ttlMs } = options;
  if (!Number.isInteger(ttlMs) || ttlMs < 0) throw new Error(`ttlMs must be an integer ≥ 0, got ${ttlMs}`);
  if (ttlMs === 0) return lookup;
  const capacity = options.capacity ?? defaultCapacity;
  const clock = options.clock ?? Date.now;
  const answers = new Map<string, Answer<A>>();
  const asking = new Map<string, Promise<A[]>>();

  const ask = (hostname: string): Promise<A[]> => {
    const question = lookup(hostname).then(
      (addresses) => {
        asking.delete(hostname);
        // Re-inserted, so that the Map's order stays the order of the answers' age.
        answers.delete(hostname);
        if (answers.size >= capacity) answers.delete(answers.keys().next().value!);
        answers.set(hostname, { addresses, expiresAt: clock() + ttlMs });
        return addresses;
      },
      (error: unknown) => {
        asking.delete(hostname);
        throw error;
      },
    );
    asking.set(hostname, question);
    return question;
  };

  return (hostname) => {
    const held = answers.get(hostname);
    // A copy: a caller may keep or change what it gets.
    if (held !== undefined && held.expiresAt > clock()) return Promise.resolve(held.addresses.slice());
    return (asking.get(hostname) ?? ask(hostname)).then((addresses) => addresses.slice());
  };
}
