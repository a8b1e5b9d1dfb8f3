import { z } from 'zod';
import { ContractReport } from '../profile/contract-report.ts';
import { Text } from '../api/primitives.ts';
import { AdminPin, EmptyRequest, IsoTime } from './common.ts';
import { ConnectivityState, OutboxLimits } from './gift-cards.ts';
import { defineMessage } from './message.ts';
import { PrinterName } from './printing.ts';
import { TelemetrySettings } from './telemetry.ts';
import { lazySchema } from './lazy-schema.ts';
import { isHttpsOrLoopbackHttp } from './secure-url.ts';

/** Status, settings and setup. Nothing here ever returns a credential or a token. */

/** Where the credentials are kept, never what they are. */
export const CredentialStatus = lazySchema(() =>
  z.object({
    configured: z.boolean(),
    /** `keytar`, `safeStorage`, `file`, `environment`, `sandbox`...; null when none holds them. */
    backend: z.string().nullable(),
    /** False for read-only backends (a provisioned file): setCredentials will be refused. */
    writable: z.boolean(),
    /** Why the vault cannot be used (no keyring, plaintext refused...). */
    problem: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** A weakness the configuration accepted (plaintext allowed), for the administrator. */
    warning: z.string().nullable().optional(),
    /**
     * The API origin the credentials are bound to: they are never sent anywhere else. Null when
     * none is known (nothing stored, or credentials that name none and were given no base URL).
     */
    origin: z.string().nullable().optional(),
    /** Backends passed over before the one in use, and why (no Secret Service running...). */
    skipped: z
      .array(z.object({ backend: z.string(), code: z.string(), reason: z.string() }))
      .optional(),
  }),
);
export type CredentialStatus = z.infer<typeof CredentialStatus>;

/**
 * The service's clock against the kiosk's, from the API's `Date` headers, and the steps of the
 * kiosk's wall clock this run saw (forward: set ahead, or the machine slept), for the technician.
 */
export const ServiceClockStatus = lazySchema(() =>
  z.object({
    /** Service time minus kiosk time, ms; null before the first reply. */
    offsetMs: z.number().nullable(),
    uncertaintyMs: z.number().nullable(),
    syncedAt: IsoTime.nullable(),
    steps: z.array(z.object({ at: IsoTime, stepMs: z.number() })),
  }),
);
export type ServiceClockStatus = z.infer<typeof ServiceClockStatus>;

export const KioskStatus = lazySchema(() =>
  z.object({
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
    clock: ServiceClockStatus.optional(),
  }),
);
export type KioskStatus = z.infer<typeof KioskStatus>;

export const CheckConnectivityReply = lazySchema(() =>
  z.object({ connectivity: ConnectivityState }),
);
export type CheckConnectivityReply = z.infer<typeof CheckConnectivityReply>;

export const locales = ['fr', 'en'] as const;
export type KioskLocale = (typeof locales)[number];

/**
 * The kiosk's language from a system locale tag (`fr-FR`, `fr_CA.UTF-8` → French); anything the
 * kiosk does not speak is English.
 */
export function localeOfTag(tag: string | undefined | null): KioskLocale {
  const primary = tag?.toLowerCase().split(/[-_.@]/)[0];
  return locales.find((locale) => locale === primary) ?? 'en';
}

/**
 * The Commerce API's base URL, the one rule of every door (setup, the settings file,
 * KIOSK_API_BASE_URL, the integrator's `baseUrl`, `kioskctl --base-url`, the origin credentials
 * are bound to): https, or http to a loopback address only (the password and the token never
 * cross a network in clear); a host, optionally a path prefix; never a user or password
 * (credentials go to the vault), a query or a fragment.
 */
export const ApiBaseUrl = lazySchema(() =>
  z
    .url({ protocol: /^https?$/ })
    .max(2_048)
    .refine((value) => value.isWellFormed(), {
      message: 'not well-formed Unicode (a lone UTF-16 surrogate)',
    })
    // Scheme, `//`, a host (and port) without `user@`, then a path at most.
    .regex(/^https?:\/\/[^/?#@\s]+(?:\/[^?#\s]*)?$/i, {
      message: 'the base URL must be http(s) with a host, and no user, password, query or fragment',
    })
    .refine(isHttpsOrLoopbackHttp, {
      message:
        'the base URL must be https://, or http:// to this machine only (127.0.0.1, [::1] or localhost)',
    }),
);

