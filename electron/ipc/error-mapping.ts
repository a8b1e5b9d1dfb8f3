import type { IpcError } from '../../shared/ipc/errors.ts';
import { ipcErrorCodes } from '../../shared/ipc/errors.ts';
import { type AnyApiError, isCommerceApiError } from '../api/index.ts';
import { CatalogError } from '../catalog/index.ts';
import { redactString } from '../logging/index.ts';
import {
  InvalidDebit,
  OfflineCardRefused,
  OfflineLimitExceeded,
  OutboxError,
  OverLimitOutcomeUnknown,
} from '../outbox/index.ts';
import { DocumentRejected, PrintError } from '../printing/index.ts';
import { StorageError } from '../storage/index.ts';
import { IpcFailure } from './ipc-failure.ts';

type Details = NonNullable<IpcError['details']>;

const MAX_MESSAGE = 500;
const STABLE_CODE = /^[A-Z][A-Z0-9_]{1,60}$/;

/**
 * Service messages may quote the service (`CONFLICT: ...`), a file path or a printer's status;
 * the redactor takes out what looks like a token, an e-mail address or a phone number, and the
 * length is capped so a hostile reply cannot inflate what the renderer receives.
 */
export function safeMessage(message: string): string {
  const clean = redactString(message);
  return clean.length > MAX_MESSAGE ? `${clean.slice(0, MAX_MESSAGE - 1)}…` : clean;
}

function issuesOf(
  issues: readonly { readonly path: string; readonly message: string }[],
): Details[string] {
  return issues
    .slice(0, 20)
    .map((issue) => ({ path: safeMessage(issue.path), message: safeMessage(issue.message) }));
}

function apiError(error: AnyApiError): IpcError {
  const details: Details = { kind: error.kind, status: error.status ?? null };
  switch (error.kind) {
    case 'Forbidden':
      details['missingScopes'] = [...error.missingScopes];
      break;
    case 'RateLimited':
    case 'ServiceUnavailable':
      details['retryAfterMs'] = error.retryAfterMs ?? null;
      break;
    case 'InvalidRequest':
      details['issues'] = issuesOf(error.issues);
      break;
    case 'NetworkError':
      details['requestSent'] = error.requestSent;
      break;
    case 'Timeout':
      details['requestSent'] = error.phase === 'response';
      break;
    default:
      break;
  }
  return { code: error.code, message: safeMessage(error.message), details };
}

/**
 * Every failure a handler can meet, as the `{ code, message, details? }` the renderer gets.
 * Anything unexpected becomes IPC_INTERNAL_ERROR with a generic message: an unknown error's text
 * is not known to be safe to show.
 */
export function toIpcError(error: unknown): IpcError {
  if (error instanceof IpcFailure) return error.toIpcError();
  if (isCommerceApiError(error)) return apiError(error as AnyApiError);
  if (error instanceof CatalogError) {
    return {
      code: error.code,
      message: safeMessage(error.message),
      ...(error.missingScopes.length > 0
        ? { details: { missingScopes: [...error.missingScopes] } }
        : {}),
    };
  }
  if (error instanceof OfflineLimitExceeded) {
    return {
      code: error.code,
      message: safeMessage(error.message),
      details: { breach: { ...error.breach } },
    };
  }
  if (error instanceof OverLimitOutcomeUnknown) {
    return {
      code: error.code,
      message: safeMessage(error.message),
      details: {
        debitId: error.debit.id,
        ...(error.breach ? { breach: { ...error.breach } } : {}),
      },
    };
  }
  if (error instanceof OfflineCardRefused) {
    const { refusal } = error;
    return {
      code: error.code,
      message: safeMessage(error.message),
      details: {
        refusal:
          'asOf' in refusal ? { ...refusal, asOf: new Date(refusal.asOf).toISOString() } : refusal,
      },
    };
  }
  if (error instanceof InvalidDebit) {
    return {
      code: error.code,
      message: safeMessage(error.message),
      details: { issues: issuesOf(error.issues) },
    };
  }
  if (error instanceof OutboxError || error instanceof StorageError) {
    return { code: error.code, message: safeMessage(error.message) };
  }
  if (error instanceof PrintError) {
    return {
      code: `PRINT_${error.code.toUpperCase()}`,
      message: safeMessage(error.message),
      details: { problem: error.code, transient: error.transient },
    };
  }
  if (error instanceof DocumentRejected) {
    return {
      code: 'PRINT_DOCUMENT_REJECTED',
      message: safeMessage(error.message),
      details: { reason: error.reason },
    };
  }
  // Services not known here (the credential vault...) follow the same convention: an Error with
  // a stable upper-case `code`. Their message goes through the redactor like every other.
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && STABLE_CODE.test(code)) {
      return { code, message: safeMessage(error.message) };
    }
  }
  return {
    code: ipcErrorCodes.internal,
    message: 'unexpected failure in the kiosk main process (see its log)',
  };
}
