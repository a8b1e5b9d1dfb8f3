import { StorageError } from '../storage/index.ts';

/** kioskctl's storage exit code: the same number whichever door refused the data. */
export const STORAGE_EXIT_CODE = 8;

/** Why the kiosk will not start on its data, as both hosts say it. */
export interface StartupRefusal {
  /** The StorageError's code (`STORAGE_LOG_LOST`, `STORAGE_DATABASE_EMPTY`...). */
  readonly code: string;
  /** One paragraph for the technician: the file, what is wrong, what to do. No stack trace. */
  readonly message: string;
  /** What the host exits with: `STORAGE_EXIT_CODE`, as kioskctl. */
  readonly exitCode: number;
}

/**
 * A kiosk that cannot start on its data directory or database (empty, foreign, damaged, from a
 * newer build, its write-ahead log lost, the disk full) is a situation, not a bug: the loopback
 * browser host and the Electron host both print this and exit with kioskctl's code 8, where an
 * uncaught error would print a stack trace. Undefined for any other failure, whose stack helps.
 */
export function startupRefusalOf(error: unknown): StartupRefusal | undefined {
  if (!(error instanceof StorageError)) return undefined;
  return {
    code: error.code,
    message: `the kiosk cannot start on its data: ${error.message}`,
    exitCode: STORAGE_EXIT_CODE,
  };
}
