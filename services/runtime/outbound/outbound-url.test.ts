import { describe, expect, it } from 'vitest';
import { createOutboundUrlPolicy } from './outbound-url.ts';
import type { HostLookup, ResolvedAddress } from './outbound-url.ts';

/** DNS stand-in: each name answers what the table says; a lookup of anything else fails. */
function dns(table: Record<string, string[]>): HostLookup {
  return async (hostname) => {
    const answers = table[hostname];
    if (!answers) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answers.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const privateLiterals = {
  '127.0.0.1': 'loopback',
  '10.1.2.3': 'private',
  '172.16.0.1': 'private',
  '192.168.1.1': 'private',
  '169.254.169.254': 'link-local',
  '[::1]': 'loopback',
  '[fe80::1]': 'link-local',
  '[fd12:3456::1]': 'private (unique local)',
  '[::ffff:127.0.0.1]': 'loopback',
  '100.64.0.1': 'carrier-grade NAT',
  '0.0.0.0': 'unspecified',
  '224.0.0.1': 'multicast',
  '255.255.255.255': 'broadcast',
};

describe('OutboundUrlPolicy', () => {
  const strict = createOutboundUrlPolicy({ allow: [], lookup: dns({}) });

  it.each(Object.entries(privateLiterals))('refuses %s (%s) without an allow-list', async (host, range) => {
    const verdict = await strict.check(`http://${host}/feed`);
    expect(verdict).toMatchObject({ ok: false, kind: 'refused' });
    expect(verdict).toMatchObject({
      reason: expect.stringMatching(
        new RegExp(`^refused: \\S+ is an? ${range.replace(/[()]/g, '\\$&')} address, which is not allowed$`),
      ) as string,
    });
  });

  it('refuses the integer, hex and IPv4-mapped spellings of loopback that URLs normalise', async () => {
    for (const url of [
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://[::ffff:7f00:1]/',
    ]) {
      expect(await strict.check(url), url).toMatchObject({ ok: false, kind: 'refused' });
    }
  });

  it('allows each of them with a matching allow-list entry, and only those', async () => {
    const policy = createOutboundUrlPolicy({
      allow: [
        '127.0.0.0/8',
        '10.0.0.0/8',
        '172.16.0.0/12',
        '192.168.1.1',
        '169.254.169.254/32',
        '::1',
        'fe80::/10',
        'fc00::/7',
        '100.64.0.0/10',
        '0.0.0.0',
        '224.0.0.0/4',
        '255.255.255.255',
      ],
      lookup: dns({}),
    });
    for (const host of Object.keys(privateLiterals)) {
      expect(await policy.check(`http://${host}/feed`), host).toMatchObject({ ok: true });
    }
    expect(await policy.check('http://192.168.1.2/')).toMatchObject({ ok: false });
    expect(await policy.check('http://172.32.0.1/')).toMatchObject({ ok: true }); // public, outside 172.16/12
  });

  it('allows a public address and returns what it checked', async () => {
    const verdict = await strict.check('https://93.184.216.34/feed');
    expect(verdict).toMatchObject({
      ok: true,
      hostname: '93.184.216.34',
      addresses: [{ address: '93.184.216.34', family: 4 }],
    });
  });

  it('refuses a name if any of its addresses is private', async () => {
    const policy = createOutboundUrlPolicy({
      allow: [],
      lookup: dns({
        'feeds.example': ['93.184.216.34', '127.0.0.1'],
        'ok.example': ['93.184.216.34', '2606:2800:220:1::1'],
      }),
    });
    expect(await policy.check('http://feeds.example/rss')).toEqual({
      ok: false,
      kind: 'refused',
      reason: 'refused: feeds.example resolves to a loopback address, which is not allowed',
    });
    expect(await policy.check('http://ok.example/rss')).toMatchObject({
      ok: true,
      addresses: [{ address: '93.184.216.34' }, { address: '2606:2800:220:1::1' }],
    });
  });

  it('allows a host name on the allow-list whatever it resolves to', async () => {
    const lookup = dns({ localhost: ['127.0.0.1', '::1'] });
    expect(
      await createOutboundUrlPolicy({ allow: [], lookup }).check('http://localhost:8080/'),
    ).toMatchObject({ ok: false });
    expect(
      await createOutboundUrlPolicy({ allow: ['LOCALHOST'], lookup }).check('http://localhost:8080/'),
    ).toMatchObject({
      ok: true,
      addresses: [{ address: '127.0.0.1' }, { address: '::1' }],
    });
  });

  it('uses a per-call lookup over the policy’s own', async () => {
    const verdict = await strict.check('http://a.example/', { lookup: dns({ 'a.example': ['10.0.0.1'] }) });
    expect(verdict).toMatchObject({
      ok: false,
      reason: 'refused: a.example resolves to a private address, which is not allowed',
    });
  });

  it('refuses other schemes and reports bad URLs and unresolvable hosts apart from refusals', async () => {
    for (const url of [
      'ftp://example.com/feed',
      'file:///etc/passwd',
      'gopher://example.com/',
      'javascript:alert(1)',
    ]) {
      expect(await strict.check(url), url).toMatchObject({ ok: false, kind: 'refused' });
    }
    expect(await strict.check('http://')).toMatchObject({ ok: false, kind: 'invalid' });
    expect(await strict.check('nope')).toMatchObject({ ok: false, kind: 'invalid' });
    expect(await strict.check('http://missing.example/')).toEqual({
      ok: false,
      kind: 'unresolved',
      reason: 'could not resolve missing.example (ENOTFOUND)',
    });
    const empty = createOutboundUrlPolicy({ allow: [], lookup: async () => [] });
    expect(await empty.check('http://x.example/')).toMatchObject({ ok: false, kind: 'unresolved' });
  });

  it('rejects an allow-list entry it cannot read, naming the setting', () => {
    expect(() => createOutboundUrlPolicy({ allow: ['10.0.0.0/33'] })).toThrow(
      'OUTBOUND_ALLOW_LIST: "10.0.0.0/33" is not a valid CIDR',
    );
    expect(() => createOutboundUrlPolicy({ allow: ['not a host'] })).toThrow(
      'OUTBOUND_ALLOW_LIST: "not a host" is neither',
    );
  });

  it('judges a URL object again once it was changed, and a name by what it resolves to now', async () => {
    // What the policy remembers (per URL text, per address) must never outlive the text or the DNS answer.
    const policy = createOutboundUrlPolicy({ allow: [] });
    const url = new URL('http://93.184.216.34/hook');
    expect((await policy.check(url)).ok).toBe(true);
    url.hostname = '127.0.0.1';
    const changed = await policy.check(url);
    expect(changed).toMatchObject({ ok: false, kind: 'refused' });
    url.hostname = '93.184.216.34';
    expect(await policy.check(url)).toMatchObject({ ok: true, hostname: '93.184.216.34' });

    const answers: Record<string, string[]> = { 'hooks.example': ['93.184.216.34'] };
    const lookup = dns(answers);
    expect((await policy.check('https://hooks.example/a', { lookup })).ok).toBe(true);
    answers['hooks.example'] = ['10.1.2.3']; // rebound
    const rebound = await policy.check('https://hooks.example/a', { lookup });
    expect(rebound).toMatchObject({ ok: false, kind: 'refused' });
    expect(!rebound.ok && rebound.reason).toContain('resolves to a private address');
  });

  it('hands each caller a verdict of its own', async () => {
    const policy = createOutboundUrlPolicy({ allow: [] });
    const first = await policy.check('http://93.184.216.34/');
    const second = await policy.check('http://93.184.216.34/');
    expect(second).toEqual(first);
    if (!first.ok || !second.ok) throw new Error('expected approvals');
    expect(second.addresses).not.toBe(first.addresses);
    const refusedOnce = await policy.check('ftp://93.184.216.34/');
    const refusedAgain = await policy.check('ftp://93.184.216.34/');
    expect(refusedAgain).toEqual(refusedOnce);
    expect(refusedAgain).not.toBe(refusedOnce);
  });
});
