// Which address a request came from: the connection's peer, or, when that peer is a proxy we were told to
// trust (API_TRUSTED_PROXIES), the address the proxies say they received it from (X-Forwarded-For).
//
// X-Forwarded-For is a list every proxy appends its peer to, so its right end is what our own proxies
// wrote and its left end whatever the client chose to send. It is read from the right, skipping each
// entry that is itself a trusted proxy: the first one that is not is the client. Without trusted proxies
// the header is ignored, since anyone can send it.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { addressRange, inRanges, type Address, type AddressRange } from '../../runtime/address-ranges.ts';

/** The proxies whose X-Forwarded-For is believed: addresses and CIDR ranges, IPv4 or IPv6. */
export class TrustedProxies {
  private constructor(private readonly ranges: readonly AddressRange[]) {}

  static none = new TrustedProxies([]);

  /** From API_TRUSTED_PROXIES' entries; a typo stops the process rather than trusting nothing or all. */
  static parse(entries: readonly string[]): TrustedProxies {
    const ranges: AddressRange[] = [];
    for (const raw of entries) {
      const entry = raw.trim();
      if (entry === '') continue;
      const range = addressRange(entry);
      if (range === null) throw new Error(`"${entry}" is neither an IP address nor a CIDR range`);
      ranges.push(range);
    }
    return new TrustedProxies(ranges);
  }

  get size(): number {
    return this.ranges.length;
  }

  includes(address: string): boolean {
    const parsed = parse(address);
    return parsed !== null && inRanges(parsed, this.ranges);
  }
}

/**
 * An address as one spelling (IPv4-mapped IPv6 as IPv4), or null when it is none. A port after it, as
 * some proxies write (Azure's "203.0.113.9:51234", "[2001:db8::1]:443"), is dropped.
 */
function parse(address: string): Address | null {
  const withPort = /^(?:\[([^\]]+)\]|(\d{1,3}(?:\.\d{1,3}){3})):\d{1,5}$/.exec(address);
  const bare = withPort
    ? (withPort[1] ?? withPort[2]!)
    : address.startsWith('[') && address.endsWith(']')
      ? address.slice(1, -1)
      : address;
  if (isIP(bare) === 0) return null;
  return ipaddr.process(bare);
}

/**
 * The client's address: `peer` (the socket's remote address) unless it is a trusted proxy, then the
 * right-most X-Forwarded-For entry that is not one. An entry that is not an address (a proxy writing
 * "unknown", a client writing anything) ends the walk at the proxy that passed it on, as does a list
 * made only of trusted proxies: the last trusted hop is all that is known.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: TrustedProxies,
): string {
  const own = (peer && parse(peer)?.toString()) ?? peer ?? 'unknown';
  if (trusted.size === 0 || forwardedFor === undefined || !trusted.includes(own)) return own;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  let client = own;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parse(hops[i]!);
    if (hop === null) return client;
    client = hop.toString();
    if (!trusted.includes(client)) return client;
  }
  return client;
}
