import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { SchemaTooNew, StorageError } from './errors.ts';

/**
 * The kiosk database schema, as Signal Desktop keeps it: one ordered list of numbered
 * migrations, the version stored in SQLite's own `PRAGMA user_version`, each migration applied in
 * its own transaction together with its version bump, so a crash leaves the database at a
 * version boundary and the next start carries on from there.
 *
 * Each migration is a numbered file of the service whose tables it creates
 * (`electron/outbox/migrations/001-debits.ts`, `electron/storage/migrations/002-leases.ts`...);
 * `electron/schema.ts` lists them in order. Storage runs the list it is given and knows no service.
 */
export interface Migration {
  /** 1, 2, 3...: its position in the list, checked at start-up. */
  readonly version: number;
  /** What it does, for logs and errors. */
  readonly name: string;
  /** Runs inside the migration's transaction; throw to roll it back. */
  readonly up: (db: DatabaseSync) => void;
}

/**
 * Rows no migration may drop or rewrite, whichever service the migration belongs to: a
 * fingerprint of these columns is taken before and after each migration, and a migration that
 * changed it is rolled back.
 */
export interface PreservedRows {
  /** What they are, for the error that names them ("unsettled debits"). */
  readonly name: string;
  readonly table: string;
  /** SQL condition selecting the rows to keep. */
  readonly where: string;
  readonly columns: readonly string[];
}

export interface DatabaseSchema {
  /** Versions 1, 2, 3... in order. Append only: kiosks in the field are at every version. */
  readonly migrations: readonly Migration[];
  readonly preserved: readonly PreservedRows[];
  /**
   * Name prefixes of the tables that hold a copy of a service's data, which their owner rebuilds
   * whole from the service (the catalogue mirror): left out of the integrity check at open, where
   * they were most of the file and most of a start (1 s of a 100,000-product mirror's 1.4 s). A
   * damaged page of theirs fails the query that reads it (`STORAGE_DATABASE_DAMAGED`) instead.
   */
  readonly copiedTablePrefixes?: readonly string[];
}

export function latestVersion(list: readonly Migration[]): number {
  return list.length === 0 ? 0 : list[list.length - 1]!.version;
}

export function readSchemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get() as { user_version: number } | undefined;
  return row?.user_version ?? 0;
}

export function checkMigrationList(list: readonly Migration[]): void {
  list.forEach((migration, index) => {
    if (migration.version !== index + 1) {
      throw new StorageError(
        'STORAGE_MIGRATIONS_INVALID',
        `migration "${migration.name}" has version ${migration.version} at position ${index + 1}; versions must be 1, 2, 3... in order`,
      );
    }
  });
}

/** Refuses, touching nothing, a database written by a newer build. */
export function assertNotNewer(db: DatabaseSync, path: string, list: readonly Migration[]): number {
  const found = readSchemaVersion(db);
  const known = latestVersion(list);
  if (found > known) throw new SchemaTooNew({ foundVersion: found, knownVersion: known, path });
  return found;
}

export interface MigrationReport {
  readonly from: number;
  readonly to: number;
  readonly applied: readonly string[];
}

/**
 * Brings the database up to the last version of `schema.migrations`. Safe when two processes
 * start at once: each step re-reads the version inside its IMMEDIATE transaction, so a step
 * another process has just applied is skipped, never applied twice.
 */
export function migrate(db: DatabaseSync, path: string, schema: DatabaseSchema): MigrationReport {
  const list = schema.migrations;
  checkMigrationList(list);
  const from = assertNotNewer(db, path, list);
  const applied: string[] = [];
  for (const migration of list) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const current = assertNotNewer(db, path, list);
      if (current >= migration.version) {
        db.exec('ROLLBACK');
        continue;
      }
      const before = schema.preserved.map((rows) => fingerprint(db, rows));
      migration.up(db);
      const touched = schema.preserved.find((rows, i) => fingerprint(db, rows) !== before[i]);
      if (touched) {
        throw new StorageError(
          'STORAGE_MIGRATION_FAILED',
          `migration ${migration.version} ("${migration.name}") dropped or rewrote ${touched.name}; rolled back`,
        );
      }
      // PRAGMA takes no bound parameters; the version is an integer from our own list.
      db.exec(`PRAGMA user_version = ${Math.trunc(migration.version)}`);
      db.exec('COMMIT');
      applied.push(migration.name);
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      if (error instanceof StorageError) throw error;
      throw new StorageError(
        'STORAGE_MIGRATION_FAILED',
        `migration ${migration.version} ("${migration.name}") failed and was rolled back: ${String(error instanceof Error ? error.message : error)}`,
        { cause: error },
      );
    }
  }
  return { from, to: readSchemaVersion(db), applied };
}

function fingerprint(db: DatabaseSync, { table, where, columns }: PreservedRows): string {
  const hash = createHash('sha256');
  const exists = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .get(table);
  // A table that does not exist yet holds no rows: creating it changes nothing that matters.
  if (exists === undefined) return hash.digest('hex');
  const rows = db
    .prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${where} ORDER BY rowid`)
    .iterate();
  for (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
  return hash.digest('hex');
}
