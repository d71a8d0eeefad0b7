import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DEVELOPMENT_KEY,
  SecretBoxError,
  createSecretBox,
  developmentSecretBox,
  parseSecretBoxKeys,
  secretBoxFromSetting,
} from './secret-box.ts';
import type { SecretBoxErrorKind, SecretBoxKey } from './secret-box.ts';

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const newKey = (kid: string): SecretBoxKey => ({ kid, key: randomBytes(32) });
const setting = (...keys: SecretBoxKey[]) =>
  keys.map((k) => `${k.kid}:${k.key.toString('base64url')}`).join(',');

function openError(open: () => unknown): SecretBoxError {
  try {
    open();
  } catch (error) {
    if (error instanceof SecretBoxError) return error;
    throw error;
  }
  throw new Error('expected open() to fail');
}

function expectOpenFails(open: () => unknown, kind: SecretBoxErrorKind, mustNotContain: string[] = []) {
  const error = openError(open);
  expect(error.kind).toBe(kind);
  for (const text of mustNotContain) expect(error.message).not.toContain(text);
}

describe('createSecretBox', () => {
  it('round-trips a secret through sb1:<kid>:<iv>:<ciphertext>', () => {
    const box = createSecretBox([newKey('k1')]);
    const ref = box.seal(secret);
    expect(ref).toMatch(/^sb1:k1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(box.open(ref)).toBe(secret);
    expect(box.sealingKid).toBe('k1');
    expect(box.usesDevelopmentKey).toBe(false);
  });

  it('never shows the secret (or its base64 part) in the sealed text, and seals differently each time', () => {
    const box = createSecretBox([newKey('k1')]);
    const a = box.seal(secret);
    const b = box.seal(secret);
    for (const ref of [a, b]) {
      expect(ref).not.toContain(secret);
      expect(ref).not.toContain(secret.slice('whsec_'.length));
      expect(ref).not.toContain(Buffer.from(secret).toString('base64url'));
    }
    expect(a).not.toBe(b);
  });

  it('opens refs sealed with an older key after a new key is put first (rotation)', () => {
    const old = newKey('2024');
    const sealedBefore = createSecretBox([old]).seal(secret);
    const rotated = createSecretBox(parseSecretBoxKeys(setting(newKey('2025'), old)));
    expect(rotated.open(sealedBefore)).toBe(secret);
    const sealedAfter = rotated.seal(secret);
    expect(sealedAfter.startsWith('sb1:2025:')).toBe(true);
    expect(rotated.open(sealedAfter)).toBe(secret);
  });

  it('detects a changed ciphertext, iv or tag without revealing the key', () => {
    const key = newKey('k1');
    const box = createSecretBox([key]);
    const [v, kid, iv, sealed] = box.seal(secret).split(':') as [string, string, string, string];
    const flip = (text: string, at: number) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[at] = bytes[at]! ^ 1;
      return bytes.toString('base64url');
    };
    const keyText = key.key.toString('base64url');
    expectOpenFails(() => box.open([v, kid, iv, flip(sealed, 0)].join(':')), 'tampered', [secret, keyText]);
    expectOpenFails(() => box.open([v, kid, iv, flip(sealed, 40)].join(':')), 'tampered', [secret, keyText]);
    expectOpenFails(() => box.open([v, kid, flip(iv, 3), sealed].join(':')), 'tampered', [secret, keyText]);
  });

  it('refuses a ciphertext moved under another known kid (the kid is authenticated)', () => {
    const [a, b] = [newKey('a'), newKey('b')];
    const ref = createSecretBox([a]).seal(secret);
    // Even if both kids mapped to the same key bytes, the AAD would differ.
    const sameKeyTwice = createSecretBox([a, { kid: 'b', key: a.key }]);
    expectOpenFails(() => sameKeyTwice.open(ref.replace('sb1:a:', 'sb1:b:')), 'tampered');
    expectOpenFails(() => createSecretBox([a, b]).open(ref.replace('sb1:a:', 'sb1:b:')), 'tampered');
  });

  it('names an unknown kid and the setting to fix', () => {
    const ref = createSecretBox([newKey('gone')]).seal(secret);
    const error = openError(() => createSecretBox([newKey('k1')]).open(ref));
    expect(error.kind).toBe('unknown-kid');
    expect(error.message).toMatch(/"gone".*WEBHOOK_SECRET_KEYS/);
  });

  it('refuses malformed refs, including a plain-text secret passed by mistake', () => {
    const box = createSecretBox([newKey('k1')]);
    const good = box.seal(secret).split(':') as [string, string, string, string];
    const malformed = [
      '',
      secret,
      `sb2:${good.slice(1).join(':')}`,
      good.slice(0, 3).join(':'),
      [...good, 'extra'].join(':'),
      [good[0], 'k 1', good[2], good[3]].join(':'),
      [good[0], good[1], 'not*base64', good[3]].join(':'),
      [good[0], good[1], good[2].slice(0, 8), good[3]].join(':'),
      [good[0], good[1], good[2], 'AAAA'].join(':'),
    ];
    for (const ref of malformed) expectOpenFails(() => box.open(ref), 'malformed', [secret]);
  });

  it('refuses to be built without keys or with a key of the wrong size', () => {
    expect(() => createSecretBox([])).toThrow(/at least one key/);
    expect(() => createSecretBox([{ kid: 'k', key: randomBytes(16) }])).toThrow(/32 bytes/);
  });
});

