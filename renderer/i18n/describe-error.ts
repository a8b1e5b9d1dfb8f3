import { AdminPinRefusal, type IpcError } from '../../shared/ipc/errors.ts';
import type { MessageKey } from './catalogue.ts';
import type { Formatters } from './formatters.ts';
import { intlTagOf } from './locale.ts';
import type { Translate } from './translate.ts';

/** An error in plain words: what happened, and what staff can do or what still works. */
export interface ErrorText {
  readonly title: string;
  readonly detail: string | null;
  /** The service cannot be reached: the screen can say what still works offline. */
  readonly offline: boolean;
}

const offlineCodes = new Set([
  'NETWORK_ERROR',
  'TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'OUTBOX_OFFLINE',
  'CATALOG_UNAVAILABLE',
]);
const offlineKinds = new Set(['NetworkError', 'Timeout', 'ServiceUnavailable']);

const forbiddenCodes = new Set(['FORBIDDEN', 'CATALOG_FORBIDDEN']);

/** Codes with a message of their own; anything else is described by its family or as unknown. */
const byCode: Readonly<Record<string, MessageKey>> = {
  UNAUTHORIZED: 'error.credentials',
  CREDENTIALS_REJECTED: 'error.credentials',
  CREDENTIALS_INVALID: 'error.credentials',
  CREDENTIALS_MISSING: 'error.credentialsMissing',
  CREDENTIALS_ORIGIN_MISMATCH: 'error.credentialsOtherApi',
  CREDENTIALS_UNBOUND: 'error.baseUrlRequired',
  API_BASE_URL_REQUIRED: 'error.baseUrlRequired',
  NOT_CONFIGURED: 'error.credentialsMissing',
  RATE_LIMITED: 'error.rateLimited',
  RESOURCE_NOT_FOUND: 'error.notFound',
  CATALOG_PRODUCT_NOT_FOUND: 'error.notFound',
  OUTBOX_NOT_FOUND: 'error.notFound',
  GIFT_CARD_CODE_UNRECOGNISED: 'error.cardCodeUnrecognised',
  CUSTOMER_CRITERION_NOT_TAKEN: 'error.criterionNotTaken',
  INVALID_REQUEST: 'error.invalid',
  IPC_INVALID_REQUEST: 'error.invalid',
  OUTBOX_INVALID_DEBIT: 'error.invalid',
  REQUEST_ID_REUSED: 'error.invalid',
  CATALOG_INVALID_QUERY: 'error.invalid',
  OUTBOX_NOT_CANCELLABLE: 'error.notCancellable',
  OUTBOX_INVALID_STATE: 'error.notCancellable',
  CATALOG_SYNC_BUSY: 'error.syncBusy',
  INTERNAL_SERVER_ERROR: 'error.serviceFailed',
  CONTRACT_VIOLATION: 'error.serviceFailed',
  IPC_SERVICE_UNAVAILABLE: 'error.notSetUp',
  IPC_INTERNAL_ERROR: 'error.internal',
  RENDERER_TRANSPORT_ERROR: 'error.transport',
  ADMIN_PIN_REQUIRED: 'error.pinRequired',
  ADMIN_PIN_INVALID: 'error.pinInvalid',
  ADMIN_PIN_LOCKED: 'error.pinLocked',
  ADMIN_PIN_NOT_CONFIGURED: 'error.pinNotConfigured',
  ADMIN_PIN_UNAVAILABLE: 'error.pinUnavailable',
  VAULT_READ_ONLY: 'error.vaultReadOnly',
  CREDENTIALS_READ_ONLY: 'error.vaultReadOnly',
  NO_VAULT: 'error.vaultUnavailable',
  VAULT_UNAVAILABLE: 'error.vaultUnavailable',
  ...refusalKeys(),
};

