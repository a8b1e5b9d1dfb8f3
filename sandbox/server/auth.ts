import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { SignJWT, decodeJwt, errors as joseErrors, jwtVerify } from 'jose';
import type { Account, AccountStore } from './accounts.ts';
import type { SandboxClock } from './clock.ts';
import { unauthorized } from './errors.ts';

const issuer = 'commerce-sandbox';

/**
 * Bearer tokens: HS256 JWTs signed with a secret drawn at start-up (a token of another sandbox
 * instance is badly signed), carrying `sub` (the account id), `jti`, `iat` and `exp`, all on the
 * sandbox clock. The token only proves who is calling; the scopes are read from the account on
 * every request, never from the token.
 */
export class TokenService {
  readonly #secret = new Uint8Array(randomBytes(32));
  readonly #clock: SandboxClock;
  readonly #accounts: AccountStore;
  readonly #revokedJtis = new Set<string>();
  ttlSeconds: number;

  constructor(clock: SandboxClock, accounts: AccountStore, ttlSeconds: number) {
    this.#clock = clock;
    this.#accounts = accounts;
    this.ttlSeconds = ttlSeconds;
  }

  /** `POST /auth`: the account whose credentials match, or 401 (unknown, wrong password, revoked). */
  login(email: string, password: string): Account {
    const account = this.#accounts.byEmail(email);
    // Hashing first gives equal lengths to compare in constant time.
    const digest = (text: string) => createHash('sha256').update(text).digest();
    const matches =
      account !== undefined && timingSafeEqual(digest(account.password), digest(password));
    if (!account || !matches) throw unauthorized('invalid credentials');
    if (account.revoked) throw unauthorized('this integration account is revoked');
    return account;
  }

  async issue(account: Account): Promise<string> {
    const issuedAt = Math.floor(this.#clock.nowMs() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(issuer)
      .setSubject(account.id)
      .setJti(randomUUID())
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + this.ttlSeconds)
      .sign(this.#secret);
  }

  /** The account behind an `Authorization` header, or 401 with the reason. */
  async authenticate(authorization: string | undefined): Promise<Account> {
    if (authorization === undefined || authorization === '')
      throw unauthorized('missing bearer token');
    const match = /^Bearer ([A-Za-z0-9_\-.]+)$/i.exec(authorization.trim());
    if (!match?.[1]) throw unauthorized('the Authorization header must be `Bearer <token>`');
    let sub: string | undefined;
    let jti: string | undefined;
    try {
      const { payload } = await jwtVerify(match[1], this.#secret, {
        algorithms: ['HS256'],
        issuer,
        currentDate: this.#clock.now(),
        requiredClaims: ['sub', 'jti', 'exp'],
      });
      sub = payload.sub;
      jti = payload.jti;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw unauthorized('the token has expired');
      if (error instanceof joseErrors.JWSSignatureVerificationFailed)
        throw unauthorized('the token signature is invalid');
      throw unauthorized('the token is invalid');
    }
    if (jti === undefined || this.#revokedJtis.has(jti)) throw unauthorized('the token is revoked');
    const account = sub === undefined ? undefined : this.#accounts.byId(sub);
    if (!account) throw unauthorized('the token names no integration account');
    if (account.revoked) throw unauthorized('this integration account is revoked');
    return account;
  }

  /** Token revocation by the token itself or its `jti`; returns the jti. */
  revoke(tokenOrJti: { token?: string; jti?: string }): string {
    const jti = this.#jtiOf(tokenOrJti);
    this.#revokedJtis.add(jti);
    return jti;
  }

  restore(tokenOrJti: { token?: string; jti?: string }): string {
    const jti = this.#jtiOf(tokenOrJti);
    this.#revokedJtis.delete(jti);
    return jti;
  }

  clearRevocations(): void {
    this.#revokedJtis.clear();
  }

  #jtiOf({ token, jti }: { token?: string; jti?: string }): string {
    if (jti !== undefined) return jti;
    if (token === undefined) throw new TypeError('token or jti required');
    const claimed = decodeJwt(token).jti;
    if (claimed === undefined) throw new TypeError('the token has no jti');
    return claimed;
  }
}
