import { describe, expect, test } from 'vitest';
import { CredentialsRejected, NetworkError } from '../../../electron/api/errors.ts';
import { TokenManager, decodeJwtClaims } from '../../../electron/api/token.ts';
import { silentLogger } from '../../../electron/logging/redacting-logger.ts';
import { FakeClock } from './support/fake-clock.ts';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (payload: unknown) =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.c2lnbmF0dXJl`;

describe('JWT claims', () => {
  test('exp, iat and scopes are read from the base64url payload without verification', () => {
    expect(
      decodeJwtClaims(jwt({ exp: 1_800_000_000, iat: 1_799_999_100, scopes: ['a', 'b'] })),
    ).toEqual({
      exp: 1_800_000_000,
      iat: 1_799_999_100,
      scopes: ['a', 'b'],
    });
    expect(decodeJwtClaims(jwt({ exp: 5, scope: 'a b' }))).toEqual({ exp: 5, scopes: ['a', 'b'] });
    // base64url, not base64: '-' and '_' decode.
    expect(decodeJwtClaims(jwt({ exp: 1, sub: '>>>???' }))?.exp).toBe(1);
  });

  test('unreadable tokens give undefined, never a throw', () => {
    expect(decodeJwtClaims('opaque-token')).toBeUndefined();
    expect(decodeJwtClaims('a.b.c')).toBeUndefined();
    expect(decodeJwtClaims(`x.${b64([1, 2])}.y`)).toBeUndefined();
    expect(decodeJwtClaims(jwt({ exp: 'tomorrow' }))).toEqual({});
  });
});

function manager(clock: FakeClock, issue: () => Promise<string>, renewBeforeMs = 60_000) {
  return new TokenManager({ issue, clock, renewBeforeMs, logger: silentLogger });
}

describe('token manager', () => {
  test('single-flight: concurrent callers share one issue', async () => {
    const clock = new FakeClock();
    let issued = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tokens = manager(clock, async () => {
      issued += 1;
      await gate;
      return jwt({ exp: clock.now() / 1000 + 900, iat: clock.now() / 1000 });
    });
    const pending = Array.from({ length: 20 }, () => tokens.current());
    release();
    const results = await Promise.all(pending);
    expect(issued).toBe(1);
    expect(new Set(results.map((token) => token.generation))).toEqual(new Set([1]));
  });

  test('renews proactively shortly before exp (a fifth of the lifetime at most)', async () => {
    const clock = new FakeClock();
    let issued = 0;
    const tokens = manager(clock, async () => {
      issued += 1;
      return jwt({ exp: clock.now() / 1000 + 900, iat: clock.now() / 1000 });
    });
    const first = await tokens.current();
    expect(first.renewAt).toBe(first.expiresAt! - 60_000);
    clock.advance(900_000 - 60_001);
    expect((await tokens.current()).generation).toBe(1);
    clock.advance(1);
    expect((await tokens.current()).generation).toBe(2);
    expect(issued).toBe(2);

    // A 60 s token renews 12 s before exp, not on every call.
    const short = manager(clock, async () =>
      jwt({ exp: clock.now() / 1000 + 60, iat: clock.now() / 1000 }),
    );
    const token = await short.current();
    expect(token.expiresAt! - token.renewAt!).toBe(12_000);
  });

  test('expiry is laid on the local clock from exp - iat, so a skewed kiosk clock renews on time', async () => {
    const clock = new FakeClock();
    let issued = 0;
    // The server's clock is an hour ahead of the kiosk's.
    const serverNow = () => clock.now() / 1000 + 3_600;
    const tokens = manager(clock, async () => {
      issued += 1;
      return jwt({ iat: serverNow(), exp: serverNow() + 900 });
    });
    const token = await tokens.current();
    expect(token.expiresAt).toBe(clock.now() + 900_000);
    clock.advance(60_000);
    await tokens.current();
    expect(issued).toBe(1);
  });

  test('after a 401, callers holding the rejected generation share one renewal; a stale 401 does not renew again', async () => {
    const clock = new FakeClock();
    let issued = 0;
    const tokens = manager(clock, async () => {
      issued += 1;
      return jwt({ exp: clock.now() / 1000 + 900 });
    });
    const rejected = await tokens.current();
    const renewed = await Promise.all(
      Array.from({ length: 10 }, () => tokens.renewAfterRejection(rejected)),
    );
    expect(issued).toBe(2);
    expect(new Set(renewed.map((token) => token.generation))).toEqual(new Set([2]));
    await tokens.renewAfterRejection(rejected);
    expect(issued).toBe(2);
  });

  test('a failed proactive renewal keeps using a still-valid token, but not after CredentialsRejected', async () => {
    const clock = new FakeClock();
    let fail: Error | undefined;
    const tokens = manager(clock, async () => {
      if (fail) throw fail;
      return jwt({ exp: clock.now() / 1000 + 900, iat: clock.now() / 1000 });
    });
    const first = await tokens.current();
    clock.advance(900_000 - 30_000);
    fail = new NetworkError({ code: 'NETWORK_ERROR', explanation: 'down', requestSent: false });
    expect(await tokens.current()).toBe(first);
    fail = new CredentialsRejected({ code: 'UNAUTHORIZED', status: 401, explanation: 'revoked' });
    await expect(tokens.current()).rejects.toBeInstanceOf(CredentialsRejected);
    // Past exp nothing is kept.
    clock.advance(60_000);
    fail = new NetworkError({ code: 'NETWORK_ERROR', explanation: 'down', requestSent: false });
    await expect(tokens.current()).rejects.toBeInstanceOf(NetworkError);
  });

  test('a synchronous failure of issue does not leave a stuck renewal behind', async () => {
    const clock = new FakeClock();
    let calls = 0;
    const tokens = manager(clock, () => {
      calls += 1;
      if (calls === 1) throw new Error('boom');
      return Promise.resolve(jwt({ exp: clock.now() / 1000 + 900 }));
    });
    await expect(tokens.current()).rejects.toThrow('boom');
    expect((await tokens.current()).generation).toBe(1);
  });
});
