import { describe, expect, it } from 'vitest';
import { AccessTokens, InvalidTokenError } from './access-tokens.ts';
import { parseSigningKeys } from './signing-keys.ts';

const secretA = Buffer.alloc(32, 7).toString('base64url');
const secretB = Buffer.alloc(32, 9).toString('base64url');
const options = { issuer: 'news-intelligence', audience: 'news-intelligence-api' };
const claims = { clientId: 'cli_1', tenantId: 'ten_1', scopes: ['read:feeds'] };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => token.split('.') as [string, string, string];

async function rejected(tokens: AccessTokens, token: string): Promise<string> {
  try {
    await tokens.verify(token);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidTokenError);
    return (error as Error).message;
  }
  throw new Error('the token was accepted');
}

describe('access tokens', () => {
  const tokens = new AccessTokens(parseSigningKeys(`a:${secretA}`), options);

  it('round-trips the client, tenant and scopes, with a key id and one hour of life', async () => {
    const { token, expiresIn } = await tokens.issue(claims);
    expect(expiresIn).toBe(3600);
    expect(JSON.parse(Buffer.from(parts(token)[0], 'base64url').toString())).toMatchObject({
      alg: 'HS256',
      kid: 'a',
    });
    expect(await tokens.verify(token)).toEqual(claims);
  });

  it('refuses an expired token', async () => {
    const past = new AccessTokens(parseSigningKeys(`a:${secretA}`), {
      ...options,
      clock: () => Date.now() - 3601_000,
    });
    expect(await rejected(tokens, (await past.issue(claims)).token)).toMatch(/expired/);
  });

  it('refuses a wrong signature, alg none, an unknown key id and a tampered scope', async () => {
    const { token } = await tokens.issue(claims);
    const [header, payload, signature] = parts(token);
    const otherKey = new AccessTokens(parseSigningKeys(`a:${secretB}`), options);
    expect(await rejected(tokens, (await otherKey.issue(claims)).token)).toMatch(/signature/);
    const none = `${b64({ alg: 'none', typ: 'at+jwt', kid: 'a' })}.${payload}.`;
    expect(await rejected(tokens, none)).toMatch(/algorithm|malformed/);
    const unknownKid = new AccessTokens(parseSigningKeys(`z:${secretA}`), options);
    expect(await rejected(tokens, (await unknownKid.issue(claims)).token)).toMatch(/unknown key/);
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const tampered = `${header}.${b64({ ...decoded, scope: 'read:feeds use:ai' })}.${signature}`;
    expect(await rejected(tokens, tampered)).toMatch(/signature/);
    expect(await rejected(tokens, 'not.a.jwt')).toMatch(/malformed/);
  });

  it('verifies tokens of every listed key and signs with the first (rotation)', async () => {
    const old = new AccessTokens(parseSigningKeys(`a:${secretA}`), options);
    const rotated = new AccessTokens(parseSigningKeys(`b:${secretB},a:${secretA}`), options);
    expect(await rotated.verify((await old.issue(claims)).token)).toEqual(claims);
    const fresh = (await rotated.issue(claims)).token;
    expect(JSON.parse(Buffer.from(parts(fresh)[0], 'base64url').toString())).toMatchObject({ kid: 'b' });
  });

  it('refuses keys that are too short or malformed, without echoing the secret', () => {
    expect(() => parseSigningKeys('a:c2hvcnQ')).toThrow(/at least 32 bytes/);
    expect(() => parseSigningKeys(`bad kid:${secretA}`)).toThrow(/entry 1/);
    expect(() => parseSigningKeys(`a:${secretA},a:${secretB}`)).toThrow(/once/);
    try {
      parseSigningKeys('a:c2hvcnQ');
    } catch (error) {
      expect((error as Error).message).not.toContain('c2hvcnQ');
    }
    expect(parseSigningKeys('').ephemeral).toBe(true);
  });
});
