import { describe, expect, test } from 'vitest';
import { operations } from '../../../shared/api/operations.ts';
import {
  Conflict,
  ContractViolation,
  Forbidden,
  InternalError,
  InvalidRequest,
  NetworkError,
  NotFound,
  RateLimited,
  ServiceUnavailable,
  Timeout,
  Unauthorized,
  type AnyApiError,
} from '../../../electron/api/errors.ts';
import { parseRetryAfter } from '../../../electron/api/retry-after.ts';
import {
  RetryBudget,
  backoffDelay,
  decideRetry,
  defaultRetryPolicy,
  failureKindOf,
  resolveRetryPolicy,
  retryClassOf,
  type RetryClass,
} from '../../../electron/api/retry-policy.ts';
import { FakeClock, sequence } from './support/fake-clock.ts';

const init = { code: 'X', explanation: 'x', operationId: 'op' };
const sample = {
  badRequest: new InvalidRequest({ ...init, status: 400, local: false }),
  unauthorized: new Unauthorized({ ...init, status: 401 }),
  forbidden: new Forbidden({ ...init, status: 403, missingScopes: [] }),
  notFound: new NotFound({ ...init, status: 404 }),
  conflict: new Conflict({ ...init, status: 409 }),
  rateLimited: new RateLimited({ ...init, status: 429, retryAfterMs: undefined }),
  internal: new InternalError({ ...init, status: 500 }),
  unavailable: new ServiceUnavailable({ ...init, status: 503 }),
  refused: new NetworkError({ ...init, requestSent: false, systemCode: 'ECONNREFUSED' }),
  reset: new NetworkError({ ...init, requestSent: true, systemCode: 'ECONNRESET' }),
  connectTimeout: new Timeout({ ...init, phase: 'connect', timeoutMs: 1 }),
  responseTimeout: new Timeout({ ...init, phase: 'response', timeoutMs: 1 }),
  contract: new ContractViolation({
    operationId: 'op',
    reason: 'shape',
    path: 'a',
    explanation: 'x',
  }),
} satisfies Record<string, AnyApiError>;

const retried = (retryClass: RetryClass, error: AnyApiError) =>
  decideRetry({ policy: defaultRetryPolicy, retryClass, error, attempt: 1, random: () => 0.5 })
    .retry;

describe('retry rules as data', () => {
  test('the retry class comes from the operation shape', () => {
    expect(retryClassOf(operations.listProducts)).toBe('read');
    expect(retryClassOf(operations.authenticate)).toBe('read');
    expect(retryClassOf(operations.replaceCustomer)).toBe('replace');
    expect(retryClassOf(operations.debitGiftCard)).toBe('idempotentWrite');
  });

  test('400, 401, 403, 404, 409 and contract violations are never retried, whatever the class', () => {
    for (const retryClass of ['read', 'replace', 'idempotentWrite'] as const) {
      for (const error of [
        sample.badRequest,
        sample.unauthorized,
        sample.forbidden,
        sample.notFound,
        sample.conflict,
        sample.contract,
      ]) {
        expect(failureKindOf(error)).toBeUndefined();
        expect(retried(retryClass, error)).toBe(false);
      }
    }
  });

  test('GET and gift-card PUT retry every transient failure', () => {
    for (const retryClass of ['read', 'idempotentWrite'] as const) {
      for (const error of [
        sample.rateLimited,
        sample.internal,
        sample.unavailable,
        sample.refused,
        sample.reset,
        sample.connectTimeout,
        sample.responseTimeout,
      ]) {
        expect(retried(retryClass, error)).toBe(true);
      }
    }
  });

  test('customer PUT retries only when the server surely did not apply it', () => {
    expect(retried('replace', sample.rateLimited)).toBe(true);
    expect(retried('replace', sample.unavailable)).toBe(true);
    expect(retried('replace', sample.refused)).toBe(true);
    expect(retried('replace', sample.connectTimeout)).toBe(true);
    expect(retried('replace', sample.internal)).toBe(false);
    expect(retried('replace', sample.reset)).toBe(false);
    expect(retried('replace', sample.responseTimeout)).toBe(false);
  });

  test('attempts stop at maxAttempts per class', () => {
    const ask = (retryClass: RetryClass, attempt: number) =>
      decideRetry({
        policy: defaultRetryPolicy,
        retryClass,
        error: sample.unavailable,
        attempt,
        random: () => 0,
      });
    expect(ask('read', 3).retry).toBe(true);
    expect(ask('read', 4)).toEqual({ retry: false, reason: 'max-attempts' });
    expect(ask('replace', 2).retry).toBe(true);
    expect(ask('replace', 3)).toEqual({ retry: false, reason: 'max-attempts' });
    expect(ask('idempotentWrite', 4).retry).toBe(true);
    expect(ask('idempotentWrite', 5)).toEqual({ retry: false, reason: 'max-attempts' });
  });

  test('overrides merge into the defaults and are checked', () => {
    const policy = resolveRetryPolicy({
      rules: { read: { maxAttempts: 2 } },
      backoff: { capMs: 40 },
    });
    expect(policy.rules.read).toEqual({
      maxAttempts: 2,
      retryOn: defaultRetryPolicy.rules.read.retryOn,
    });
    expect(policy.backoff).toEqual({ baseMs: 250, capMs: 40 });
    expect(() => resolveRetryPolicy({ rules: { read: { maxAttempts: 0 } } })).toThrow(
      /maxAttempts/,
    );
    expect(() => resolveRetryPolicy({ backoff: { baseMs: -1 } })).toThrow(/baseMs/);
  });
});

