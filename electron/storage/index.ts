/**
 * The kiosk database: one SQLite file per data directory, opened with the durability the outbox
 * relies on and migrated by the list it is given. Storage knows no service: each service owns the
 * migrations of its tables, and `electron/schema.ts` puts them in order.
 */
export {
  DATABASE_FILE,
  type KioskDatabase,
  type OpenDatabaseOptions,
  openDatabase,
} from './database.ts';
export { DATABASE_FILE_MODE } from './database-file.ts';
export { DATA_DIR_MODE, prepareDataDir } from './data-dir.ts';
export { SchemaTooNew, StorageError, type StorageErrorCode, storageErrorOf } from './errors.ts';
export { Lease, type LeaseHolder, type LeaseOptions } from './lease.ts';
export {
  type DatabaseSchema,
  type Migration,
  type MigrationReport,
  type PreservedRows,
} from './migration-runner.ts';
export { leasesMigration } from './migrations/002-leases.ts';
export { commitCountMigration } from './migrations/012-commit-count.ts';
export { COMMIT_MARKER_SUFFIX } from './commit-marker.ts';