/** The service's reasons for refusing a gift-card debit (409 codes). */
export function refusalKeys(): Readonly<Record<string, MessageKey>> {
  return {
    INSUFFICIENT_BALANCE: 'refusal.insufficientBalance',
    GIFT_CARD_INACTIVE: 'refusal.inactive',
    GIFT_CARD_EXPIRED: 'refusal.expired',
    IDEMPOTENCY_KEY_REUSED: 'refusal.keyReused',
    CONFLICT: 'refusal.conflict',
  };
}

/** A debit's refusal by the spec's general codes, said of the card rather than of any record. */
const debitRefusalKeys: Readonly<Record<string, MessageKey>> = {
  ...refusalKeys(),
  RESOURCE_NOT_FOUND: 'refusal.notFound',
  FORBIDDEN: 'refusal.forbidden',
  INVALID_REQUEST: 'refusal.invalid',
};

/** What the kiosk writes itself when a reply carries no error body: not the service's words. */
const NO_BODY = /^HTTP \d{3} without an error body$/;

/**
 * The service's own explanation: the spec's error `message` is the stable code, a colon and a
 * space, then the explanation ("RESOURCE_NOT_FOUND: gift card not found"). Null when the message
 * is not in that form, so nothing of the kiosk's own English is shown as the service's.
 */
export function serviceExplanation(error: {
  readonly code: string;
  readonly message: string;
}): string | null {
  const prefix = `${error.code}: `;
  if (!error.message.startsWith(prefix)) return null;
  const explanation = error.message.slice(prefix.length).trim().replace(/\.+$/, '');
  return explanation === '' || NO_BODY.test(explanation) ? null : explanation;
}

/**
 * Why the service refused a debit, in the staff's language: the words for its code (a code the
 * kiosk has no words for is a refusal all the same), then the service's explanation, kept as it
 * said it, since another service's codes may be coarser than its explanations (a 409 CONFLICT
 * that says "insufficient balance").
 */
export function refusalText(
  error: { readonly code: string; readonly message: string },
  t: Translate,
): string {
  const key = debitRefusalKeys[error.code];
  const lead = key ? t(key) : t('outcome.refusedOther', { code: error.code });
  const explanation = serviceExplanation(error);
  return explanation === null ? lead : t('refusal.serviceSays', { lead, explanation });
}

/** The printing problems main reports, by their code (`printer_offline`...). */
export const printProblemKeys: Readonly<Record<string, MessageKey>> = {
  printer_unknown: 'printProblem.printerUnknown',
  printer_offline: 'printProblem.printerOffline',
  printer_stopped: 'printProblem.printerStopped',
  printer_not_accepting: 'printProblem.printerNotAccepting',
  out_of_paper: 'printProblem.outOfPaper',
  paper_jam: 'printProblem.paperJam',
  scheduler_down: 'printProblem.schedulerDown',
  no_printer: 'printProblem.noPrinter',
  job_unknown: 'printProblem.jobUnknown',
  job_held: 'printProblem.jobHeld',
  job_aborted: 'printProblem.jobAborted',
  job_stalled: 'printProblem.jobStalled',
  backend_unavailable: 'printProblem.backendUnavailable',
  invalid_options: 'printProblem.invalidOptions',
  document_rejected: 'printProblem.documentRejected',
  document_unavailable: 'printProblem.documentUnavailable',
  filter_failed: 'printProblem.filterFailed',
  print_failed: 'printProblem.printFailed',
};

export const scopeKeys: Readonly<Record<string, MessageKey>> = {
  'products:read': 'scope.productsRead',
  'stock:read': 'scope.stockRead',
  'referentials:read': 'scope.referentialsRead',
  'customers:read': 'scope.customersRead',
  'customers:write': 'scope.customersWrite',
  'customers:pii:read': 'scope.customersPiiRead',
  'customers:pii:write': 'scope.customersPiiWrite',
  'internal-comments:read': 'scope.internalCommentsRead',
  'sales:read': 'scope.salesRead',
  'orders:read': 'scope.ordersRead',
  'sav:read': 'scope.savRead',
  'customer-credits:read': 'scope.customerCreditsRead',
  'gift-cards:read': 'scope.giftCardsRead',
  'gift-cards:write': 'scope.giftCardsWrite',
};

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** "read customers (customers:read), …": the plain words, and the scope name for the admin. */
export function describePermissions(scopes: readonly string[], t: Translate): string {
  return scopes
    .map((scope) => {
      const key = scopeKeys[scope];
      return key ? `${t(key)} (${scope})` : scope;
    })
    .join(', ');
}

