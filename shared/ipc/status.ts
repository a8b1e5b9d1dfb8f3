import { z } from 'zod';
import { AdminPin, EmptyRequest, IsoTime } from './common.ts';
import { ConnectivityState } from './gift-cards.ts';
import { defineMessage } from './message.ts';
import { PrinterName } from './printing.ts';

/** Status, settings and setup. Nothing here ever returns a credential or a token. */

/** Where the credentials are kept, never what they are. */
export const CredentialStatus = z.object({
  configured: z.boolean(),
  /** `keytar`, `safeStorage`, `file`, `environment`, `sandbox`...; null when none holds them. */
  backend: z.string().nullable(),
  /** False for read-only backends (a provisioned file): setCredentials will be refused. */
  writable: z.boolean(),
  /** Why the vault cannot be used (no keyring, plaintext refused...). */
  problem: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** A weakness the configuration accepted (plaintext allowed), for the administrator. */
  warning: z.string().nullable().optional(),
  /** Backends passed over before the one in use, and why (no Secret Service running...). */
  skipped: z
    .array(z.object({ backend: z.string(), code: z.string(), reason: z.string() }))
    .optional(),
});
export type CredentialStatus = z.infer<typeof CredentialStatus>;

export const KioskStatus = z.object({
  connectivity: ConnectivityState,
  /** Running on the embedded sandbox with demo data: the UI shows a 'demo' badge. */
  demo: z.boolean(),
  host: z.enum(['electron', 'browser']),
  /** Scheme, host and port of the Commerce API in use (never a path, user or password). */
  apiOrigin: z.string(),
  versions: z.object({
    app: z.string(),
    node: z.string(),
    electron: z.string().nullable(),
    chrome: z.string().nullable(),
    /** The Commerce External API version the kiosk speaks. */
    api: z.literal('v1'),
  }),
  credentials: CredentialStatus,
  startedAt: IsoTime,
});
export type KioskStatus = z.infer<typeof KioskStatus>;

export const CheckConnectivityReply = z.object({ connectivity: ConnectivityState });
export type CheckConnectivityReply = z.infer<typeof CheckConnectivityReply>;

export const locales = ['fr', 'en'] as const;

/** What staff or an administrator may change on the kiosk itself. */
export const KioskSettings = z.strictObject({
  locale: z.enum(locales),
  /** The kiosk's own shop: availability defaults to it. */
  shopId: z.string().min(1).max(64).nullable(),
  /** The printer jobs go to; the system default when null. */
  printer: PrinterName.nullable(),
  /** A media keyword (`A4`, `Letter`); the printer's default when null. */
  paperSize: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .nullable(),
});
export type KioskSettings = z.infer<typeof KioskSettings>;

export const SettingsReply = z.object({
  settings: KioskSettings,
  /** False: no PIN was configured, so protected changes are impossible on this kiosk. */
  adminPinConfigured: z.boolean(),
  credentials: CredentialStatus,
});
export type SettingsReply = z.infer<typeof SettingsReply>;

export const UpdateSettingsRequest = z.strictObject({
  adminPin: AdminPin,
  changes: KioskSettings.partial(),
});
export type UpdateSettingsRequest = z.input<typeof UpdateSettingsRequest>;

/**
 * Write-only: the setup screen sends the integration account once. No message ever returns them;
 * the reply only says where they are kept.
 */
export const SetCredentialsRequest = z.strictObject({
  adminPin: AdminPin,
  email: z.email().max(300),
  password: z.string().min(1).max(1_024),
});
export type SetCredentialsRequest = z.input<typeof SetCredentialsRequest>;

export const SetCredentialsReply = z.object({ credentials: CredentialStatus });
export type SetCredentialsReply = z.infer<typeof SetCredentialsReply>;

/** POST /auth with the stored credentials, then GET /v1/ping. */
export const TestConnectionReply = z.object({
  ok: z.boolean(),
  /** When the issued token expires (the token itself stays in main). */
  expiresAt: IsoTime.nullable(),
  scopes: z.array(z.string()).nullable(),
  apiVersion: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type TestConnectionReply = z.infer<typeof TestConnectionReply>;

export const CheckAdminPinRequest = z.strictObject({ pin: AdminPin });
export type CheckAdminPinRequest = z.input<typeof CheckAdminPinRequest>;

/** A wrong PIN is `valid: false`; too many in a row is the ADMIN_PIN_LOCKED error. */
export const CheckAdminPinReply = z.object({ valid: z.boolean() });
export type CheckAdminPinReply = z.infer<typeof CheckAdminPinReply>;

export const statusMessages = {
  getStatus: defineMessage('getStatus', {
    group: 'status',
    summary: 'Connectivity, demo flag, versions, where the credentials are kept',
    request: EmptyRequest,
    reply: KioskStatus,
  }),
  checkConnectivity: defineMessage('checkConnectivity', {
    group: 'status',
    summary: 'Probe the service now',
    request: EmptyRequest,
    reply: CheckConnectivityReply,
  }),
} as const;

export const settingsMessages = {
  getSettings: defineMessage('getSettings', {
    group: 'settings',
    summary: 'The kiosk settings',
    request: EmptyRequest,
    reply: SettingsReply,
  }),
  updateSettings: defineMessage('updateSettings', {
    group: 'settings',
    summary: 'Change kiosk settings (administrator PIN)',
    request: UpdateSettingsRequest,
    reply: SettingsReply,
    admin: true,
  }),
  setCredentials: defineMessage('setCredentials', {
    group: 'settings',
    summary: 'Store the integration account credentials, write-only (administrator PIN)',
    request: SetCredentialsRequest,
    reply: SetCredentialsReply,
    admin: true,
  }),
  testConnection: defineMessage('testConnection', {
    group: 'settings',
    summary: 'Check the stored credentials against the service',
    request: EmptyRequest,
    reply: TestConnectionReply,
  }),
  checkAdminPin: defineMessage('checkAdminPin', {
    group: 'settings',
    summary: 'Check the administrator PIN before showing the settings screen',
    request: CheckAdminPinRequest,
    reply: CheckAdminPinReply,
  }),
} as const;
