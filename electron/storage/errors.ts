/**
 * Storage failures are values with a stable `code`, so the kiosk shell and `kioskctl` can tell a
 * database from a newer build (do not touch it, update the app) from a damaged file or a busy one.
 */
export type StorageErrorCode =
  | 'STORAGE_SCHEMA_TOO_NEW'
  /** The data directory is a file, cannot be created, or is not this user's to write. */
  | 'STORAGE_DATA_DIR_UNUSABLE'
  /** The database file exists but holds nothing: refused, never re-created over. */
  | 'STORAGE_DATABASE_EMPTY'
  /** The database file does not start with the SQLite header. */
  | 'STORAGE_NOT_A_DATABASE'
  /** SQLite's own check (`PRAGMA quick_check`) or a read found damaged pages. */
  | 'STORAGE_DATABASE_DAMAGED'
  /**
   * The database holds fewer commits than were acknowledged (its commit marker, a file beside
   * it, says how many): its write-ahead log was lost, or an older copy of the file was restored.
   */
  | 'STORAGE_LOG_LOST'
  | 'STORAGE_FULL'
  | 'STORAGE_IO_FAILED'
  | 'STORAGE_ACCESS_DENIED'
  /** Another process held the write lock for longer than the busy timeout. */
  | 'STORAGE_BUSY'
  | 'STORAGE_OPEN_FAILED'
  | 'STORAGE_MIGRATION_FAILED'
  | 'STORAGE_MIGRATIONS_INVALID';

export class StorageError extends Error {
  override readonly name: string = 'StorageError';
  readonly code: StorageErrorCode;

  constructor(code: StorageErrorCode, message: string, options?: { cause?: unknown }) {
    super(`${code}: ${message}`, options);
    this.code = code;
  }
}

/**
 * The database was written by a newer build of the kiosk: its rows may use columns or states this
 * code does not know, so reading or migrating it could lose pending debits. Nothing is touched.
 */
export class SchemaTooNew extends StorageError {
  override readonly name = 'SchemaTooNew';
  readonly foundVersion: number;
  readonly knownVersion: number;
  readonly path: string;

  constructor(init: { foundVersion: number; knownVersion: number; path: string }) {
    super(
      'STORAGE_SCHEMA_TOO_NEW',
      `${init.path} has schema version ${init.foundVersion}, this build knows up to ${init.knownVersion}; update the kiosk software (the database was left untouched)`,
    );
    this.foundVersion = init.foundVersion;
    this.knownVersion = init.knownVersion;
    this.path = init.path;
  }
}

/** SQLite's primary result codes (the low byte of an extended one) that mean the disk or file. */
const sqliteStorageCodes: Readonly<Record<number, StorageErrorCode>> = {
  3: 'STORAGE_ACCESS_DENIED', // SQLITE_PERM
  5: 'STORAGE_BUSY', // SQLITE_BUSY
  6: 'STORAGE_BUSY', // SQLITE_LOCKED
  8: 'STORAGE_ACCESS_DENIED', // SQLITE_READONLY
  10: 'STORAGE_IO_FAILED', // SQLITE_IOERR
  11: 'STORAGE_DATABASE_DAMAGED', // SQLITE_CORRUPT
  13: 'STORAGE_FULL', // SQLITE_FULL
  14: 'STORAGE_OPEN_FAILED', // SQLITE_CANTOPEN
  26: 'STORAGE_NOT_A_DATABASE', // SQLITE_NOTADB
};

/** The same, for a file system call (a settings write, `api --out`): a full or read-only disk. */
const errnoStorageCodes: Readonly<Record<string, StorageErrorCode>> = {
  ENOSPC: 'STORAGE_FULL',
  EDQUOT: 'STORAGE_FULL',
  EFBIG: 'STORAGE_FULL',
  EROFS: 'STORAGE_ACCESS_DENIED',
};

/**
 * A failure of the disk or of the database met after the database was opened (a commit on a full
 * disk, a damaged page a query reads), as a StorageError; undefined for anything else. `where`
 * names the file or directory for the message.
 */
export function storageErrorOf(error: unknown, where?: string): StorageError | undefined {
  if (error instanceof StorageError) return error;
  if (!(error instanceof Error)) return undefined;
  const { errcode, code } = error as { errcode?: unknown; code?: unknown };
  const storageCode =
    typeof errcode === 'number'
      ? sqliteStorageCodes[errcode & 0xff]
      : typeof code === 'string'
        ? errnoStorageCodes[code]
        : undefined;
  if (storageCode === undefined) return undefined;
  const place = where === undefined ? '' : ` (${where})`;
  return new StorageError(storageCode, `${error.message}${place}`, { cause: error });
}

/** SQLite's result code of a `node:sqlite` error, if it is one. */
export function sqliteCodeOf(error: unknown): number | undefined {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return error instanceof Error && typeof errcode === 'number' ? errcode & 0xff : undefined;
}
