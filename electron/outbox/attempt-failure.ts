import { type AnyApiError, failureKindOf, isCommerceApiError } from '../api/index.ts';
import type { FailureNote } from './debit.ts';

/**
 * What a failed attempt means for its debit, from the client's typed error:
 *
 *   409                          → refused (terminal, the service's code kept)
 *   other 4xx                    → failed (terminal)
 *   CredentialsRejected          → the sender pauses until an administrator resumes it (a 401
 *                                  is first renewed once inside the client)
 *   429, 503                     → Retry-After (capped) + jitter
 *   500, 503, timeouts, resets   → full-jitter exponential backoff, bounded, and a retry budget
 *   a reply breaking the contract → retried later, and the card's usages are asked at once
 *
 * Nothing is deleted before a definitive answer: a failure that is not one is retried with the
 * same key, and whether the attempt may have reached the service is kept for the reconciliation.
 */
export type FailureVerdict =
  /** A definitive answer: final, never retried. */
  | { readonly action: 'settle'; readonly state: 'refused' | 'failed' }
  /** The service refused who we are; the debit was not processed. */
  | { readonly action: 'pause' }
  /** A reply we cannot read may still be an applied debit, and a resend replays it. */
  | { readonly action: 'reconcile' }
  /** No definitive answer: try again later with the same key and body. */
  | {
      readonly action: 'retry';
      readonly retryAfterMs: number | undefined;
      readonly mayHaveReached: boolean;
    }
  /** Not one of the client's errors: a bug, retried as if it may have reached the service. */
  | { readonly action: 'unexpected' };

export function classifyFailure(error: unknown): FailureVerdict {
  if (!isCommerceApiError(error)) return { action: 'unexpected' };
  const typed = error as AnyApiError;
  switch (typed.kind) {
    case 'Conflict':
      // A business answer (INSUFFICIENT_BALANCE, GIFT_CARD_INACTIVE, ...).
      return { action: 'settle', state: 'refused' };
    case 'InvalidRequest':
    case 'Forbidden':
    case 'NotFound':
      return { action: 'settle', state: 'failed' };
    case 'CredentialsRejected':
      return { action: 'pause' };
    case 'ContractViolation':
      return { action: 'reconcile' };
    case 'RateLimited':
    case 'ServiceUnavailable':
      return { action: 'retry', retryAfterMs: typed.retryAfterMs, mayHaveReached: true };
    case 'NetworkError':
    case 'Timeout':
    case 'InternalError':
    case 'Unauthorized':
      return {
        action: 'retry',
        retryAfterMs: undefined,
        mayHaveReached: failureKindOf(typed) !== 'not-sent',
      };
  }
}

/** The wait a rate limit or an unavailable service asked for, if any. */
export function retryAfterOf(error: unknown): number | undefined {
  if (!isCommerceApiError(error)) return undefined;
  const typed = error as AnyApiError;
  return typed.kind === 'RateLimited' || typed.kind === 'ServiceUnavailable'
    ? typed.retryAfterMs
    : undefined;
}

export function isCredentialsRejected(error: unknown): boolean {
  return isCommerceApiError(error) && error.kind === 'CredentialsRejected';
}

export function noteOf(error: unknown): FailureNote {
  if (isCommerceApiError(error)) return { code: error.code, message: error.message };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}
