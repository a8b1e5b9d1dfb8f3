import type { Logger } from '../logging/index.ts';
import type { Clock } from '../foundation/index.ts';
import { CredentialsRejected, isCommerceApiError } from './errors.ts';

/** The integration account's credentials, read from the vault by the main process on demand. */
export interface Credentials {
  readonly email: string;
  readonly password: string;
  /**
   * The API origin (`https://host[:port]`) these credentials belong to: the client refuses to
   * send them to any other (`credentialsFor`). Absent only where whoever built the provider
   * bound it to this client themselves (a test's account, an integrator's own provider).
   */
  readonly origin?: string | undefined;
}

/**
 * Called on every token issue rather than once, so rotated credentials are picked up and the
 * password is never kept in the client's memory longer than one POST /auth.
 */
export type CredentialsProvider = () => Promise<Credentials>;

/**
 * What POST /auth may send to `baseUrl`: the e-mail and password, only when the credentials are
 * bound to that base URL's origin. This is the last check before anything leaves the process,
 * whatever chose the base URL (setup, a settings file, a flag), so credentials of one service are
 * never sent to another. Throws CredentialsRejected `CREDENTIALS_ORIGIN_MISMATCH`: nothing is sent.
 */
export function credentialsFor(
  credentials: Credentials,
  baseUrl: string,
): { readonly email: string; readonly password: string } {
  const target = new URL(baseUrl).origin;
  if (credentials.origin !== undefined && originOf(credentials.origin) !== target) {
    throw new CredentialsRejected({
      code: 'CREDENTIALS_ORIGIN_MISMATCH',
      explanation: `the integration account's credentials belong to ${originOf(credentials.origin) ?? 'an unreadable origin'}, not to ${target}: nothing was sent. Store the account for ${target} (setup screen, or kioskctl credentials set) if that is the service to use`,
      operationId: 'authenticate',
    });
  }
  return { email: credentials.email, password: credentials.password };
}

function originOf(url: string): string | undefined {
  return URL.parse(url)?.origin;
}

export interface JwtClaims {
  /** Epoch seconds. */
  readonly exp?: number;
  readonly iat?: number;
  readonly scopes?: readonly string[];
}

/**
 * Reads the JWT payload without verifying it: the client has no key to verify with, and does not
 * need one; it only wants to know when to renew. A token it cannot read is still used, and a 401
 * will tell when it expired.
 */
export function decodeJwtClaims(token: string): JwtClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const record = payload as Record<string, unknown>;
  const seconds = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const scopeList = Array.isArray(record['scopes'])
    ? record['scopes'].filter((entry): entry is string => typeof entry === 'string')
    : typeof record['scope'] === 'string'
      ? record['scope'].split(' ').filter((entry) => entry !== '')
      : undefined;
  const claims: { exp?: number; iat?: number; scopes?: readonly string[] } = {};
  const exp = seconds(record['exp']);
  const iat = seconds(record['iat']);
  if (exp !== undefined) claims.exp = exp;
  if (iat !== undefined) claims.iat = iat;
  if (scopeList !== undefined) claims.scopes = scopeList;
  return claims;
}

export interface AccessToken {
  readonly value: string;
  /** Increments on every issue: tells a stale 401 from one about the current token. */
  readonly generation: number;
  /** Epoch ms on the client's clock (from `exp - iat` when both are given); undefined when the token does not say. */
  readonly expiresAt: number | undefined;
  /** Epoch ms at which a call renews before using the token. */
  readonly renewAt: number | undefined;
  readonly scopes: readonly string[] | undefined;
}

export interface TokenManagerOptions {
  /** POST /auth with fresh credentials; returns the JWT. Throws the client's typed errors. */
  readonly issue: () => Promise<string>;
  readonly clock: Clock;
  /** Renew this long before `exp` (at most a fifth of the token's lifetime, for short-lived tokens). */
  readonly renewBeforeMs: number;
  readonly logger: Logger;
}

