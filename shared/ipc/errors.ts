import { z } from 'zod';

/**
 * How a failure crosses from main to the renderer: a stable `code` the UI translates, an English
 * `message` for logs (never a secret, never customer contact data), and optional plain-data
 * `details` (missing scopes, the outbox limit that was hit, the fields that failed validation).
 */
export const IpcError = z
  .strictObject({
    code: z.string().min(1).max(100),
    message: z.string().max(2_000),
    details: z.record(z.string(), z.json()).optional(),
  })
  .meta({ id: 'IpcError' });
export type IpcError = z.infer<typeof IpcError>;

/**
 * Codes the IPC layer itself produces. Service failures keep their own stable codes: the API's
 * (`RESOURCE_NOT_FOUND`, `NETWORK_ERROR`, `CREDENTIALS_REJECTED`...), the catalogue's
 * (`CATALOG_*`), the outbox's (`OUTBOX_*`) and the printing problems (`PRINT_*`).
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
  adminPinInvalid: 'ADMIN_PIN_INVALID',
  /** Too many wrong PINs: `details.retryAfterMs` says how long to wait. */
  adminPinLocked: 'ADMIN_PIN_LOCKED',
  /** No administrator PIN is configured on this kiosk, so nothing can be unlocked. */
  adminPinNotConfigured: 'ADMIN_PIN_NOT_CONFIGURED',
} as const;
export type IpcErrorCode = (typeof ipcErrorCodes)[keyof typeof ipcErrorCodes];

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
