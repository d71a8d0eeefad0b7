import { describe, expect, it } from 'vitest';
import { developmentSecretBox, type SecretBox } from './secret-box.ts';
import { SigningKeys } from './signing-keys.ts';
import {
  generateWebhookSecret,
  signatureHeaders,
  signatureHeadersWithKeys,
  webhookSecretKey,
} from './signing.ts';

const box = developmentSecretBox();

/** The development box, counting how often it is asked to open a ref. */
function countingBox(): { box: Pick<SecretBox, 'open'>; opened: () => number } {
  let opened = 0;
  return {
    box: {
      open: (ref) => {
        opened++;
        return box.open(ref);
      },
    },
    opened: () => opened,
  };
}

describe('SigningKeys', () => {
  it("gives the secret's HMAC key, which signs exactly as the secret does", () => {
    const secret = generateWebhookSecret();
    const keys = new SigningKeys(box);
    const key = keys.keyOf(box.seal(secret));
    expect(key.equals(webhookSecretKey(secret))).toBe(true);
    const message = { id: 'msg_1', timestamp: new Date(1_700_000_000_000), body: '{"a":1}' };
    expect(signatureHeadersWithKeys(message, [key])).toEqual(signatureHeaders(message, secret));
  });

  it('opens each ref once, and a new ref (a rotated secret) on its own', () => {
    const counting = countingBox();
    const keys = new SigningKeys(counting.box);
    const first = box.seal(generateWebhookSecret());
    const rotated = box.seal(generateWebhookSecret());
    keys.keyOf(first);
    keys.keyOf(first);
    expect(counting.opened()).toBe(1);
    expect(keys.keyOf(rotated).equals(keys.keyOf(first))).toBe(false);
    expect(counting.opened()).toBe(2);
  });

  it('keeps no ref that failed to open: it is tried again', () => {
    const counting = countingBox();
    const keys = new SigningKeys(counting.box);
    expect(() => keys.keyOf('sb1:other:AAAA:BBBB')).toThrow(/other/);
    expect(() => keys.keyOf('sb1:other:AAAA:BBBB')).toThrow(/other/);
    expect(counting.opened()).toBe(2);
    expect(keys.size).toBe(0);
  });

  it('holds at most `capacity` refs, forgetting the oldest', () => {
    const counting = countingBox();
    const keys = new SigningKeys(counting.box, 2);
    const refs = [1, 2, 3].map(() => box.seal(generateWebhookSecret()));
    for (const ref of refs) keys.keyOf(ref);
    expect(keys.size).toBe(2);
    keys.keyOf(refs[2]!);
    expect(counting.opened()).toBe(3);
    keys.keyOf(refs[0]!);
    expect(counting.opened()).toBe(4);
  });
});