/** An API origin (`https://host[:port]`): the base URL rule, without a path. */
export const ApiOrigin = lazySchema(() =>
  ApiBaseUrl.regex(/^https?:\/\/[^/?#@\s]+\/?$/i, {
    message:
      'an origin is a scheme, host and port only, like "https://commerce.example.com" (no path)',
  }),
);

const LimitAmount = lazySchema(() =>
  z
    .number()
    .min(0)
    .max(100_000)
    .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
      message: 'at most two decimals',
    }),
);

/**
 * Offline limits an administrator may set (EUR amounts; a count; the age in ms after which an
 * unsent debit expires, one minute to thirty days). Changed limits apply to the next debit.
 */
export const OfflineLimitsChanges = lazySchema(() =>
  z.strictObject({
    maxOfflineDebitAmount: LimitAmount.optional(),
    maxPendingAmount: LimitAmount.optional(),
    maxPendingAmountPerCard: LimitAmount.optional(),
    maxPendingCount: z.number().int().min(0).max(10_000).optional(),
    maxAgeMs: z
      .number()
      .int()
      .min(60_000)
      .max(30 * 24 * 60 * 60 * 1000)
      .optional(),
    /** A card never read on this kiosk, offline: refused, or accepted up to `maxAmount`. */
    unknownCardOffline: z
      .union([z.literal('refuse'), z.strictObject({ maxAmount: LimitAmount })])
      .optional(),
    /** Settled debits older than this move to the archive: one day to ten years. */
    settledRetentionMs: z
      .number()
      .int()
      .min(24 * 60 * 60 * 1000)
      .max(3_653 * 24 * 60 * 60 * 1000)
      .optional(),
  }),
);
export type OfflineLimitsChanges = z.infer<typeof OfflineLimitsChanges>;

/** What staff or an administrator may change on the kiosk itself. */
export const KioskSettings = lazySchema(() =>
  z.strictObject({
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
    /**
     * The Commerce API to use; null for the embedded demo sandbox. Read when the kiosk starts: a
     * change takes effect at the next start (`SettingsReply.restartRequired`).
     */
    apiBaseUrl: z.string().nullable(),
    /** The gift-card outbox's offline limits in force. */
    offlineLimits: OutboxLimits,
    /**
     * The integration profile file (how the service shapes what the spec does not show); null:
     * KIOSK_API_PROFILE, else the default. Applied at once.
     */
    profilePath: z.string().nullable(),
    /**
     * Untouched this long, the kiosk returns to its start screen and forgets the customer on
     * screen (a visible countdown first); 0: never.
     */
    idleReturnSeconds: z.union([z.literal(0), z.number().int().min(30).max(3_600)]),
    /**
     * The longest gap between two characters of one barcode scan: scanners type 1 to 20 ms apart,
     * people over 60 ms. Raise it for a slow scanner (a Bluetooth one, a loaded machine).
     */
    scanMaxGapMs: z.number().int().min(5).max(500),
    /**
     * The on-screen keyboard for text fields: `auto` shows it in the Electron kiosk window (a
     * touch-only kiosk has no keyboard) and not in a desktop browser.
     */
    onScreenKeyboard: z.enum(['auto', 'on', 'off']),
    /** Metrics and logs to the fleet's monitoring; absent: off (the environment may still turn them on). */
    telemetry: TelemetrySettings.optional(),
  }),
);
export type KioskSettings = z.infer<typeof KioskSettings>;

/** Long enough to serve a customer without a touch for a while, short enough for privacy. */
export const DEFAULT_IDLE_RETURN_SECONDS = 90;
export const DEFAULT_SCAN_MAX_GAP_MS = 40;

/** An absolute path on the kiosk (POSIX or a Windows drive): no path relative to who knows what. */
export const ProfilePath = lazySchema(() =>
  Text.min(1)
    .max(1_024)
    .refine((path) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path), {
      message: 'an absolute path to the profile file',
    }),
);

