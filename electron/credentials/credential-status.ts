import type { VaultChain } from './chain.ts';
import { CredentialsMissing, NoVaultAvailable, VaultUnavailable, isVaultError } from './errors.ts';
import { type CredentialsBinding, bound } from './provider.ts';
import { normaliseOrigin } from './stored-credentials.ts';
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
  /** The API origin they are bound to; null when none is known. */
  readonly origin: string | null;
}

export interface DescribeOptions {
  /** How the kiosk binds credentials that name no origin (as its provider does). */
  readonly binding?: CredentialsBinding;
  /**
   * The origin the kiosk means to send them to: credentials bound elsewhere are reported with
   * the problem `CREDENTIALS_ORIGIN_MISMATCH` (setup asks for the account of that API).
   */
  readonly expectedOrigin?: string | undefined;
}

export async function describeCredentials(
  chain: VaultChain,
  { binding, expectedOrigin }: DescribeOptions = {},
): Promise<CredentialsOverview> {
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
      origin: null,
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
  let credentials;
  try {
    credentials = await vault.read();
  } catch (error) {
    if (!isVaultError(error)) throw error;
    return { ...base, configured: false, problem: problemOf(error), origin: null };
  }
  if (credentials === undefined) {
    return {
      ...base,
      configured: false,
      problem: problemOf(new CredentialsMissing(vault.name)),
      origin: null,
    };
  }
  let origin = credentials.origin;
  if (binding !== undefined) {
    try {
      origin = bound(credentials, binding, vault.name).origin;
    } catch (error) {
      if (!isVaultError(error)) throw error;
      return { ...base, configured: true, problem: problemOf(error), origin: null };
    }
  }
  const expected = expectedOrigin === undefined ? undefined : normaliseOrigin(expectedOrigin);
  const problem =
    expected !== undefined && origin !== undefined && origin !== expected
      ? originMismatch(origin, expected)
      : null;
  return { ...base, configured: true, problem, origin: origin ?? null };
}

/** Stored for one API, while the kiosk is set to use another: setup asks for that one's account. */
export function originMismatch(
  origin: string,
  expected: string,
): { readonly code: string; readonly message: string } {
  return {
    code: 'CREDENTIALS_ORIGIN_MISMATCH',
    message: `the stored integration account belongs to ${origin}, not to ${expected}, the API this kiosk is set to use: it is never sent there. Store the account for ${expected}`,
  };
}

function problemOf(error: Error & { code: string }): { code: string; message: string } {
  // The specific cause (PLAINTEXT_REFUSED, NO_SECRET_SERVICE...) is what a screen can explain.
  return {
    code: error instanceof VaultUnavailable ? error.problem : error.code,
    message: error.message,
  };
}
