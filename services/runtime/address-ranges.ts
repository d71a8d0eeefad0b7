// Addresses and CIDR ranges as settings name them (OUTBOUND_ALLOW_LIST, API_TRUSTED_PROXIES): one way to
// read an entry and one way to match an address against them.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type AddressRange = [Address, number];

/**
 * An entry as a range: a CIDR, or one address (IPv4-mapped IPv6 as IPv4, a whole range of one); null when
 * it is neither (a host name, say). A CIDR that is not valid throws, naming the entry as `shown`: a typo in
 * such a setting must stop the process, not match nothing (or everything).
 */
export function addressRange(entry: string, shown = entry): AddressRange | null {
  if (entry.includes('/')) {
    if (!ipaddr.isValidCIDR(entry))
      throw new Error(`"${shown}" is not a valid CIDR (expected e.g. 10.0.0.0/8 or fd00::/8)`);
    return ipaddr.parseCIDR(entry);
  }
  if (isIP(entry) === 0) return null;
  const address = ipaddr.process(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

/** Whether the address is in any of the ranges (an IPv4 address never matches an IPv6 range). */
export const inRanges = (address: Address, ranges: readonly AddressRange[]): boolean =>
  ranges.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits));