/** A change: only the keys given are changed, each validated; limits one by one. */
export const KioskSettingsChanges = lazySchema(() =>
  z.strictObject({
    locale: KioskSettings.shape.locale.optional(),
    shopId: KioskSettings.shape.shopId.optional(),
    printer: KioskSettings.shape.printer.optional(),
    paperSize: KioskSettings.shape.paperSize.optional(),
    apiBaseUrl: ApiBaseUrl.nullable().optional(),
    offlineLimits: OfflineLimitsChanges.optional(),
    profilePath: ProfilePath.nullable().optional(),
    idleReturnSeconds: KioskSettings.shape.idleReturnSeconds.optional(),
    scanMaxGapMs: KioskSettings.shape.scanMaxGapMs.optional(),
    onScreenKeyboard: KioskSettings.shape.onScreenKeyboard.optional(),
    telemetry: TelemetrySettings.optional(),
  }),
);
export type KioskSettingsChanges = z.infer<typeof KioskSettingsChanges>;

/** The integration profile in force, where it came from, and why a configured one is not used. */
export const ProfileInUse = lazySchema(() =>
  z.object({
    name: z.string(),
    source: z.enum(['environment', 'settings', 'default']),
    path: z.string().nullable(),
    /** The configured file could not be used (missing, invalid): the default is in force. */
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  }),
);
export type ProfileInUse = z.infer<typeof ProfileInUse>;

export const SettingsReply = lazySchema(() =>
  z.object({
    settings: KioskSettings,
    /** False: no PIN was configured, so protected changes are impossible on this kiosk. */
    adminPinConfigured: z.boolean(),
    credentials: CredentialStatus,
    /** This build can run the embedded demo sandbox (`apiBaseUrl: null`). */
    sandboxAvailable: z.boolean(),
    /** The saved `apiBaseUrl` is not the service this run uses: it takes effect at the next start. */
    restartRequired: z.boolean(),
    profile: ProfileInUse,
  }),
);
export type SettingsReply = z.infer<typeof SettingsReply>;

export const UpdateSettingsRequest = lazySchema(() =>
  z.strictObject({
    adminPin: AdminPin,
    changes: KioskSettingsChanges,
  }),
);
export type UpdateSettingsRequest = z.input<typeof UpdateSettingsRequest>;

/**
 * Write-only: the setup screen sends the integration account once. No message ever returns them;
 * the reply only says where they are kept.
 */
export const SetCredentialsRequest = lazySchema(() =>
  z.strictObject({
    adminPin: AdminPin,
    email: z.email().max(300),
    password: Text.min(1).max(1_024),
  }),
);
export type SetCredentialsRequest = z.input<typeof SetCredentialsRequest>;

export const SetCredentialsReply = lazySchema(() => z.object({ credentials: CredentialStatus }));
export type SetCredentialsReply = z.infer<typeof SetCredentialsReply>;

/** POST /auth with the stored credentials, then GET /v1/ping. */
export const TestConnectionReply = lazySchema(() =>
  z.object({
    ok: z.boolean(),
    /** When the issued token expires (the token itself stays in main). */
    expiresAt: IsoTime.nullable(),
    scopes: z.array(z.string()).nullable(),
    apiVersion: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  }),
);
export type TestConnectionReply = z.infer<typeof TestConnectionReply>;

export const CheckAdminPinRequest = lazySchema(() => z.strictObject({ pin: AdminPin }));
export type CheckAdminPinRequest = z.input<typeof CheckAdminPinRequest>;

/**
 * A wrong PIN is the ADMIN_PIN_INVALID error (details: `AdminPinRefusal`, the tries left and the
 * next try); too many in a row, ADMIN_PIN_LOCKED.
 */
export const CheckAdminPinReply = lazySchema(() => z.object({ valid: z.boolean() }));
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
  checkContract: defineMessage('checkContract', {
    group: 'settings',
    summary: 'Read every record the kiosk uses from the service and check the profile finds them',
    request: EmptyRequest,
    reply: ContractReport,
  }),
  checkAdminPin: defineMessage('checkAdminPin', {
    group: 'settings',
    summary: 'Check the administrator PIN before showing the settings screen',
    request: CheckAdminPinRequest,
    reply: CheckAdminPinReply,
  }),
} as const;
