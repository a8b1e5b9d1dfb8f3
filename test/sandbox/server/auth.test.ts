import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { AuthReply, Ping } from '../../../shared/api/auth.ts';
import { startSandbox } from '../../../sandbox/index.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());

describe('POST /auth', () => {
  test('returns a signed HS256 JWT with sub, jti and an exp 15 minutes ahead on the sandbox clock', async () => {
    const clock = await client.control('GET', '/clock');
    const now = Date.parse((clock.body as { now: string }).now) / 1000;
    const reply = await client.request('/auth', {
      method: 'POST',
      body: { email: emails.all, password: 'sandbox-all' },
    });
    expect(reply.status).toBe(200);
    const { token } = AuthReply.parse(reply.body);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('account_all');
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(Math.abs(claims.iat! - now)).toBeLessThan(5);
  });

  test('e-mails compare case-insensitively; every login gets its own jti', async () => {
    const a = await client.request('/auth', {
      method: 'POST',
      body: { email: 'KIOSK-ALL@sandbox.test', password: 'sandbox-all' },
    });
    const b = await client.request('/auth', {
      method: 'POST',
      body: { email: emails.all, password: 'sandbox-all' },
    });
    expect(decodeJwt((a.body as { token: string }).token).jti).not.toBe(
      decodeJwt((b.body as { token: string }).token).jti,
    );
  });

  test('wrong credentials are 401', async () => {
    expectError(
      await client.request('/auth', {
        method: 'POST',
        body: { email: emails.all, password: 'nope' },
      }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await client.request('/auth', {
        method: 'POST',
        body: { email: 'who@sandbox.test', password: 'sandbox-all' },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  test('the token lifetime is an option', async () => {
    const short = await startSandbox({ tokenTtlSeconds: 60 });
    try {
      const response = await fetch(`${short.baseUrl}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: emails.all, password: 'sandbox-all' }),
      });
      const claims = decodeJwt(((await response.json()) as { token: string }).token);
      expect(claims.exp! - claims.iat!).toBe(60);
    } finally {
      await short.close();
    }
  });
});

describe('bearer tokens (401 UNAUTHORIZED)', () => {
  test('a valid token reaches GET /v1/ping, even without any business scope', async () => {
    const reply = await client.as(emails.ping, '/v1/ping');
    expect(reply.status).toBe(200);
    expect(Ping.parse(reply.body).version).toBe('1.0.0');
  });

  test('missing, malformed, badly signed and foreign tokens are 401', async () => {
    const token = await client.login(emails.all);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), sub: 'account_other' })).toString('base64url')}.${signature}`;
    const other = await startSandbox();
    let foreign: string;
    try {
      const response = await fetch(`${other.baseUrl}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: emails.all, password: 'sandbox-all' }),
      });
      foreign = ((await response.json()) as { token: string }).token;
    } finally {
      await other.close();
    }
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /missing bearer token/],
      [{ authorization: '' }, /missing bearer token/],
      [{ authorization: token }, /Bearer/],
      [{ authorization: `Basic ${token}` }, /Bearer/],
      [{ authorization: 'Bearer not-a-jwt' }, /invalid/],
      [{ authorization: `Bearer ${header}.${payload}.${signature.slice(0, -4)}AAAA` }, /signature/],
      [{ authorization: `Bearer ${forged}` }, /signature/],
      [{ authorization: `Bearer ${foreign}` }, /signature/],
    ];
    for (const [headers, explanation] of cases) {
      const body = expectError(await client.request('/v1/ping', { headers }), 401, 'UNAUTHORIZED');
      expect(body.message).toMatch(explanation);
    }
  });

  test('a token expires on the sandbox clock', async () => {
    const token = await client.login(emails.all, true);
    expect((await client.request('/v1/ping', { token })).status).toBe(200);
    const advanced = await client.control('POST', '/clock/advance', { ms: 15 * 60 * 1000 + 1000 });
    expect(advanced.status).toBe(200);
    const body = expectError(await client.request('/v1/ping', { token }), 401, 'UNAUTHORIZED');
    expect(body.message).toMatch(/expired/);
    // A new login works at the new time.
    expect(
      (await client.request('/v1/ping', { token: await client.login(emails.all, true) })).status,
    ).toBe(200);
  });

  test('a revoked token is 401 until restored; other tokens of the account still work', async () => {
    const revoked = await client.login(emails.all, true);
    const other = await client.login(emails.all, true);
    expect((await client.control('POST', '/tokens/revoke', { token: revoked })).status).toBe(200);
    expect(
      expectError(await client.request('/v1/ping', { token: revoked }), 401, 'UNAUTHORIZED')
        .message,
    ).toMatch(/revoked/);
    expect((await client.request('/v1/ping', { token: other })).status).toBe(200);
    expect(
      (await client.control('POST', '/tokens/restore', { jti: decodeJwt(revoked).jti })).status,
    ).toBe(200);
    expect((await client.request('/v1/ping', { token: revoked })).status).toBe(200);
  });

  test('a revoked account: its tokens and its logins are 401 until restored', async () => {
    const token = await client.login(emails.readonly, true);
    const path = `/accounts/${encodeURIComponent(emails.readonly)}`;
    expect((await client.control('POST', `${path}/revoke`)).status).toBe(200);
    expectError(await client.request('/v1/ping', { token }), 401, 'UNAUTHORIZED');
    expectError(
      await client.request('/auth', {
        method: 'POST',
        body: { email: emails.readonly, password: 'sandbox-readonly' },
      }),
      401,
      'UNAUTHORIZED',
    );
    expect((await client.control('POST', `${path}/restore`)).status).toBe(200);
    expect((await client.request('/v1/ping', { token })).status).toBe(200);
  });

  test('scopes are read on every request: a change takes effect at once, on a live token', async () => {
    const token = await client.login(emails.catalog, true);
    const path = `/accounts/${encodeURIComponent(emails.catalog)}/scopes`;
    expect((await client.request('/v1/shops', { token })).status).toBe(200);
    expect((await client.control('PUT', path, { scopes: ['products:read'] })).status).toBe(200);
    const body = expectError(await client.request('/v1/shops', { token }), 403, 'FORBIDDEN');
    expect(body.missingScopes).toEqual(['referentials:read']);
    expect(
      (
        await client.control('PUT', path, {
          scopes: ['products:read', 'stock:read', 'referentials:read'],
        })
      ).status,
    ).toBe(200);
    expect((await client.request('/v1/shops', { token })).status).toBe(200);
  });

  test('control errors: unknown account is 404, bad scopes are 400', async () => {
    expectError(
      await client.control('POST', '/accounts/nobody@sandbox.test/revoke'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectError(
      await client.control('PUT', `/accounts/${emails.catalog}/scopes`, { scopes: ['admin'] }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await client.control('POST', '/tokens/revoke', { token: 'garbage' }),
      400,
      'INVALID_REQUEST',
    );
  });
});
