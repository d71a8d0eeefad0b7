import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { normaliseSecret } from './webhook-registry.ts';
import { DEFAULT_TOLERANCE_SECONDS, verifySignature } from '../../test/support/webhook-receiver.ts';
import { generateWebhookSecret, signatureHeaders, webhookSecretKey } from './signing.ts';

// The test vector published with the Standard Webhooks / Svix libraries.
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: new Date(1614265330 * 1000),
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('generateWebhookSecret', () => {
  it('makes whsec_ + base64 of 32 random bytes by default, different every time', () => {
    const a = generateWebhookSecret();
    const b = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(webhookSecretKey(a)).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('accepts 24 to 64 bytes and nothing else', () => {
    expect(webhookSecretKey(generateWebhookSecret(24))).toHaveLength(24);
    expect(webhookSecretKey(generateWebhookSecret(64))).toHaveLength(64);
    expect(() => generateWebhookSecret(23)).toThrow(RangeError);
    expect(() => generateWebhookSecret(65)).toThrow(RangeError);
  });
});

describe('webhookSecretKey', () => {
  it("takes a client's word of 8 bytes or more as the key: its HMAC is the one made with the text", () => {
    const secret = `whsec_${Buffer.from('my-secret').toString('base64')}`;
    const key = webhookSecretKey(secret);
    expect(key.toString()).toBe('my-secret');
    const headers = signatureHeaders(
      { id: 'msg_1', timestamp: new Date(1_700_000_000_000), body: '{}' },
      secret,
    );
    const expected = createHmac('sha256', 'my-secret').update('msg_1.1700000000.{}').digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('refuses secrets without the prefix, with bad base64 or of the wrong size, without echoing them', () => {
    const short = `whsec_${Buffer.alloc(7, 7).toString('base64')}`;
    for (const bad of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_not*base64!', short]) {
      expect(() => webhookSecretKey(bad)).toThrow(Error);
      try {
        webhookSecretKey(bad);
      } catch (error) {
        expect((error as Error).message).not.toContain(bad.slice(6));
      }
    }
  });
});

describe('signatureHeaders', () => {
  it('matches the published test vector', () => {
    const headers = signatureHeaders(vector, vector.secret);
    expect(headers).toEqual({
      'webhook-id': vector.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': vector.signature,
    });
  });

  it('is HMAC-SHA256 of id.seconds.body keyed with the decoded secret (computed independently)', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${key.toString('base64')}`;
    const body = '{"type":"news.alert","data":{"title":"Ünïcödé ✓"}}';
    const timestamp = new Date('2024-05-01T12:00:00.999Z');
    const expected = createHmac('sha256', key).update(`evt_1.1714564800.${body}`, 'utf8').digest('base64');
    const headers = signatureHeaders({ id: 'evt_1', timestamp, body }, secret);
    expect(headers['webhook-timestamp']).toBe('1714564800');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('gives one space-separated signature per secret during a rotation', () => {
    const newer = generateWebhookSecret();
    const headers = signatureHeaders(vector, [newer, vector.secret]);
    const parts = headers['webhook-signature'].split(' ');
    expect(parts).toHaveLength(2);
    expect(parts[1]).toBe(vector.signature);
    expect(parts[0]).toBe(signatureHeaders(vector, newer)['webhook-signature']);
  });

  it('refuses ids that would be unsafe as a header or a delimited field', () => {
    expect(() => signatureHeaders({ ...vector, id: 'a.b c' }, vector.secret)).toThrow(/webhook id/);
    expect(() => signatureHeaders({ ...vector, id: '' }, vector.secret)).toThrow(/webhook id/);
  });

  it('refuses an empty list of secrets and an invalid date', () => {
    expect(() => signatureHeaders(vector, [])).toThrow(/at least one/);
    expect(() => signatureHeaders({ ...vector, timestamp: new Date(NaN) }, vector.secret)).toThrow(
      RangeError,
    );
  });
});

describe('signatureHeaders, checked as a receiver checks them (test/support/webhook-receiver.ts)', () => {
  const now = vector.timestamp;
  const signed = { headers: { ...signatureHeaders(vector, vector.secret) }, body: vector.body };

  it('accepts our own headers, whatever the case of the header names', () => {
    expect(verifySignature(signed, vector.secret, { now })).toEqual({ ok: true });
    const shouted = Object.fromEntries(Object.entries(signed.headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifySignature({ ...signed, headers: shouted }, vector.secret, { now })).toEqual({ ok: true });
  });

  it('rejects an altered body, an altered timestamp, another id or another secret', () => {
    const bad = [
      verifySignature({ ...signed, body: '{"test": 2432232315}' }, vector.secret, { now }),
      verifySignature(
        { ...signed, headers: { ...signed.headers, 'webhook-timestamp': '1614265331' } },
        vector.secret,
        { now },
      ),
      verifySignature(
        { ...signed, headers: { ...signed.headers, 'webhook-id': 'msg_other' } },
        vector.secret,
        {
          now,
        },
      ),
      verifySignature(signed, generateWebhookSecret(), { now }),
    ];
    for (const result of bad) expect(result).toEqual({ ok: false, reason: 'no matching v1 signature' });
  });

  it('accepts any of several signatures and any of several secrets (rotation on either side)', () => {
    const rotated = {
      ...signed,
      headers: signatureHeaders(vector, [generateWebhookSecret(), vector.secret]),
    };
    expect(verifySignature(rotated, vector.secret, { now })).toEqual({ ok: true });
    expect(verifySignature(signed, [generateWebhookSecret(), vector.secret], { now })).toEqual({ ok: true });
  });

  it('enforces the 5 minute tolerance in both directions', () => {
    const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000);
    expect(DEFAULT_TOLERANCE_SECONDS).toBe(300);
    expect(verifySignature(signed, vector.secret, { now: at(300) }).ok).toBe(true);
    expect(verifySignature(signed, vector.secret, { now: at(301) })).toEqual({
      ok: false,
      reason: 'webhook-timestamp is too old',
    });
    expect(verifySignature(signed, vector.secret, { now: at(-300) }).ok).toBe(true);
    expect(verifySignature(signed, vector.secret, { now: at(-301) })).toEqual({
      ok: false,
      reason: 'webhook-timestamp is too far in the future',
    });
  });

  it('rejects missing headers and a timestamp that is not unix seconds', () => {
    const { 'webhook-signature': _dropped, ...unsigned } = signed.headers;
    expect(verifySignature({ ...signed, headers: unsigned }, vector.secret, { now }).ok).toBe(false);
    const iso = { ...signed.headers, 'webhook-timestamp': '2021-02-25T15:02:10Z' };
    expect(verifySignature({ ...signed, headers: iso }, vector.secret, { now })).toEqual({
      ok: false,
      reason: 'webhook-timestamp is not unix seconds',
    });
  });
});

describe('the reference verifier (standardwebhooks on npm)', () => {
  // It checks the timestamp against the real clock, so these deliveries are signed "now".
  const secret = generateWebhookSecret();
  const body = JSON.stringify({ type: 'news.alert', data: { alert_id: 'al_1', title: 'Acme wins "deal"' } });
  const headers = { ...signatureHeaders({ id: 'msg_ref_1', timestamp: new Date(), body }, secret) };

  it('accepts our headers', () => {
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('rejects them after the body changes', () => {
    expect(() => new Webhook(secret).verify(body.replace('al_1', 'al_2'), headers)).toThrow(/signature/i);
  });

  it('rejects them after the timestamp changes', () => {
    const moved = { ...headers, 'webhook-timestamp': String(Number(headers['webhook-timestamp']) - 1) };
    expect(() => new Webhook(secret).verify(body, moved)).toThrow(/signature/i);
  });

  it('rejects them with another secret', () => {
    expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).toThrow(/signature/i);
  });

  it('accepts a rotation header with either secret', () => {
    const next = generateWebhookSecret();
    const both = { ...signatureHeaders({ id: 'msg_ref_2', timestamp: new Date(), body }, [next, secret]) };
    expect(() => new Webhook(secret).verify(body, both)).not.toThrow();
    expect(() => new Webhook(next).verify(body, both)).not.toThrow();
  });
});

describe("a client's text secret", () => {
  it('signs at every length registration takes: the whsec_ form shown back is a key the signer takes', () => {
    for (const text of ['abcdefgh', 'q7-Zx'.repeat(26).slice(0, 128), 'éàüöñçøåßœ'.repeat(7).slice(0, 64)]) {
      const shown = normaliseSecret(text);
      expect(webhookSecretKey(shown).toString()).toBe(text);
      // And sent back as given (to another webhook, or a rotation), it is taken as it is.
      expect(normaliseSecret(shown)).toBe(shown);
    }
  });

  it('is refused at registration when its UTF-8 is longer than a key holds, naming both', () => {
    expect(() => normaliseSecret('秘密の鍵'.repeat(11))).toThrow(
      /132 bytes in UTF-8, and a key holds at most 128/,
    );
  });
});
