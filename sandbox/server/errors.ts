import {
  type ApiError,
  type ErrorCode,
  type ErrorStatus,
  errorBody,
  errorTable,
} from '../../shared/api/errors.ts';

/**
 * A refusal the sandbox answers with: an HTTP status, the spec's error object and optional headers
 * (`Retry-After`). Handlers throw it; the request pipeline turns it into the reply. It is a value
 * with a stable code, not an exception for bugs: anything else thrown becomes a 500.
 */
export class ApiFailure extends Error {
  readonly status: ErrorStatus;
  readonly body: ApiError;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: ErrorStatus, body: ApiError, headers: Record<string, string> = {}) {
    super(body.message);
    this.name = 'ApiFailure';
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** A failure with one of the eight codes of the spec's table. */
export function failure(
  code: ErrorCode,
  explanation: string,
  extra: Record<string, unknown> = {},
): ApiFailure {
  return new ApiFailure(errorTable[code].status, errorBody(code, explanation, extra));
}

/**
 * A business refusal with its own stable code (`INSUFFICIENT_BALANCE`, ...): the message starts
 * with that code, `code` carries it, and status and label are those of the table's entry
 * (409 CONFLICT for every business rule).
 */
export function businessFailure(
  tableCode: ErrorCode,
  stableCode: string,
  explanation: string,
): ApiFailure {
  const { status, label } = errorTable[tableCode];
  return new ApiFailure(status, {
    message: `${stableCode}: ${explanation}`,
    statusCode: status,
    code: stableCode,
    error: label,
  });
}

export const invalidRequest = (explanation: string) => failure('INVALID_REQUEST', explanation);
export const notFound = (explanation: string) => failure('RESOURCE_NOT_FOUND', explanation);
export const unauthorized = (explanation: string) => failure('UNAUTHORIZED', explanation);

export function forbidden(missingScopes: readonly string[], why: string): ApiFailure {
  const missing = [...new Set(missingScopes)].sort();
  return failure(
    'FORBIDDEN',
    `missing scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (${why})`,
    {
      missingScopes: missing,
    },
  );
}

export function rateLimited(
  retryAfterSeconds: number,
  explanation = 'request limit reached, retry later',
): ApiFailure {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiFailure(429, errorBody('RATE_LIMITED', explanation), {
    'retry-after': String(seconds),
  });
}
