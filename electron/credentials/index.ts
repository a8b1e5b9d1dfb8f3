/**
 * The credential vault: where the integration account's e-mail and password are kept (OS
 * keychain, Electron safeStorage file, provisioned file), and the adapter the API client takes.
 */
export type {
  Credentials,
  CredentialVault,
  SkippedVault,
  VaultName,
  VaultProblemCode,
  VaultStatus,
} from './vault.ts';
export { vaultNames } from './vault.ts';
export {
  CredentialsCorrupt,
  CredentialsMissing,
  CredentialsUnbound,
  InvalidCredentials,
  InvalidVaultConfig,
  NoVaultAvailable,
  PasswordEntryAborted,
  VaultError,
  VaultReadOnly,
  VaultUnavailable,
  isVaultError,
} from './errors.ts';
export { VaultConfig, defaultVaultOrder, resolveVaultConfig } from './config.ts';
export type { ResolvedVaultConfig } from './config.ts';
export { createVaultChain, resolveVault, vaultChainOf } from './chain.ts';
export type { VaultChain, VaultDeps, VaultResolution } from './chain.ts';
export { type CredentialsBinding, credentialsProvider } from './provider.ts';
export { describeCredentials, originMismatch } from './credential-status.ts';
export type { DescribeOptions } from './credential-status.ts';
export { type ConfiguredCredentials, findConfiguredCredentials } from './configured.ts';
export { credentialStore } from './vault-credential-store.ts';
export type { VaultCredentialStore } from './vault-credential-store.ts';
export type { CredentialsOverview } from './credential-status.ts';
export { KEYTAR_ACCOUNT, KEYTAR_SERVICE, KeytarVault } from './keytar-vault.ts';
export type { KeytarApi, KeytarVaultOptions } from './keytar-vault.ts';
export { SAFE_STORAGE_FILE, SafeStorageVault } from './safe-storage-vault.ts';
export type { SafeStorageVaultOptions } from './safe-storage-vault.ts';
export type { AsyncSafeStorage, SafeStorageApi, SyncSafeStorage } from './safe-storage-api.ts';
export { ProvisionedFileVault } from './provisioned-file-vault.ts';
export type { ProvisionedFileVaultOptions } from './provisioned-file-vault.ts';
export { checkCredentials, normaliseOrigin } from './stored-credentials.ts';
export {
  CliCredentialsError,
  type CliCredentialsOptions,
  type CliCredentialsSource,
  type CliVaultFlags,
  type LoadedCliCredentials,
  cliVaultConfig,
  loadCliCredentials,
} from './cli-credentials.ts';
export { scrubCredentials } from './error-text.ts';
export { type PasswordStream, type ReadPasswordOptions, readPassword } from './password-input.ts';
