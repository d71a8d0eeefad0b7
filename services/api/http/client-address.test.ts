import { describe, expect, it } from 'vitest';
import { clientAddress, TrustedProxies } from './client-address.ts';

const proxies = TrustedProxies.parse(['10.0.0.0/8', '::1', '192.168.1.5']);

describe("a request's client address", () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', TrustedProxies.none)).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', undefined, TrustedProxies.none)).toBe('127.0.0.1');
  });

  it('is the peer when the peer is not a trusted proxy: a client cannot name itself someone else', () => {
    expect(clientAddress('203.0.113.9', '10.1.1.1', proxies)).toBe('203.0.113.9');
  });

  it("is the right-most X-Forwarded-For entry that is not a trusted proxy's", () => {
    // What the client wrote (1.1.1.1) is left of what our proxies appended.
    expect(clientAddress('10.0.0.2', '1.1.1.1, 198.51.100.7, 10.0.0.9', proxies)).toBe('198.51.100.7');
    expect(clientAddress('::1', '2001:db8::5', proxies)).toBe('2001:db8::5');
    expect(clientAddress('::ffff:10.0.0.2', ['198.51.100.7', '10.0.0.3'], proxies)).toBe('198.51.100.7');
  });

  it('reads an entry with a port, as some proxies write it', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.7:51234', proxies)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '[2001:db8::1]:443', proxies)).toBe('2001:db8::1');
    expect(clientAddress('10.0.0.2', '[2001:db8::1]', proxies)).toBe('2001:db8::1');
  });

  it('stops at the last trusted hop when an entry is no address, or every entry is a proxy', () => {
    expect(clientAddress('10.0.0.2', 'unknown', proxies)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '198.51.100.7, junk, 10.0.0.4', proxies)).toBe('10.0.0.4');
    expect(clientAddress('10.0.0.2', '192.168.1.5, 10.0.0.4', proxies)).toBe('192.168.1.5');
  });

  it('refuses a trusted-proxy list with a typo, naming the entry', () => {
    expect(() => TrustedProxies.parse(['10.0.0.0/33'])).toThrow('"10.0.0.0/33" is not a valid CIDR');
    expect(() => TrustedProxies.parse(['proxy.internal'])).toThrow(
      '"proxy.internal" is neither an IP address nor a CIDR range',
    );
    expect(TrustedProxies.parse([' ', '']).size).toBe(0);
  });
});
