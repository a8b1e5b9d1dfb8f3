import type { REQUEST_ID_REUSED } from '../../shared/ipc/errors.ts';

/**
 * Refusals of the outbox itself, before or beside the service: values with a stable `code`, so
 * the IPC layer and kioskctl map them without parsing messages. In every case nothing was stored
 * or changed, but two, both about a debit whose answer did not come within the caller's wait
 * (`Outbox.awaitAnswer`): OUTBOX_LIMIT_EXCEEDED for a row withdrawn before any byte of it reached
 * the service, and OUTBOX_ANSWER_AWAITED for one that may have reached it (kept, never presented
 * as accepted: its outcome is the service's), which becomes OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN when
 * the wait is over (held for a person, never sent again by itself).
 */
export type OutboxErrorCode =
  | 'OUTBOX_INVALID_DEBIT'
  | 'OUTBOX_OFFLINE'
  | 'OUTBOX_LIMIT_EXCEEDED'
  | 'OUTBOX_ANSWER_AWAITED'
  | 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN'
  | 'OUTBOX_OVER_KNOWN_BALANCE'
  | 'OUTBOX_UNKNOWN_CARD'
  | 'OUTBOX_CARD_NOT_DEBITABLE'
  | 'OUTBOX_NOT_FOUND'
  | 'OUTBOX_NOT_CANCELLABLE'
  | 'OUTBOX_INVALID_STATE'
  | typeof REQUEST_ID_REUSED;

export class OutboxError extends Error {
  override readonly name: string = 'OutboxError';
  readonly code: OutboxErrorCode;

  constructor(code: OutboxErrorCode, explanation: string) {
    super(`${code}: ${explanation}`);
    this.code = code;
  }
}

/** The input does not make a valid debit body; `issues` name the fields. */
export class InvalidDebit extends OutboxError {
  override readonly name = 'InvalidDebit';
  readonly issues: readonly { readonly path: string; readonly message: string }[];

  constructor(issues: readonly { readonly path: string; readonly message: string }[]) {
    super(
      'OUTBOX_INVALID_DEBIT',
      issues.map((issue) => `${issue.path || 'debit'}: ${issue.message}`).join('; '),
    );
    this.issues = issues;
  }
}
