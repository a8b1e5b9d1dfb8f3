import {
  ApiError,
  errorCodeByStatus,
  parseErrorMessage,
  type ErrorStatus,
} from '../../shared/api/errors.ts';
import { parseRetryAfter } from './retry-after.ts';

/**
 * Every failure of the client is one of these classes. `kind` discriminates them and survives
 * serialisation (IPC, CLI); `code` is the stable code (parsed from the server's message, else the
 * table's code for the status, else a client-side code such as NETWORK_ERROR).
 */
export const apiErrorKinds = [
  'InvalidRequest',
  'Unauthorized',
  'CredentialsRejected',
  'Forbidden',
  'NotFound',
  'Conflict',
  'RateLimited',
  'InternalError',
  'ServiceUnavailable',
  'NetworkError',
  'Timeout',
  'ContractViolation',
] as const;
export type ApiErrorKind = (typeof apiErrorKinds)[number];

/** One problem found by a schema, with its path in `a.b[2].c` form. */
export interface RequestIssue {
  readonly path: string;
  readonly message: string;
}

/** The plain-data form of an error, safe to send over IPC or print. */
export interface SerializedApiError {
  readonly kind: ApiErrorKind;
  readonly code: string;
  readonly status: number | null;
  readonly message: string;
  readonly explanation: string;
  readonly operationId: string | null;
  readonly missingScopes?: readonly string[];
  readonly retryAfterMs?: number | null;
  readonly issues?: readonly RequestIssue[];
  readonly path?: string;
  readonly requestSent?: boolean;
}

interface BaseInit {
  readonly code: string;
  readonly status?: number | undefined;
  readonly explanation: string;
  readonly operationId?: string | undefined;
}

export abstract class CommerceApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  readonly code: string;
  readonly status: number | undefined;
  readonly explanation: string;
  readonly operationId: string | undefined;

  constructor(init: BaseInit, message?: string) {
    super(message ?? `${init.code}: ${init.explanation}`);
    this.code = init.code;
    this.status = init.status;
    this.explanation = init.explanation;
    this.operationId = init.operationId;
  }

  toJSON(): SerializedApiError {
    return {
      kind: this.kind,
      code: this.code,
      status: this.status ?? null,
      message: this.message,
      explanation: this.explanation,
      operationId: this.operationId ?? null,
    };
  }
}

export function isCommerceApiError(value: unknown): value is CommerceApiError {
  return value instanceof CommerceApiError;
}

