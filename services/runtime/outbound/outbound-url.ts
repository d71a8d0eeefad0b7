// Which URLs this service may connect to on a user's behalf. Feed URLs and webhook URLs are chosen by
// customers, so without this check they could make us fetch our own admin ports, a neighbour on the
// private network or the cloud metadata endpoint (169.254.169.254) and hand back what it said.
//
// The check resolves the host and refuses if ANY answer is not a public unicast address: a name that
// resolves to one public and one private address would otherwise let the connect pick the private one.
// Callers must then connect to the addresses returned here (not resolve again), or a DNS answer that
// changes between check and connect (rebinding) walks straight past the check.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { addressRange, inRanges, type AddressRange } from '../address-ranges.ts';
import { cachedLookup, defaultDnsCacheMs } from './cached-lookup.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

export type OutboundCheck =
  | { ok: true; url: URL; hostname: string; addresses: ResolvedAddress[] }
  /**
   * `refused`: the policy forbids it (permanent until the allow-list changes);
   * `unresolved`: the host has no address right now (DNS failure: worth retrying later);
   * `invalid`: not a URL at all.
   */
  | { ok: false; kind: 'refused' | 'unresolved' | 'invalid'; reason: string };

export interface OutboundUrlPolicy {
  check(url: string | URL, options?: { lookup?: HostLookup }): Promise<OutboundCheck>;
}

export interface OutboundUrlPolicyOptions {
  /** CIDRs (`127.0.0.0/8`), single addresses (`::1`) or host names (`localhost`) permitted even if private. */
  allow: readonly string[];
  /** Used as given (tests); otherwise the system's, its answers kept for `dnsCacheMs` (cached-lookup.ts). */
  lookup?: HostLookup;
  dnsCacheMs?: number;
}

/**
 * The setting operators change to permit a private destination. Refusals do not name it, nor the address a
 * name resolved to: they reach tenants (an API error, a webhook's delivery log, a source's health), who can
 * change neither, and the address would tell them how the service's own network resolves names.
 */
export const ALLOW_LIST_SETTING = 'OUTBOUND_ALLOW_LIST';

