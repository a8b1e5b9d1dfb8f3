import { MetricsSettingsError } from '../metrics/index.ts';
import { storageErrorOf } from '../storage/index.ts';

/**
 * The exit codes of a host that refuses to start: kioskctl's where the cause is the same (8, the
 * data directory or the database cannot be used), 1 for any other refusal (a bad setting).
 */
export const hostExitCodes = {
  refused: 1,
  storage: 8,
} as const;

/** Why a host does not start, and the exit code it ends with. */
export interface StartupRefusal {
  /** The refusal's stable code when it has one (`STORAGE_LOG_LOST`, `STORAGE_DATABASE_EMPTY`...). */
  readonly code?: string;
  /** One of `hostExitCodes`. */
  readonly exitCode: number;
  /** One paragraph, as kioskctl words the same cause: what is wrong, where, what to do. */
  readonly message: string;
}

/**
 * What a host says when the kiosk's services cannot start, instead of a stack trace: a database
 * that is empty, not SQLite, damaged or from a newer build (the StorageError's own message, which
 * names the file and says it was left untouched; its write-ahead log lost), a bad metrics setting
 * (naming the variable). kioskctl exits 8 on the same data, so a fleet's scripts read one code.
 */
export function startupRefusalOf(error: unknown): StartupRefusal {
  const storage = storageErrorOf(error);
  if (storage !== undefined) {
    return { code: storage.code, exitCode: hostExitCodes.storage, message: storage.message };
  }
  if (error instanceof MetricsSettingsError)
    return { exitCode: hostExitCodes.refused, message: error.message };
  return {
    exitCode: hostExitCodes.refused,
    message: error instanceof Error ? error.message : String(error),
  };
}
