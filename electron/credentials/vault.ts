import type { Credentials } from '../api/index.ts';

export type { Credentials } from '../api/index.ts';

/**
 * The backends, by the names the configuration uses (`vault: 'keytar'`, `order: [...]`), the
 * diagnostics print and the status reports.
 * - `file`: a provisioned file for managed fleets (read-only for the kiosk);
 * - `keytar`: the OS keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows);
 * - `safe-storage`: a file in the data directory encrypted with Electron's `safeStorage`.
 */
export const vaultNames = ['file', 'keytar', 'safe-storage'] as const;
export type VaultName = (typeof vaultNames)[number];

/** Why a backend cannot be used; stable, for code to branch on (the UI maps them to its catalogue). */
export type VaultProblemCode =
  /** The backend is not configured on this kiosk (no path, no data directory). */
  | 'NOT_CONFIGURED'
  /** No provisioned file at the configured path. */
  | 'NOT_PROVISIONED'
  /** Electron's safeStorage is not reachable (kioskctl and tests run under plain Node). */
  | 'NOT_IN_ELECTRON'
  /** safeStorage was asked before the app was ready. */
  | 'NOT_READY'
  /** keytar's native module could not be loaded. */
  | 'MODULE_LOAD_FAILED'
  /** No Secret Service (or keychain service) to talk to. */
  | 'NO_SECRET_SERVICE'
  /** The keychain answers but has no unlocked default collection to store into. */
  | 'KEYRING_LOCKED'
  /** The keychain did not answer in time (typically a locked keyring waiting for a prompt). */
  | 'TIMEOUT'
  /** Any other refusal of the OS keychain. */
  | 'KEYCHAIN_ERROR'
  /** safeStorage would store the data with a hard-coded key (basic_text) or not at all. */
  | 'PLAINTEXT_REFUSED'
  /** The provisioned file is readable or writable by group or others. */
  | 'INSECURE_PERMISSIONS'
  /** The provisioned file is owned by someone else than root or the kiosk's user. */
  | 'UNTRUSTED_OWNER'
  /** The provisioned path is not a regular file (directory, FIFO, device...). */
  | 'NOT_A_FILE'
  /** The file exists but cannot be read (permissions, I/O). */
  | 'UNREADABLE'
  /** A file could not be written (permissions, disk full...). */
  | 'WRITE_FAILED'
  /** safeStorage failed to encrypt or decrypt with the key it has now. */
  | 'ENCRYPTION_FAILED';

export type VaultStatus =
  | {
      readonly available: true;
      /** A weakness the administrator accepted (plaintext allowed): shown, never hidden. */
      readonly warning?: string;
    }
  | {
      readonly available: false;
      readonly code: VaultProblemCode;
      /** What is wrong and how to fix it; never a credential. */
      readonly reason: string;
      /**
       * The backend is there but refuses for a security reason an administrator must fix (an
       * insecure provisioned file): the chain stops instead of quietly using another backend,
       * which could hold stale credentials.
       */
      readonly blocking: boolean;
    };

/**
 * Where the integration account's credentials are kept. Implementations never put a credential
 * in an error message or a log line; they throw the typed errors of `errors.ts`.
 */
export interface CredentialVault {
  readonly name: VaultName;
  /** Where, for diagnostics: a path or the keychain's service and account. Never a secret. */
  readonly location: string;
  /** A provisioned file: `write` and `clear` refuse. */
  readonly readOnly: boolean;
  /** Whether this backend can be used now, and why not. Never throws. */
  status(): Promise<VaultStatus>;
  /** The stored credentials, or undefined when none are stored. */
  read(): Promise<Credentials | undefined>;
  /**
   * Whether something is stored here, usable or not (a safeStorage file outside Electron, a
   * provisioned file with the wrong mode, a damaged entry): the kiosk never runs its demo beside
   * real credentials. Never throws; a backend that cannot be asked (no Secret Service) holds
   * nothing the kiosk could send.
   */
  holdsCredentials(): Promise<boolean>;
  /** Stores (replaces) the credentials. */
  write(credentials: Credentials): Promise<void>;
  /** Removes the stored credentials; nothing stored is not an error. */
  clear(): Promise<void>;
}

/** A backend the chain passed over, and why: for diagnostics (`kioskctl credentials status`). */
export interface SkippedVault {
  readonly backend: VaultName;
  readonly code: VaultProblemCode;
  readonly reason: string;
}