describe('parseSecretBoxKeys', () => {
  it('reads kid:base64url pairs in order, the first being the sealing key', () => {
    const [a, b] = [newKey('a'), newKey('b-2')];
    const keys = parseSecretBoxKeys(` ${setting(a)} , ${setting(b)}= `);
    expect(keys.map((k) => k.kid)).toEqual(['a', 'b-2']);
    expect(keys[0]!.key.equals(a.key)).toBe(true);
    expect(keys[1]!.key.equals(b.key)).toBe(true);
  });

  it('refuses typos with a message naming the entry but never the key', () => {
    const key = randomBytes(32).toString('base64url');
    const cases: [string, RegExp][] = [
      ['', /no keys/],
      [key, /entry 1 is not kid:base64url-key/],
      [`k1:${key},k 2:${key}`, /entry 2: the kid/],
      [`k1:${key},k1:${key}`, /kid "k1" is used twice/],
      [`k1:${randomBytes(16).toString('base64url')}`, /32 bytes of base64url/],
      [`k1:${key.slice(0, 20)}+/${key.slice(22)}`, /32 bytes of base64url/],
    ];
    for (const [text, message] of cases) {
      expect(() => parseSecretBoxKeys(text)).toThrow(message);
      try {
        parseSecretBoxKeys(text);
      } catch (error) {
        expect((error as Error).message).not.toContain(key.slice(0, 20));
      }
    }
  });
});

describe('development box', () => {
  it('is what an empty setting gives, flagged so the caller warns', () => {
    for (const empty of [undefined, '', '  ']) {
      const box = secretBoxFromSetting(empty);
      expect(box.usesDevelopmentKey).toBe(true);
      expect(box.sealingKid).toBe('dev');
    }
    expect(secretBoxFromSetting(setting(newKey('prod'))).usesDevelopmentKey).toBe(false);
  });

  it('agrees across processes: a ref sealed by one development box opens in another', () => {
    const ref = developmentSecretBox().seal(secret);
    expect(ref.startsWith('sb1:dev:')).toBe(true);
    expect(developmentSecretBox().open(ref)).toBe(secret);
    // …and the documented key, when written into the setting, is the same key.
    expect(secretBoxFromSetting(`${DEVELOPMENT_KEY.kid}:${DEVELOPMENT_KEY.key}`).open(ref)).toBe(secret);
  });

  it('is not accepted by a configured box (production never opens what the public key sealed)', () => {
    const ref = developmentSecretBox().seal(secret);
    expectOpenFails(() => secretBoxFromSetting(setting(newKey('prod'))).open(ref), 'unknown-kid');
  });
});