/**
 * Holds the bearer token in memory only. Renewal is single-flight: however many calls find the
 * token stale or get a 401 at once, one POST /auth is made and they all wait for it.
 */
export class TokenManager {
  readonly #options: TokenManagerOptions;
  #current: AccessToken | undefined;
  #inflight: Promise<AccessToken> | undefined;
  #generation = 0;

  constructor(options: TokenManagerOptions) {
    this.#options = options;
  }

  /** The token to use now, renewing first when it is missing or due. */
  async current(): Promise<AccessToken> {
    const token = this.#current;
    if (token && (token.renewAt === undefined || this.#options.clock.now() < token.renewAt))
      return token;
    if (!token) return this.#renew('initial');
    try {
      return await this.#renew('expiry');
    } catch (error) {
      // A hiccup of POST /auth should not stop calls while the current token is still valid.
      const stillValid =
        token.expiresAt !== undefined && this.#options.clock.now() < token.expiresAt;
      if (stillValid && !(error instanceof CredentialsRejected) && this.#current === token) {
        this.#options.logger.warn('api.token.renewal_deferred', {
          reason: isCommerceApiError(error) ? error.code : 'unknown',
        });
        return token;
      }
      throw error;
    }
  }

  /**
   * After a 401 with `rejected`: renews unless another call already did (then its token is
   * returned), joining a renewal in flight.
   */
  async renewAfterRejection(rejected: AccessToken): Promise<AccessToken> {
    if (this.#current && this.#current.generation !== rejected.generation) return this.#current;
    if (this.#current?.generation === rejected.generation) this.#current = undefined;
    return this.#renew('rejected');
  }

  /** Forces a fresh token (joining one in flight). */
  renew(): Promise<AccessToken> {
    return this.#renew('forced');
  }

  /** Forgets the token (the kiosk is being unprovisioned). */
  clear(): void {
    this.#current = undefined;
  }

  #renew(reason: 'initial' | 'expiry' | 'rejected' | 'forced'): Promise<AccessToken> {
    if (this.#inflight) return this.#inflight;
    const started = this.#options.clock.now();
    const flight = (async () => {
      try {
        const value = await this.#options.issue();
        const claims = decodeJwtClaims(value);
        const receivedAt = this.#options.clock.now();
        let expiresAt: number | undefined;
        let renewAt: number | undefined;
        if (claims?.exp !== undefined) {
          // With `iat`, the lifetime is measured on the server's clock and laid on ours from the
          // moment we asked: a kiosk whose clock is off by minutes still renews on time instead of
          // on every call (or never).
          const lifetime =
            claims.iat !== undefined ? Math.max(0, (claims.exp - claims.iat) * 1000) : undefined;
          expiresAt = lifetime !== undefined ? started + lifetime : claims.exp * 1000;
          const knownLifetime = lifetime ?? Math.max(0, expiresAt - receivedAt);
          renewAt = expiresAt - Math.min(this.#options.renewBeforeMs, knownLifetime / 5);
        } else {
          this.#options.logger.warn('api.token.no_expiry', { note: 'renewal will wait for a 401' });
        }
        this.#generation += 1;
        const token: AccessToken = {
          value,
          generation: this.#generation,
          expiresAt,
          renewAt,
          scopes: claims?.scopes,
        };
        this.#current = token;
        this.#options.logger.info('api.token.issued', {
          reason,
          generation: token.generation,
          expiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
          durationMs: receivedAt - started,
        });
        return token;
      } catch (error) {
        this.#options.logger.warn('api.token.issue_failed', {
          reason,
          kind: isCommerceApiError(error) ? error.kind : 'unknown',
          code: isCommerceApiError(error) ? error.code : 'unknown',
        });
        throw error;
      }
    })();
    this.#inflight = flight;
    // Cleared once settled, however early `issue` failed; the flight's own rejection goes to callers.
    const settle = () => {
      if (this.#inflight === flight) this.#inflight = undefined;
    };
    flight.then(settle, settle);
    return flight;
  }
}
