import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/**
 * How a failure crosses from main to the renderer: a stable `code` the UI translates, an English
 * `message` for logs (never a secret, never customer contact data), and optional plain-data
 * `details` (missing scopes, the outbox limit that was hit, the fields that failed validation).
 */
export const IpcError = lazySchema(() =>
  z
    .strictObject({
      code: z.string().min(1).max(100),
      message: z.string().max(2_000),
      details: z.record(z.string(), z.json()).optional(),
    })
    .meta({ id: 'IpcError' }),
);
export type IpcError = z.infer<typeof IpcError>;

/**
 * Codes the IPC layer itself produces. Service failures keep their own stable codes: the API's
 * (`RESOURCE_NOT_FOUND`, `NETWORK_ERROR`, `CREDENTIALS_REJECTED`...), the catalogue's
 * (`CATALOG_*`), the outbox's (`OUTBOX_*`, `REQUEST_ID_REUSED`) and the printing problems (`PRINT_*`).
 */
export const ipcErrorCodes = {
  /** The payload does not match the message's request schema; `details.issues` says where. */
  invalidRequest: 'IPC_INVALID_REQUEST',
  /** The sender is not the kiosk's own page (another origin, a sub-frame, no frame at all). */
  forbiddenSender: 'IPC_FORBIDDEN_SENDER',
  /** No message has this channel. */
  unknownChannel: 'IPC_UNKNOWN_CHANNEL',
  /** The browser host's per-run token is missing or wrong. */
  unauthorized: 'IPC_UNAUTHORIZED',
  /** The loopback transport failed (host gone, reply unreadable); the request may not have run. */
  transport: 'IPC_TRANSPORT_ERROR',
  /** The request body is larger than the transport accepts. */
  payloadTooLarge: 'IPC_PAYLOAD_TOO_LARGE',
  /** This kiosk was set up without the service the message needs (no printer backend...). */
  serviceUnavailable: 'IPC_SERVICE_UNAVAILABLE',
  /** A bug: the service failed in an unexpected way, or its reply broke the contract. */
  internal: 'IPC_INTERNAL_ERROR',
  /** A settings or credentials change needs the administrator PIN. */
  adminPinRequired: 'ADMIN_PIN_REQUIRED',
  /** A wrong PIN; `details` (`AdminPinRefusal`) say how many tries are left and when the next is. */
  adminPinInvalid: 'ADMIN_PIN_INVALID',
  /** Too many wrong PINs: `details` (`AdminPinRefusal`) say when the next try is allowed. */
  adminPinLocked: 'ADMIN_PIN_LOCKED',
  /** No administrator PIN is configured on this kiosk, so nothing can be unlocked. */
  adminPinNotConfigured: 'ADMIN_PIN_NOT_CONFIGURED',
  /**
   * The kiosk cannot record a PIN try (full disk, data directory not writable), so it checks
   * none: a try that is not counted would escape the lockout.
   */
  adminPinUnavailable: 'ADMIN_PIN_UNAVAILABLE',
} as const;
export type IpcErrorCode = (typeof ipcErrorCodes)[keyof typeof ipcErrorCodes];

/**
 * A debit's request id (`debitGiftCard`'s `requestId`, `kioskctl outbox enqueue --request-id`)
 * already names another debit: another card, amount or reference. Nothing was stored; a new
 * logical debit needs a new request id.
 */
export const REQUEST_ID_REUSED = 'REQUEST_ID_REUSED';

/**
 * The `details` of ADMIN_PIN_INVALID and ADMIN_PIN_LOCKED: how many wrong PINs are still allowed
 * before setup locks, and when the next try is (now when `retryAfterMs` is 0). `nextTryAt` is on
 * the kiosk's clock, which main and the renderer share.
 */
export const AdminPinRefusal = lazySchema(() =>
  z.object({
    triesLeft: z.number().int().min(0),
    retryAfterMs: z.number().int().min(0),
    nextTryAt: z.iso.datetime(),
  }),
);
export type AdminPinRefusal = z.infer<typeof AdminPinRefusal>;

/** Every reply is a value: a result or a typed error, never a thrown exception across IPC. */
export type IpcResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcError };

/** The envelope's schema for a given reply schema (the loopback client checks what it receives). */
export function ipcResultOf<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.strictObject({ ok: z.literal(true), value }),
    z.strictObject({ ok: z.literal(false), error: IpcError }),
  ]);
}