export function missingScopesOf(error: IpcError): string[] {
  return stringList(error.details?.['missingScopes']);
}

interface Breach {
  readonly limit: string;
  readonly allowed: number;
  readonly unit: string;
}

function breachOf(error: IpcError): Breach | null {
  const breach = error.details?.['breach'];
  if (typeof breach !== 'object' || breach === null || Array.isArray(breach)) return null;
  const { limit, allowed, unit } = breach as Record<string, unknown>;
  if (typeof limit !== 'string' || typeof allowed !== 'number' || typeof unit !== 'string') {
    return null;
  }
  return { limit, allowed, unit };
}

const limitKeys: Readonly<Record<string, MessageKey>> = {
  maxOfflineDebitAmount: 'limit.maxOfflineDebitAmount',
  maxPendingAmount: 'limit.maxPendingAmount',
  maxPendingAmountPerCard: 'limit.maxPendingAmountPerCard',
  maxPendingCount: 'limit.maxPendingCount',
};

export function describeError(error: IpcError, t: Translate, fmt: Formatters): ErrorText {
  const kind = error.details?.['kind'];
  if (forbiddenCodes.has(error.code) || kind === 'Forbidden') {
    const scopes = missingScopesOf(error);
    return {
      title: t('error.forbidden.title'),
      detail:
        scopes.length > 0
          ? t('error.forbidden.scopes', { permissions: describePermissions(scopes, t) })
          : t('error.forbidden.noScopes'),
      offline: false,
    };
  }
  if (offlineCodes.has(error.code) || (typeof kind === 'string' && offlineKinds.has(kind))) {
    return { title: t('error.offline.title'), detail: t('offline.stillWorks'), offline: true };
  }
  if (error.code === 'OUTBOX_LIMIT_EXCEEDED') {
    const breach = breachOf(error);
    const limitKey = breach ? limitKeys[breach.limit] : undefined;
    return {
      title: t('error.limit.title'),
      detail:
        breach && limitKey
          ? t('error.limit.detail', {
              limit: t(limitKey),
              allowed:
                breach.unit === 'EUR' ? fmt.money(breach.allowed) : fmt.integer(breach.allowed),
            })
          : null,
      offline: false,
    };
  }
  if (error.code === 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN') {
    // Not taken as an offline debit, and not "refused" either: it may be with the service.
    const breach = breachOf(error);
    const limitKey = breach ? limitKeys[breach.limit] : undefined;
    return {
      title: t('error.limitUnknown.title'),
      detail:
        breach && limitKey
          ? t('error.limitUnknown.detail', {
              limit: t(limitKey),
              allowed:
                breach.unit === 'EUR' ? fmt.money(breach.allowed) : fmt.integer(breach.allowed),
            })
          : t('error.limitUnknown.detailNoLimit'),
      offline: false,
    };
  }
  const card = cardRefusalOf(error);
  if (card) return { title: t(card.title), detail: card.detail(t, fmt), offline: false };
  if (error.code.startsWith('PRINT_')) {
    const key = printProblemKeys[error.code.slice('PRINT_'.length).toLowerCase()];
    return { title: t(key ?? 'printProblem.printFailed'), detail: null, offline: false };
  }
  const pin = pinRefusalOf(error);
  if (pin) {
    return {
      title: t(error.code === 'ADMIN_PIN_LOCKED' ? 'error.pinLocked' : 'error.pinInvalid'),
      detail:
        pin.retryAfterMs > 0
          ? t('error.pinNextTry', { time: timeOfDay(pin.nextTryAt, fmt) })
          : t('error.pinTriesLeft', { count: fmt.integer(pin.triesLeft) }),
      offline: false,
    };
  }
  if (error.code === 'INVALID_REQUEST' && typeof error.details?.['status'] === 'number') {
    // The entry passed the kiosk's own checks, so the service refused how the kiosk asked: on a
    // real API, most likely an integration profile that does not match it.
    return {
      title: t('error.serviceRefused'),
      detail: t('error.serviceRefusedDetail'),
      offline: false,
    };
  }
  // The service's own explanation, after the kiosk's words, for what came from the service.
  const explanation =
    typeof error.details?.['status'] === 'number' ? serviceExplanation(error) : null;
  const said = explanation === null ? null : t('error.serviceSaid', { explanation });
  const key = byCode[error.code] ?? (error.code === 'CONFLICT' ? 'refusal.conflict' : undefined);
  if (key) {
    // A lock-out or a rate limit says how long to wait, when main knows.
    const wait = error.details?.['retryAfterMs'];
    const detail =
      typeof wait === 'number' && wait > 0
        ? t('error.retryIn', { time: fmt.duration(wait) })
        : said;
    return { title: t(key), detail, offline: false };
  }
  return {
    title: t('error.unknown'),
    detail: said ?? t('error.code', { code: error.code }),
    offline: false,
  };
}

