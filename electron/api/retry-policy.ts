import type { Operation } from '../../shared/api/operation.ts';
import type { AnyApiError } from './errors.ts';

/**
 * Which failures are retried is data, not code spread over the client, so the rules can be read,
 * tested and overridden in one place (stripe-node keeps the same decision in one function).
 *
 * - `read`: GETs and POST /auth. Nothing changes on the server, so every transient failure retries.
 * - `replace`: PUT of a full customer record, which carries no idempotency key. It retries only
 *   when the server surely did not apply it (not sent, 429, 503). After a 500 or an unknown
 *   outcome the caller decides: a replay later could overwrite an edit staff made meanwhile.
 * - `idempotentWrite`: PUT with an `Idempotency-Key` (gift-card debit). The server replays the
 *   first answer for the same key and body, so every transient failure retries, always with the
 *   exact same key and bytes.
 * 400, 401, 403, 404 and 409 never reach these rules as retryable: they are answers, not failures
 * (401 is handled once by the token layer).
 */
export type RetryClass = 'read' | 'replace' | 'idempotentWrite';

/**
 * - `not-sent`: the request surely never reached the server (refused, DNS, connect timeout).
 * - `unknown-outcome`: it may have been processed (reset mid-exchange, response timeout).
 * - `rate-limited`: 429. `internal`: 500 and other 5xx. `unavailable`: 503, 502, 504.
 */
export type FailureKind =
  'not-sent' | 'unknown-outcome' | 'rate-limited' | 'internal' | 'unavailable';

export interface RetryRule {
  /** Attempts in total, the first one included. */
  readonly maxAttempts: number;
  readonly retryOn: readonly FailureKind[];
}

export interface RetryPolicy {
  readonly rules: Readonly<Record<RetryClass, RetryRule>>;
  /** Full-jitter exponential backoff: a delay drawn uniformly in [0, min(capMs, baseMs * 2^(n-1))). */
  readonly backoff: { readonly baseMs: number; readonly capMs: number };
  /**
   * A server-given `Retry-After` is honoured up to `capMs`, plus up to `jitterMs` of random delay
   * so that kiosks told the same instant do not come back together. Beyond the cap the error is
   * surfaced with its `retryAfterMs` instead: the caller (the outbox) can schedule a long wait,
   * an interactive call should not block for it.
   */
  readonly retryAfter: { readonly capMs: number; readonly jitterMs: number };
  /**
   * Token bucket shared by every call of one client: each retry takes a token, tokens come back at
   * `refillPerSecond`. When the service is down, retries stop multiplying the load.
   */
  readonly budget: { readonly capacity: number; readonly refillPerSecond: number };
}

const allTransient: readonly FailureKind[] = [
  'not-sent',
  'unknown-outcome',
  'rate-limited',
  'internal',
  'unavailable',
];

export const defaultRetryPolicy: RetryPolicy = {
  rules: {
    read: { maxAttempts: 4, retryOn: allTransient },
    replace: { maxAttempts: 3, retryOn: ['not-sent', 'rate-limited', 'unavailable'] },
    idempotentWrite: { maxAttempts: 5, retryOn: allTransient },
  },
  backoff: { baseMs: 250, capMs: 8_000 },
  retryAfter: { capMs: 20_000, jitterMs: 250 },
  budget: { capacity: 10, refillPerSecond: 0.5 },
};

export interface RetryPolicyOverrides {
  readonly rules?: { readonly [K in RetryClass]?: Partial<RetryRule> };
  readonly backoff?: Partial<RetryPolicy['backoff']>;
  readonly retryAfter?: Partial<RetryPolicy['retryAfter']>;
  readonly budget?: Partial<RetryPolicy['budget']>;
}

export function resolveRetryPolicy(
  overrides: RetryPolicyOverrides = {},
  base: RetryPolicy = defaultRetryPolicy,
): RetryPolicy {
  const rule = (name: RetryClass): RetryRule => ({
    ...base.rules[name],
    ...overrides.rules?.[name],
  });
  const policy: RetryPolicy = {
    rules: {
      read: rule('read'),
      replace: rule('replace'),
      idempotentWrite: rule('idempotentWrite'),
    },
    backoff: { ...base.backoff, ...overrides.backoff },
    retryAfter: { ...base.retryAfter, ...overrides.retryAfter },
    budget: { ...base.budget, ...overrides.budget },
  };
  for (const [name, value] of Object.entries(policy.rules)) {
    if (!Number.isInteger(value.maxAttempts) || value.maxAttempts < 1) {
      throw new RangeError(`retry rule ${name}: maxAttempts must be an integer >= 1`);
    }
  }
  for (const [name, value] of [
    ['backoff.baseMs', policy.backoff.baseMs],
    ['backoff.capMs', policy.backoff.capMs],
    ['retryAfter.capMs', policy.retryAfter.capMs],
    ['retryAfter.jitterMs', policy.retryAfter.jitterMs],
    ['budget.capacity', policy.budget.capacity],
    ['budget.refillPerSecond', policy.budget.refillPerSecond],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`retry policy ${name} must be a finite number >= 0`);
  }
  return policy;
}

