// OAuth access tokens: signed JWTs (HS256) with a key id, one hour of life,
// the client, its tenant and the granted scopes. Verification pins the
// algorithm, so "alg: none" or a different algorithm is refused, looks the key
// up by kid, and checks signature, issuer, audience and expiry.
import { SignJWT, errors, jwtVerify, type JWTHeaderParameters } from 'jose';
import type { SigningKeys } from './signing-keys.ts';

export const tokenLifetimeSeconds = 3600;
const algorithm = 'HS256';

export interface TokenClaims {
  clientId: string;
  tenantId: string;
  scopes: readonly string[];
}

export interface IssuedToken {
  token: string;
  expiresIn: number;
}

export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'InvalidTokenError';
  }
}

export class AccessTokens {
  constructor(
    private readonly keys: SigningKeys,
    private readonly options: {
      issuer: string;
      audience: string;
      /** Default: tokenLifetimeSeconds. */
      lifetimeSeconds?: number;
      clock?: () => number;
    },
  ) {}

  get lifetimeSeconds(): number {
    return this.options.lifetimeSeconds ?? tokenLifetimeSeconds;
  }

  private nowSeconds(): number {
    return Math.floor((this.options.clock ?? Date.now)() / 1000);
  }

  async issue(claims: TokenClaims): Promise<IssuedToken> {
    const now = this.nowSeconds();
    const token = await new SignJWT({ scope: claims.scopes.join(' '), tenant_id: claims.tenantId })
      .setProtectedHeader({ alg: algorithm, kid: this.keys.current.kid, typ: 'at+jwt' })
      .setSubject(claims.clientId)
      .setIssuer(this.options.issuer)
      .setAudience(this.options.audience)
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + this.lifetimeSeconds)
      .setJti(crypto.randomUUID())
      .sign(this.keys.current.secret);
    return { token, expiresIn: this.lifetimeSeconds };
  }

  /** The claims of a valid token; InvalidTokenError (with a reason safe to show) otherwise. */
  async verify(token: string): Promise<TokenClaims> {
    try {
      const { payload } = await jwtVerify(
        token,
        (header: JWTHeaderParameters) => {
          const key = header.kid === undefined ? undefined : this.keys.byKid.get(header.kid);
          if (!key) throw new InvalidTokenError('the token was signed with an unknown key');
          return key.secret;
        },
        {
          algorithms: [algorithm],
          issuer: this.options.issuer,
          audience: this.options.audience,
          typ: 'at+jwt',
          currentDate: new Date(this.nowSeconds() * 1000),
          requiredClaims: ['sub', 'exp', 'iat', 'scope', 'tenant_id'],
        },
      );
      if (typeof payload.scope !== 'string' || typeof payload.tenant_id !== 'string' || !payload.sub) {
        throw new InvalidTokenError('the token lacks its client, tenant or scope');
      }
      return {
        clientId: payload.sub,
        tenantId: payload.tenant_id,
        scopes: payload.scope.split(' ').filter(Boolean),
      };
    } catch (error) {
      if (error instanceof InvalidTokenError) throw error;
      if (error instanceof errors.JWTExpired) throw new InvalidTokenError('the token has expired');
      if (error instanceof errors.JWSSignatureVerificationFailed) {
        throw new InvalidTokenError('the token signature is not valid');
      }
      if (error instanceof errors.JOSEAlgNotAllowed)
        throw new InvalidTokenError('the token algorithm is not allowed');
      if (error instanceof errors.JWTClaimValidationFailed) {
        throw new InvalidTokenError(`the token is not valid here (${error.claim})`);
      }
      throw new InvalidTokenError('the token is malformed');
    }
  }
}
