import { type AnyApiError, failureKindOf, isCommerceApiError } from '../api/index.ts';
import type { FailureNote } from './debit.ts';
import type { PauseReason } from './events.ts';

/**
 * What a failed attempt means for its debit, from the client's typed error:
 *
 *   409                          → refused (terminal, the service's code kept), unless it may be
 *                                  the service's answer to a reused key (same key, another body:
 *                                  the spec's idempotency rule 2): then never a refusal, the
 *                                  outcome of the key's first use is unknown (`conflict`)
 *   404, other 4xx               → failed (terminal: no such card, nothing can be debited)
 *   400, 422, 403                → held: the request's shape (the integration profile) or the
 *                                  account's scopes are wrong, not the customer's card; the debit
 *                                  stays pending and the sender pauses for an administrator
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
  | { readonly action: 'settle'; readonly state: 'failed' }
  /**
   * A 409: a business refusal (final) unless the kiosk's own record or the service's words say
   * the key may have gone out with another body (`namesKey`: the reply speaks of the idempotency
   * key); the caller decides with the row in hand.
   */
  | { readonly action: 'conflict'; readonly namesKey: boolean }
  /**
   * The service refused who we are, or our request; the debit was not processed. `answered`: the
   * service itself refused these very bytes under this key (400, 422), which it could not do had
   * it applied them under it: a definitive answer to the key.
   */
  | {
      readonly action: 'pause';
      readonly reason: PauseReason;
      readonly note?: FailureNote;
      readonly answered?: boolean;
    }
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
      // A business answer (INSUFFICIENT_BALANCE, GIFT_CARD_INACTIVE, ...), or the service's
      // 409 for a key reused with another body, which the spec gives the same status and code.
      return {
        action: 'conflict',
        namesKey: /idempotency/i.test(`${typed.code} ${typed.message}`),
      };
    case 'InvalidRequest':
      // 400 and 422 (the service could not process the body) say the request's shape is wrong,
      // as does the client refusing it before sending; any other 4xx (405, 410...) is no more
      // an administrator's than the customer's to fix: failed, as before.
      if (typed.local || typed.status === 400 || typed.status === 422) {
        return {
          action: 'pause',
          reason: 'request-refused',
          note: heldNote('request', typed),
          answered: !typed.local,
        };
      }
      return { action: 'settle', state: 'failed' };
    case 'Forbidden':
      return { action: 'pause', reason: 'scope-missing', note: heldNote('scope', typed) };
    case 'NotFound':
      return { action: 'settle', state: 'failed' };
    case 'CredentialsRejected':
      return { action: 'pause', reason: 'credentials-rejected' };
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

/**
 * What staff and the technician read about a held debit: who must act and what the service said
 * (its message carries no personal data: the card id is not in it).
 */
function heldNote(refused: 'request' | 'scope', error: AnyApiError): FailureNote {
  const local = error.kind === 'InvalidRequest' && error.local;
  const status = local ? 'refused before sending' : String(error.status ?? 'no status');
  const missing =
    'missingScopes' in error && Array.isArray(error.missingScopes) && error.missingScopes.length > 0
      ? ` (missing scopes: ${error.missingScopes.join(', ')})`
      : '';
  return refused === 'request'
    ? {
        code: 'DEBIT_REQUEST_REFUSED',
        message: `the service refused the debit request (${status}: ${error.message}); an administrator must fix the integration profile (the debit body) and resume the sender; the debit is kept and was not taken`,
      }
    : {
        code: 'DEBIT_SCOPE_MISSING',
        message: `the integration account may not debit gift cards (${status}: ${error.message}${missing}); an administrator must grant the scope and resume the sender; the debit is kept and was not taken`,
      };
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
