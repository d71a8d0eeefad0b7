// The signature check every notification goes through: what passes, and that everything else is
// refused with an outcome the counter can name.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignature, hubSecretFor } from './signature.ts';

const body = Buffer.from('<rss><channel><item><title>Pushed</title></item></channel></rss>');
const secret = hubSecretFor('a master key of some length', 'src_1');
const sign = (method: string, data: Uint8Array = body, key = secret) =>
  `${method}=${createHmac(method, key).update(data).digest('hex')}`;

describe('checkSignature', () => {
  it.each(['sha1', 'sha256', 'sha384', 'sha512'])('accepts a %s HMAC of the raw body', (method) => {
    expect(checkSignature(sign(method), body, secret)).toEqual({ ok: true, method });
  });

  it('accepts upper-case hex and an upper-case method name', () => {
    const [method, hex] = sign('sha256').split('=');
    expect(checkSignature(`${method!.toUpperCase()}=${hex!.toUpperCase()}`, body, secret).ok).toBe(true);
  });

  it('refuses a missing or blank header as unsigned', () => {
    for (const header of [undefined, null, '', '  '])
      expect(checkSignature(header, body, secret)).toMatchObject({ ok: false, outcome: 'unsigned' });
  });

  it('refuses a signature made with another secret, or for another body', () => {
    expect(checkSignature(sign('sha256', body, 'forged'), body, secret)).toMatchObject({
      ok: false,
      outcome: 'bad_signature',
    });
    const tampered = Buffer.from(body.toString().replace('Pushed', 'Forged'));
    expect(checkSignature(sign('sha256'), tampered, secret)).toMatchObject({ outcome: 'bad_signature' });
  });

  it('refuses the signature of another source (secrets are per source)', () => {
    const other = hubSecretFor('a master key of some length', 'src_2');
    expect(checkSignature(sign('sha256', body, other), body, secret).ok).toBe(false);
  });

  it('refuses malformed headers, unknown methods and truncated digests without throwing', () => {
    const digest = sign('sha256').slice('sha256='.length);
    for (const header of [
      'sha256',
      `sha256=${digest.slice(0, 40)}`,
      `sha256=${digest}0`,
      'md5=abcd',
      `=${digest}`,
    ])
      expect(checkSignature(header, body, secret)).toMatchObject({ ok: false, outcome: 'bad_signature' });
  });

  it('never puts the expected digest in its reason', () => {
    const verdict = checkSignature(sign('sha256', body, 'forged'), body, secret);
    const expected = sign('sha256').slice('sha256='.length);
    expect(JSON.stringify(verdict)).not.toContain(expected);
    expect(JSON.stringify(verdict)).not.toContain(secret);
  });
});

describe('hubSecretFor', () => {
  it('is stable per source, different between sources and master keys, and short enough for hubs', () => {
    expect(hubSecretFor('k'.repeat(16), 'a')).toBe(hubSecretFor('k'.repeat(16), 'a'));
    expect(hubSecretFor('k'.repeat(16), 'a')).not.toBe(hubSecretFor('k'.repeat(16), 'b'));
    expect(hubSecretFor('k'.repeat(16), 'a')).not.toBe(hubSecretFor('j'.repeat(16), 'a'));
    expect(hubSecretFor('k'.repeat(16), 'a')).toMatch(/^[0-9a-f]{64}$/);
  });
});