/** 400 from the server, or a request refused locally before anything was sent (`local`). */
export class InvalidRequest extends CommerceApiError {
  readonly kind = 'InvalidRequest';
  override readonly name = 'InvalidRequest';
  readonly local: boolean;
  readonly issues: readonly RequestIssue[];
  constructor(
    init: BaseInit & { readonly local: boolean; readonly issues?: readonly RequestIssue[] },
  ) {
    super(init);
    this.local = init.local;
    this.issues = init.issues ?? [];
  }
  override toJSON(): SerializedApiError {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/** A 401 on a business call; the client renews the token once before surfacing it. */
export class Unauthorized extends CommerceApiError {
  readonly kind = 'Unauthorized';
  override readonly name = 'Unauthorized';
}

/**
 * The integration account itself is unusable: POST /auth answered 401, a freshly issued token
 * was refused again, or the credentials could not be obtained. Retrying cannot help; an
 * administrator must fix the account or its credentials.
 */
export class CredentialsRejected extends CommerceApiError {
  readonly kind = 'CredentialsRejected';
  override readonly name = 'CredentialsRejected';
}

export class Forbidden extends CommerceApiError {
  readonly kind = 'Forbidden';
  override readonly name = 'Forbidden';
  /** Scopes the server said are missing; empty when it did not say. */
  readonly missingScopes: readonly string[];
  constructor(init: BaseInit & { readonly missingScopes: readonly string[] }) {
    super(init);
    this.missingScopes = init.missingScopes;
  }
  override toJSON(): SerializedApiError {
    return { ...super.toJSON(), missingScopes: this.missingScopes };
  }
}

export class NotFound extends CommerceApiError {
  readonly kind = 'NotFound';
  override readonly name = 'NotFound';
}

export class Conflict extends CommerceApiError {
  readonly kind = 'Conflict';
  override readonly name = 'Conflict';
}

/**
 * A refusal that may say when to come back: the server's `Retry-After` travels with the error,
 * the same way for every kind that carries one.
 */
export abstract class RetryAfterError extends CommerceApiError {
  /** From `Retry-After` (seconds or HTTP-date), uncapped; undefined when absent or unreadable. */
  readonly retryAfterMs: number | undefined;
  constructor(init: BaseInit & { readonly retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
  override toJSON(): SerializedApiError {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs ?? null };
  }
}

export class RateLimited extends RetryAfterError {
  readonly kind = 'RateLimited';
  override readonly name = 'RateLimited';
}

export class InternalError extends CommerceApiError {
  readonly kind = 'InternalError';
  override readonly name = 'InternalError';
}

/** Maintenance windows may announce their end with `Retry-After`. */
export class ServiceUnavailable extends RetryAfterError {
  readonly kind = 'ServiceUnavailable';
  override readonly name = 'ServiceUnavailable';
}

/**
 * No HTTP reply. `requestSent` false means the request surely never reached the server
 * (connection refused, DNS failure); true means the outcome is unknown (reset mid-exchange).
 */
export class NetworkError extends CommerceApiError {
  readonly kind = 'NetworkError';
  override readonly name = 'NetworkError';
  readonly requestSent: boolean;
  /** The system error code (ECONNRESET, ECONNREFUSED...), never the library's error object. */
  readonly systemCode: string | undefined;
  constructor(
    init: BaseInit & { readonly requestSent: boolean; readonly systemCode?: string | undefined },
  ) {
    super(init);
    this.requestSent = init.requestSent;
    this.systemCode = init.systemCode;
  }
  override toJSON(): SerializedApiError {
    return { ...super.toJSON(), requestSent: this.requestSent };
  }
}

/** `connect`: no connection within the connect timeout (nothing sent). `response`: outcome unknown. */
export class Timeout extends CommerceApiError {
  readonly kind = 'Timeout';
  override readonly name = 'Timeout';
  readonly phase: 'connect' | 'response';
  readonly timeoutMs: number;
  constructor(
    init: BaseInit & { readonly phase: 'connect' | 'response'; readonly timeoutMs: number },
  ) {
    super(init);
    this.phase = init.phase;
    this.timeoutMs = init.timeoutMs;
  }
  override toJSON(): SerializedApiError {
    return { ...super.toJSON(), requestSent: this.phase === 'response' };
  }
}

export type ContractViolationReason =
  'shape' | 'json' | 'content-type' | 'pdf-magic' | 'too-large' | 'status' | 'pagination';

/** The server answered something the contract does not allow. Never retried. */
export class ContractViolation extends CommerceApiError {
  readonly kind = 'ContractViolation';
  override readonly name = 'ContractViolation';
  readonly reason: ContractViolationReason;
  /** The first offending path in the reply (`data[3].items[0].price`), or '' for the whole reply. */
  readonly path: string;
  constructor(
    init: Omit<BaseInit, 'code' | 'operationId'> & {
      readonly operationId: string;
      readonly reason: ContractViolationReason;
      readonly path: string;
    },
  ) {
    const where = init.path === '' ? 'the reply' : init.path;
    super(
      { ...init, code: 'CONTRACT_VIOLATION' },
      `CONTRACT_VIOLATION: ${init.operationId}: ${where}: ${init.explanation}`,
    );
    this.reason = init.reason;
    this.path = init.path;
  }
  override toJSON(): SerializedApiError {
    return { ...super.toJSON(), path: this.path };
  }
}

export type AnyApiError =
  | InvalidRequest
  | Unauthorized
  | CredentialsRejected
  | Forbidden
  | NotFound
  | Conflict
  | RateLimited
  | InternalError
  | ServiceUnavailable
  | NetworkError
  | Timeout
  | ContractViolation;

const textDecoder = new TextDecoder('utf-8', { fatal: false });

/** Reads an error body leniently: proxies and load balancers answer HTML or nothing. */
function readErrorBody(body: Uint8Array): ApiError | undefined {
  if (body.byteLength === 0 || body.byteLength > 64 * 1024) return undefined;
  try {
    const parsed = ApiError.safeParse(JSON.parse(textDecoder.decode(body)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export interface ErrorReply {
  readonly operationId: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Epoch ms, to resolve a Retry-After HTTP-date. */
  readonly now: number;
}

/** The table's code for a status, or for the class a status outside the table maps to. */
function tableCodeOf(status: number): string {
  const code = (errorCodeByStatus as Readonly<Record<number, string>>)[status as ErrorStatus];
  if (code) return code;
  if (status === 502 || status === 504) return 'SERVICE_UNAVAILABLE';
  if (status >= 500) return 'INTERNAL_SERVER_ERROR';
  if (status >= 400) return 'INVALID_REQUEST';
  return `HTTP_${status}`;
}

/** Maps a non-2xx reply to its class; a status outside the table maps to its nearest meaning. */
export function errorFromReply({
  operationId,
  status,
  headers,
  body,
  now,
}: ErrorReply): AnyApiError {
  const apiError = readErrorBody(body);
  const parsed = apiError ? parseErrorMessage(apiError.message) : undefined;
  const bodyCode = typeof apiError?.code === 'string' ? apiError.code : undefined;
  const code = parsed?.code ?? bodyCode ?? tableCodeOf(status);
  const explanation = parsed?.explanation ?? `HTTP ${status} without an error body`;
  const init = { code, status, explanation, operationId };
  const retryAfterMs = parseRetryAfter(headers['retry-after'], now);

  switch (status) {
    case 400:
      return new InvalidRequest({ ...init, local: false });
    case 401:
      return new Unauthorized(init);
    case 403:
      return new Forbidden({ ...init, missingScopes: apiError?.missingScopes ?? [] });
    case 404:
      return new NotFound(init);
    case 409:
      return new Conflict(init);
    case 429:
      return new RateLimited({ ...init, retryAfterMs });
    case 500:
      return new InternalError(init);
    case 502:
    case 503:
    case 504:
      // A gateway in front of the service answers 502/504 while it is unreachable or restarting.
      return new ServiceUnavailable({ ...init, retryAfterMs });
    default:
      if (status >= 500) return new InternalError(init);
      if (status >= 400) return new InvalidRequest({ ...init, local: false });
      return new ContractViolation({
        operationId,
        status,
        reason: 'status',
        path: '',
        explanation: `unexpected HTTP status ${status}`,
      });
  }
}

/** Formats a schema issue path as `data[3].items[0].price`. */
export function formatIssuePath(path: readonly PropertyKey[], prefix = ''): string {
  let out = prefix;
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? String(segment) : `.${String(segment)}`;
  }
  return out;
}
