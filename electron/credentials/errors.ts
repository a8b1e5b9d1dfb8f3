import type { SkippedVault, VaultName, VaultProblemCode } from './vault.ts';

/**
 * The failures of the credential vault, as values with a stable `code`. No message ever holds a
 * credential: they name the backend, the path or the field, never a value (see the tests).
 */
export abstract class VaultError extends Error {
  abstract readonly code: string;
  /** The backend concerned; null when the failure is not about one backend. */
  readonly backend: VaultName | null;

  constructor(backend: VaultName | null, message: string) {
    super(message);
    this.backend = backend;
  }

  /** The plain-data form, safe to print or send over IPC. */
  toJSON(): { code: string; backend: VaultName | null; message: string } {
    return { code: this.code, backend: this.backend, message: this.message };
  }
}

export function isVaultError(value: unknown): value is VaultError {
  return value instanceof VaultError;
}

const backendLabels: Readonly<Record<VaultName, string>> = {
  file: 'the provisioned credentials file',
  keytar: 'the OS keychain (keytar)',
  'safe-storage': 'the Electron safeStorage file',
};

export function backendLabel(backend: VaultName): string {
  return backendLabels[backend];
}

/** The backend cannot be used now; `problem` says why, `reason` how to fix it. */
export class VaultUnavailable extends VaultError {
  readonly code = 'VAULT_UNAVAILABLE';
  override readonly name = 'VaultUnavailable';
  readonly problem: VaultProblemCode;
  readonly reason: string;
  declare readonly backend: VaultName;

  constructor(backend: VaultName, problem: VaultProblemCode, reason: string) {
    super(backend, `${backendLabel(backend)} cannot be used: ${reason}`);
    this.problem = problem;
    this.reason = reason;
  }
}

/** No backend of the chain is usable; `skipped` has every reason, in chain order. */
export class NoVaultAvailable extends VaultError {
  readonly code = 'NO_VAULT';
  override readonly name = 'NoVaultAvailable';
  readonly skipped: readonly SkippedVault[];

  constructor(skipped: readonly SkippedVault[]) {
    super(
      null,
      skipped.length === 0
        ? 'no credential vault is configured'
        : `no credential vault is usable: ${skipped.map((entry) => `${entry.backend}: ${entry.reason}`).join('; ')}`,
    );
    this.skipped = skipped;
  }
}

/** `write`/`clear` on the provisioned file: the fleet's provisioning owns it. */
export class VaultReadOnly extends VaultError {
  readonly code = 'VAULT_READ_ONLY';
  override readonly name = 'VaultReadOnly';

  constructor(backend: VaultName, location: string) {
    super(
      backend,
      `${backendLabel(backend)} (${location}) is read-only for the kiosk: change it where the fleet is provisioned (as root, mode 0600), or choose a writable backend`,
    );
  }
}

/** Nothing is stored: an administrator has to set the integration account up. */
export class CredentialsMissing extends VaultError {
  readonly code = 'CREDENTIALS_MISSING';
  override readonly name = 'CredentialsMissing';
  declare readonly backend: VaultName;

  constructor(backend: VaultName) {
    super(
      backend,
      `no integration account credentials are stored in ${backendLabel(backend)}: store them from the setup screen or with "kioskctl credentials set --email <e-mail>"`,
    );
  }
}

/**
 * Credentials that name no API origin (a provisioned file without `"origin"`, an entry stored
 * before origins were kept, the environment's) while the kiosk was given no base URL of its own
 * to bind them to: they are sent nowhere.
 */
export class CredentialsUnbound extends VaultError {
  readonly code = 'CREDENTIALS_UNBOUND';
  override readonly name = 'CredentialsUnbound';

  /** `backend` null: the environment's KIOSK_API_EMAIL and KIOSK_API_PASSWORD. */
  constructor(backend: VaultName | null) {
    const where =
      backend === null
        ? 'the environment (KIOSK_API_EMAIL, KIOSK_API_PASSWORD)'
        : backendLabel(backend);
    const fix =
      backend === null
        ? 'set KIOSK_API_BASE_URL to the API it belongs to'
        : backend === 'file'
          ? 'add "origin": "https://<the API\'s host>" to the file, or set KIOSK_API_BASE_URL (the integrator\'s baseUrl) to the API it belongs to'
          : 'store it again from the setup screen or with "kioskctl credentials set --email <e-mail>" (it is then bound to the base URL in use), or set KIOSK_API_BASE_URL to the API it belongs to';
    super(
      backend,
      `the integration account in ${where} names no API origin and no base URL was configured for it, so it is sent nowhere: ${fix}`,
    );
  }
}

/** Something is stored but is not `{email, password}`; what it holds is never quoted. */
export class CredentialsCorrupt extends VaultError {
  readonly code = 'CREDENTIALS_CORRUPT';
  override readonly name = 'CredentialsCorrupt';
  declare readonly backend: VaultName;

  constructor(backend: VaultName, what: string) {
    super(
      backend,
      `${backendLabel(backend)} holds unusable credentials (${what}): store them again`,
    );
  }
}

/** Credentials given to `write` (setup screen, CLI) are not a non-empty e-mail and password. */
export class InvalidCredentials extends VaultError {
  readonly code = 'CREDENTIALS_INVALID';
  override readonly name = 'InvalidCredentials';

  constructor(reason: string) {
    super(null, `invalid credentials: ${reason}`);
  }
}

export class InvalidVaultConfig extends VaultError {
  readonly code = 'VAULT_CONFIG_INVALID';
  override readonly name = 'InvalidVaultConfig';

  constructor(reason: string) {
    super(null, `invalid credential vault configuration: ${reason}`);
  }
}

/** The person typing the password gave up (Ctrl-C, Ctrl-D). */
export class PasswordEntryAborted extends VaultError {
  readonly code = 'ABORTED';
  override readonly name = 'PasswordEntryAborted';

  constructor() {
    super(null, 'password entry aborted: nothing was stored');
  }
}
