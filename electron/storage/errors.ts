/**
 * Storage failures are values with a stable `code`, so the kiosk shell and `kioskctl` can tell a
 * database from a newer build (do not touch it, update the app) from a damaged file or a busy one.
 */
export type StorageErrorCode =
  | 'STORAGE_SCHEMA_TOO_NEW'
  | 'STORAGE_NOT_A_DATABASE'
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
