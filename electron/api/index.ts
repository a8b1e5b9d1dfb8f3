/** The main process's Commerce API client. Everything a service needs is exported from here. */
export {
  type ApiClientOptions,
  type AuthSession,
  CommerceApiClient,
  createApiClient,
} from './client.ts';
export {
  type ConnectivityChange,
  type ConnectivityEvents,
  ConnectivityMonitor,
  type ExchangeOutcome,
} from './connectivity.ts';
export {
  type AnyApiError,
  type ApiErrorKind,
  CommerceApiError,
  Conflict,
  ContractViolation,
  type ContractViolationReason,
  CredentialsRejected,
  Forbidden,
  InternalError,
  InvalidRequest,
  NetworkError,
  NotFound,
  RateLimited,
  type RequestIssue,
  RetryAfterError,
  type SerializedApiError,
  ServiceUnavailable,
  Timeout,
  Unauthorized,
  apiErrorKinds,
  isCommerceApiError,
} from './errors.ts';
export type { ExchangeEvent } from './invoke.ts';
export { JsonText } from './json-text.ts';
export type {
  CallOptions,
  OperationArgs,
  OperationInput,
  OperationOutput,
} from './operation-types.ts';
export {
  ChangeFeedWindow,
  type ChangeFeedQuery,
  type PageItem,
  type PageableOperation,
} from './pagination.ts';
export { DEFAULT_PDF_MAX_BYTES, PDF_MAGIC, type PdfDocument } from './pdf.ts';
export {
  RetryBudget,
  backoffDelay,
  failureKindOf,
  type FailureKind,
  type RetryClass,
  type RetryPolicy,
  type RetryPolicyOverrides,
  type RetryRule,
  defaultRetryPolicy,
} from './retry-policy.ts';
export {
  type ClockInstant,
  type ClockStep,
  ServiceClock,
  type ServiceClockOptions,
  type ServiceClockStatus,
  type ServiceTimeBounds,
} from './service-clock.ts';
export type { Credentials, CredentialsProvider } from './token.ts';
