import type { VaultChain } from './chain.ts';
import { CredentialsMissing, NoVaultAvailable, VaultUnavailable, isVaultError } from './errors.ts';
import type { SkippedVault, VaultName } from './vault.ts';

/**
 * Where the credentials are kept and whether they can be used: never what they are. This is what
 * a status screen, the IPC `setup` status and `kioskctl credentials status` show.
 */
export interface CredentialsOverview {
  /** Credentials are stored in the backend in use. */
  readonly configured: boolean;
  /** The backend in use (the first usable one); null when none is usable. */
  readonly backend: VaultName | null;
  /** A path or keychain entry, for the technician; never a secret. */
  readonly location: string | null;
  /** False for the provisioned file, and when no backend is usable. */
  readonly writable: boolean;
  /** Why credentials cannot be used; `code` is stable (VaultProblemCode or an error code). */
  readonly problem: { readonly code: string; readonly message: string } | null;
  /** A weakness the configuration accepted (plaintext allowed). */
  readonly warning: string | null;
  /** Backends passed over before the one in use, with the reason. */
  readonly skipped: readonly SkippedVault[];
}

export async function describeCredentials(chain: VaultChain): Promise<CredentialsOverview> {
  let resolution;
  try {
    resolution = await chain.resolve();
  } catch (error) {
    if (!isVaultError(error)) throw error;
    return {
      configured: false,
      backend: error instanceof VaultUnavailable ? error.backend : null,
      location: null,
      writable: false,
      problem: problemOf(error),
      warning: null,
      skipped: error instanceof NoVaultAvailable ? error.skipped : [],
    };
  }
  const { vault, skipped, warning } = resolution;
  const base = {
    backend: vault.name,
    location: vault.location,
    writable: !vault.readOnly,
    warning: warning ?? null,
    skipped,
  };
  try {
    const credentials = await vault.read();
    return credentials === undefined
      ? { ...base, configured: false, problem: problemOf(new CredentialsMissing(vault.name)) }
      : { ...base, configured: true, problem: null };
  } catch (error) {
    if (!isVaultError(error)) throw error;
    return { ...base, configured: false, problem: problemOf(error) };
  }
}

function problemOf(error: Error & { code: string }): { code: string; message: string } {
  // The specific cause (PLAINTEXT_REFUSED, NO_SECRET_SERVICE...) is what a screen can explain.
  return {
    code: error instanceof VaultUnavailable ? error.problem : error.code,
    message: error.message,
  };
}