/** "a private", "an unspecified", "a link-local"… */
const article = (word: string) => `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;

export const systemLookup: HostLookup = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Words for ipaddr.js range names, for reasons an operator reads.
const rangeWords: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  broadcast: 'broadcast',
  carrierGradeNat: 'carrier-grade NAT',
  reserved: 'reserved',
};

export function createOutboundUrlPolicy(options: OutboundUrlPolicyOptions): OutboundUrlPolicy {
  const { cidrs, hostnames } = parseAllowList(options.allow);
  const defaultLookup =
    options.lookup ?? cachedLookup(systemLookup, { ttlMs: options.dnsCacheMs ?? defaultDnsCacheMs });

  const allowedAddress = (address: ipaddr.IPv4 | ipaddr.IPv6) => inRanges(address, cidrs);

  /** Null when the address may be contacted, else the name of the range that forbids it. */
  const forbiddenRange = (literal: string): string | null => {
    // process() turns ::ffff:127.0.0.1 into 127.0.0.1, so a mapped address is judged as what it reaches.
    const address = ipaddr.process(literal);
    if (allowedAddress(address)) return null;
    const range = address.range();
    // Only plain unicast is public; every other range (NAT64, 6to4, documentation...) is refused too.
    return range === 'unicast' ? null : (rangeWords[range] ?? range);
  };

  /**
   * Per address, the range that forbids it (null: allowed). The same few addresses come back with every
   * delivery to a webhook, and parsing one (ipaddr.js) was ~2% of a busy dispatcher's CPU and allocation.
   */
  const rangeByAddress = new Map<string, string | null>();
  const forbiddenRangeOf = (literal: string): string | null => {
    let range = rangeByAddress.get(literal);
    if (range === undefined) {
      range = forbiddenRange(literal);
      if (rangeByAddress.size >= memoCapacity) rangeByAddress.clear();
      rangeByAddress.set(literal, range);
    }
    return range;
  };

  /**
   * Per URL text (its href: a URL object changed since is judged again), what the text alone decides:
   * a refusal, an IP literal's approval, or the host name to resolve. The DNS answer is never kept here.
   */
  const judgedByHref = new Map<string, Judged>();
  const judge = (url: URL): Judged => {
    const href = url.href;
    let judged = judgedByHref.get(href);
    if (judged === undefined) {
      judged = judgeText(url, forbiddenRangeOf);
      if (judgedByHref.size >= memoCapacity) judgedByHref.clear();
      judgedByHref.set(href, judged);
    }
    return judged;
  };

  return {
    async check(input, checkOptions) {
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input) : input;
      } catch {
        return { ok: false, kind: 'invalid', reason: `not a valid URL: ${JSON.stringify(String(input))}` };
      }
      const judged = judge(url);
      if (judged.kind === 'refused') return { ...judged.verdict };
      const hostname = judged.hostname;
      // A fresh array each time: callers own what they are given.
      if (judged.kind === 'literal') return { ok: true, url, hostname, addresses: [...judged.addresses] };

      let addresses: ResolvedAddress[];
      try {
        addresses = await (checkOptions?.lookup ?? defaultLookup)(hostname);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        return {
          ok: false,
          kind: 'unresolved',
          reason: `could not resolve ${hostname}${code ? ` (${code})` : ''}`,
        };
      }
      if (addresses.length === 0) {
        return { ok: false, kind: 'unresolved', reason: `could not resolve ${hostname} (no addresses)` };
      }
      // A host the operator named is trusted whatever it resolves to (e.g. `localhost` in a demo).
      if (hostnames.has(hostname.replace(/\.$/, ''))) return { ok: true, url, hostname, addresses };

      for (const { address } of addresses) {
        const range = isIP(address) === 0 ? 'unparseable' : forbiddenRangeOf(address);
        if (range !== null) {
          return {
            ok: false,
            kind: 'refused',
            reason: `refused: ${hostname} resolves to ${article(range)} address, which is not allowed`,
          };
        }
      }
      return { ok: true, url, hostname, addresses };
    },
  };
}

/** What a URL's text alone decides (judgeText). */
type Judged =
  | { kind: 'refused'; verdict: Extract<OutboundCheck, { ok: false }> }
  | { kind: 'literal'; hostname: string; addresses: readonly ResolvedAddress[] }
  | { kind: 'resolve'; hostname: string };

/** Entries each memo of a policy holds at most; a full one is emptied and fills again. */
const memoCapacity = 10_000;

function judgeText(url: URL, forbiddenRangeOf: (literal: string) => string | null): Judged {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'refused',
      verdict: {
        ok: false,
        kind: 'refused',
        reason: `refused: only http and https URLs are allowed, got ${url.protocol}`,
      },
    };
  }
  const hostname = bareHostname(url.hostname);
  const literalFamily = isIP(hostname);
  if (literalFamily === 0) return { kind: 'resolve', hostname };
  const range = forbiddenRangeOf(hostname);
  if (range !== null) {
    return {
      kind: 'refused',
      verdict: {
        ok: false,
        kind: 'refused',
        reason: `refused: ${hostname} is ${article(range)} address, which is not allowed`,
      },
    };
  }
  return { kind: 'literal', hostname, addresses: [{ address: hostname, family: literalFamily as 4 | 6 }] };
}

/** URL.hostname keeps the brackets of an IPv6 literal; sockets and ipaddr.js want them gone. */
export function bareHostname(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

const hostnamePattern =
  /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

// A typo in the allow-list must stop the process at start, not silently allow nothing (or everything).
function parseAllowList(entries: readonly string[]): { cidrs: AddressRange[]; hostnames: Set<string> } {
  const cidrs: AddressRange[] = [];
  const hostnames = new Set<string>();
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    let range: AddressRange | null;
    try {
      range = addressRange(bareHostname(entry), raw);
    } catch (error) {
      throw new Error(`${ALLOW_LIST_SETTING}: ${(error as Error).message}`);
    }
    if (range !== null) cidrs.push(range);
    else if (hostnamePattern.test(entry.replace(/\.$/, ''))) {
      hostnames.add(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`${ALLOW_LIST_SETTING}: "${raw}" is neither a CIDR, an IP address nor a host name`);
    }
  }
  return { cidrs, hostnames };
}