/** Derived from the operation's shape, not its name: a new idempotent PUT gets the right rule. */
export function retryClassOf(operation: Pick<Operation, 'method' | 'headers'>): RetryClass {
  if (operation.method !== 'PUT') return 'read';
  return operation.headers && 'Idempotency-Key' in operation.headers.shape
    ? 'idempotentWrite'
    : 'replace';
}

/** Undefined for a failure no rule may retry. */
export function failureKindOf(error: AnyApiError): FailureKind | undefined {
  switch (error.kind) {
    case 'NetworkError':
      return error.requestSent ? 'unknown-outcome' : 'not-sent';
    case 'Timeout':
      return error.phase === 'connect' ? 'not-sent' : 'unknown-outcome';
    case 'RateLimited':
      return 'rate-limited';
    case 'InternalError':
      return 'internal';
    case 'ServiceUnavailable':
      return 'unavailable';
    default:
      return undefined;
  }
}

export type RetryDecision =
  | {
      readonly retry: true;
      readonly delayMs: number;
      readonly basis: 'retry-after' | 'backoff';
      readonly failure: FailureKind;
    }
  | {
      readonly retry: false;
      readonly reason: 'not-retryable' | 'rule' | 'max-attempts' | 'retry-after-too-long';
    };

/** Uniform in [0, min(cap, base * 2^(attempt-1))): attempt 1 is the first retry's draw. */
export function backoffDelay(
  backoff: RetryPolicy['backoff'],
  attempt: number,
  random: () => number,
): number {
  const ceiling = Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

export interface RetryQuestion {
  readonly policy: RetryPolicy;
  readonly retryClass: RetryClass;
  readonly error: AnyApiError;
  /** Attempts already made, the failed one included (1 after the first failure). */
  readonly attempt: number;
  readonly random: () => number;
}

export function decideRetry({
  policy,
  retryClass,
  error,
  attempt,
  random,
}: RetryQuestion): RetryDecision {
  const failure = failureKindOf(error);
  if (failure === undefined) return { retry: false, reason: 'not-retryable' };
  const rule = policy.rules[retryClass];
  if (!rule.retryOn.includes(failure)) return { retry: false, reason: 'rule' };
  if (attempt >= rule.maxAttempts) return { retry: false, reason: 'max-attempts' };
  const retryAfterMs =
    error.kind === 'RateLimited' || error.kind === 'ServiceUnavailable'
      ? error.retryAfterMs
      : undefined;
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > policy.retryAfter.capMs)
      return { retry: false, reason: 'retry-after-too-long' };
    const delayMs = retryAfterMs + Math.floor(random() * policy.retryAfter.jitterMs);
    return { retry: true, delayMs, basis: 'retry-after', failure };
  }
  return {
    retry: true,
    delayMs: backoffDelay(policy.backoff, attempt, random),
    basis: 'backoff',
    failure,
  };
}

/** The retry budget: a token bucket refilled with time, read from the injected clock. */
export class RetryBudget {
  readonly #capacity: number;
  readonly #refillPerMs: number;
  readonly #now: () => number;
  #tokens: number;
  #updatedAt: number;

  constructor(budget: RetryPolicy['budget'], now: () => number) {
    this.#capacity = budget.capacity;
    this.#refillPerMs = budget.refillPerSecond / 1000;
    this.#now = now;
    this.#tokens = budget.capacity;
    this.#updatedAt = now();
  }

  /** Tokens left now, fractional. */
  available(): number {
    this.#refill();
    return this.#tokens;
  }

  /** Takes one token for a retry; false when the budget is spent. */
  tryTake(): boolean {
    this.#refill();
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.#capacity, this.#tokens + elapsed * this.#refillPerMs);
    this.#updatedAt = now;
  }
}