describe('delays', () => {
  test('full-jitter exponential backoff: uniform below min(cap, base * 2^(n-1))', () => {
    const backoff = { baseMs: 100, capMs: 1_000 };
    expect(
      [1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(backoff, attempt, () => 0.999)),
    ).toEqual([99, 199, 399, 799, 999, 999]);
    expect([1, 2, 3].map((attempt) => backoffDelay(backoff, attempt, () => 0.5))).toEqual([
      50, 100, 200,
    ]);
    expect(backoffDelay(backoff, 3, () => 0)).toBe(0);
  });

  test('Retry-After is honoured, plus a small jitter, up to the cap; beyond it the error is surfaced', () => {
    const policy = resolveRetryPolicy({ retryAfter: { capMs: 5_000, jitterMs: 100 } });
    const limited = (retryAfterMs: number) =>
      new RateLimited({ ...init, status: 429, retryAfterMs });
    expect(
      decideRetry({
        policy,
        retryClass: 'read',
        error: limited(2_000),
        attempt: 1,
        random: () => 0.5,
      }),
    ).toEqual({
      retry: true,
      delayMs: 2_050,
      basis: 'retry-after',
      failure: 'rate-limited',
    });
    expect(
      decideRetry({
        policy,
        retryClass: 'read',
        error: limited(6_000),
        attempt: 1,
        random: () => 0.5,
      }),
    ).toEqual({
      retry: false,
      reason: 'retry-after-too-long',
    });
    // A 503 announcing the end of a maintenance window is honoured the same way.
    const maintenance = new ServiceUnavailable({ ...init, status: 503, retryAfterMs: 1_000 });
    expect(
      decideRetry({
        policy,
        retryClass: 'idempotentWrite',
        error: maintenance,
        attempt: 2,
        random: () => 0,
      }),
    ).toMatchObject({
      delayMs: 1_000,
      basis: 'retry-after',
    });
    // Without Retry-After a 429 backs off exponentially.
    expect(
      decideRetry({
        policy,
        retryClass: 'read',
        error: sample.rateLimited,
        attempt: 2,
        random: () => 0.5,
      }),
    ).toMatchObject({
      delayMs: 250,
      basis: 'backoff',
    });
  });
});

describe('Retry-After parsing', () => {
  const now = Date.parse('2025-06-01T09:00:00Z');
  test('delta-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('7', now)).toBe(7_000);
    expect(parseRetryAfter(' 120 ', now)).toBe(120_000);
  });
  test('HTTP-date, in the three formats, relative to the injected now', () => {
    expect(parseRetryAfter('Sun, 01 Jun 2025 09:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sunday, 01-Jun-25 09:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Sun Jun  1 09:00:10 2025', now)).toBeTypeOf('number');
    expect(parseRetryAfter('Sun, 01 Jun 2025 08:00:00 GMT', now)).toBe(0);
  });
  test('absent or unreadable values give undefined', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('Mon, 99 Foo 2025 00:00:00 GMT', now)).toBeUndefined();
  });
});

describe('retry budget', () => {
  test('a token bucket: capacity retries at once, then refill with time', () => {
    const clock = new FakeClock();
    const budget = new RetryBudget({ capacity: 3, refillPerSecond: 2 }, () => clock.now());
    expect([budget.tryTake(), budget.tryTake(), budget.tryTake(), budget.tryTake()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    clock.advance(499);
    expect(budget.tryTake()).toBe(false);
    clock.advance(1);
    expect(budget.tryTake()).toBe(true);
    clock.advance(60_000);
    expect(budget.available()).toBe(3);
  });

  test('jitter draws come from the injected random', () => {
    const random = sequence(0.25, 0.75);
    expect(backoffDelay({ baseMs: 1000, capMs: 10_000 }, 1, random)).toBe(250);
    expect(backoffDelay({ baseMs: 1000, capMs: 10_000 }, 1, random)).toBe(750);
  });
});