/** A wrong PIN or a lockout, with the tries left and the next try main sent along. */
function pinRefusalOf(error: IpcError): AdminPinRefusal | null {
  if (error.code !== 'ADMIN_PIN_INVALID' && error.code !== 'ADMIN_PIN_LOCKED') return null;
  const parsed = AdminPinRefusal.safeParse(error.details);
  return parsed.success ? parsed.data : null;
}

/**
 * The time of the next try, to the second: a clock time stays true while the notice is on
 * screen, where "in 30 s" would not. Main and the renderer share the kiosk's clock.
 */
/** An offline debit refused by what the kiosk last read of the card, with its figures. */
function cardRefusalOf(
  error: IpcError,
): { title: MessageKey; detail: (t: Translate, fmt: Formatters) => string | null } | null {
  const refusal = error.details?.['refusal'];
  if (typeof refusal !== 'object' || refusal === null || Array.isArray(refusal)) return null;
  const value = refusal as Record<string, unknown>;
  const eur = (name: string) => (typeof value[name] === 'number' ? value[name] : null);
  switch (error.code) {
    case 'OUTBOX_OVER_KNOWN_BALANCE':
      return {
        title: 'error.overKnownBalance.title',
        detail: (t, fmt) => {
          const [balance, pending, available] = [
            eur('knownBalance'),
            eur('pending'),
            eur('available'),
          ];
          if (balance === null || pending === null || available === null) return null;
          return t('error.overKnownBalance.detail', {
            balance: fmt.money(balance),
            time: typeof value['asOf'] === 'string' ? fmt.dateTime(value['asOf']) : '',
            pending: fmt.money(pending),
            available: fmt.money(available),
          });
        },
      };
    case 'OUTBOX_UNKNOWN_CARD':
      return {
        title: 'error.unknownCard.title',
        detail: (t, fmt) => {
          const max = eur('maxAmount');
          return max === null
            ? t('error.unknownCard.refused')
            : t('error.unknownCard.detail', { max: fmt.money(max) });
        },
      };
    case 'OUTBOX_CARD_NOT_DEBITABLE':
      return { title: 'error.cardNotDebitable.title', detail: () => null };
    default:
      return null;
  }
}

function timeOfDay(iso: string, fmt: Formatters): string {
  return new Intl.DateTimeFormat(intlTagOf(fmt.locale), { timeStyle: 'medium' }).format(
    new Date(iso),
  );
}
