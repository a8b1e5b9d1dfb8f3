/**
 * `commerce-kiosk`: the main-process entry point. An integrator's Electron app imports from here
 * (never from a deep path): the integration that opens the kiosk window, the services and the
 * loopback browser host for a custom host, the credential vault, the logger, the integration
 * profile loader, and every type they take or return.
 */
export {
  type EmbeddedSandbox,
  type KioskIntegration,
  type KioskIntegrationOptions,
  createKioskIntegration,
} from '../host/kiosk-integration.ts';
export {
  DEFAULT_KIOSK_SCHEME,
  type KioskWindowOptions,
  kioskSchemePrivileges,
  registerKioskScheme,
} from '../host/kiosk-window.ts';
export type * from '../host/electron-module.ts';
export { AssetVersionError, type AssetVersionCode } from '../host/asset-version.ts';
export { packageVersion } from '../package-version.ts';
export {
  type BrowserHost,
  type BrowserHostOptions,
  startBrowserHost,
} from '../host/browser-host.ts';
export { type StartupRefusal, hostExitCodes, startupRefusalOf } from '../host/startup-refusal.ts';
import {
  type KioskServices,
  type KioskServicesOptions,
  createKioskServices as createServices,
} from '../kiosk/index.ts';

export {
  AdminPin,
  type AdminPinOptions,
  type CredentialStore,
  type KioskCredentials,
  type KioskPrintingOptions,
  type KioskServices,
  type KioskServicesOptions,
  deploymentBaseUrl,
  fixedCredentials,
  vaultCredentials,
} from '../kiosk/index.ts';
export type { AdminGuard, IpcRouter, KioskHandlers } from '../ipc/index.ts';
export type { KioskEventSource } from '../ipc/index.ts';
export type { CredentialsProvider } from '../api/index.ts';
export type {
  CredentialStatus,
  EventName,
  EventPayloadOf,
  IpcError,
  IpcEvents,
  IpcMessages,
  IpcResult,
  KioskSettings,
  KioskStatus,
  MessageName,
  OutboxLimits,
  ParsedRequestOf,
} from '../../shared/ipc/index.ts';
export type { DeepReadonly, HandlerReply, SenderInfo } from '../ipc/index.ts';
export type {
  BackendPreference,
  ElectronPrintHost,
  ElectronPrinter,
  HiddenDocument,
} from '../printing/index.ts';
export { ipcEvents, ipcMessages } from '../../shared/ipc/index.ts';

/**
 * The kiosk's services for a custom host (one API client, one database, the outbox and its
 * sender, the catalogue mirror, printing, settings), behind the IPC handlers a host binds to its
 * own transport; `startBrowserHost` is one such host.
 */
export function createKioskServices(options: KioskServicesOptions): Promise<KioskServices> {
  return createServices(options);
}
export {
  type CliVaultFlags,
  type CredentialsBinding,
  type Credentials,
  type CredentialVault,
  type AsyncSafeStorage,
  type SafeStorageApi,
  type SkippedVault,
  type SyncSafeStorage,
  type VaultDeps,
  type VaultProblemCode,
  type VaultResolution,
  type VaultChain,
  type VaultName,
  type VaultStatus,
  VaultConfig,
  VaultError,
  cliVaultConfig,
  createVaultChain,
  isVaultError,
  vaultNames,
} from '../credentials/index.ts';
export {
  type LogSettings,
  type LogSink,
  type RateLimitOptions,
  type RedactingLoggerOptions,
  type Logger,
  type LogFields,
  type LogLevel,
  createRedactingLogger,
  openLogSink,
  readLogSettings,
  silentLogger,
} from '../logging/index.ts';
export {
  type LoadedProfile,
  ProfileError,
  type ProfileErrorCode,
  type ProfileSource,
  loadProfile,
  loadProfileFile,
} from '../profile/index.ts';
export type { OfflineLimits } from '../outbox/index.ts';
export type { IntegrationProfile } from '../../shared/profile/index.ts';
export type { PrintingConfig } from '../printing/index.ts';
