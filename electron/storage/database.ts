import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { StorageError } from './errors.ts';
import {
  assertNotNewer,
  checkMigrationList,
  type DatabaseSchema,
  migrate,
  type MigrationReport,
} from './migration-runner.ts';

/** The one database file of a kiosk data directory; every service keeps its tables in it. */
export const DATABASE_FILE = 'kiosk.sqlite';

export interface OpenDatabaseOptions {
  /** The kiosk's data directory; created when missing. */
  readonly dataDir: string;
  readonly fileName?: string;
  /**
   * How long a statement waits for another process's write lock (the kiosk app and kioskctl
   * share the file) before failing with SQLITE_BUSY.
   */
  readonly busyTimeoutMs?: number;
  /** The migrations every service's tables come from (the kiosk's: `electron/schema.ts`). */
  readonly schema: DatabaseSchema;
  /**
   * `FULL` (the default, and the only setting the product uses): a commit survives power loss.
   * `OFF` exists for the benchmark baseline, to measure what that durability costs.
   */
  readonly synchronous?: 'FULL' | 'OFF';
}

export interface KioskDatabase {
  readonly path: string;
  readonly connection: DatabaseSync;
  readonly migration: MigrationReport;
  /**
   * Runs `work` in a `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so two
   * processes never deadlock upgrading a read lock, and a throw rolls everything back. A call
   * made inside another transaction joins it.
   *
   * `durability: 'deferred'` commits without waiting for the disk (synchronous=NORMAL for this
   * one commit): atomic, and safe from a process crash, but a power cut may undo it until the
   * next durable commit, which flushes it too. Only for writes the caller can redo after such a
   * loss (the outbox's record of a reply: the row stays `sending` and is resent with the same
   * key, which the service replays). Never for accepting a debit or a staff decision.
   */
  transaction<T>(work: () => T, options?: { readonly durability?: 'full' | 'deferred' }): T;
  close(): void;
}

const SQLITE_NOTADB = 26;

/**
 * Opens (creating if needed) the kiosk database with the durability settings the outbox relies
 * on, refuses a database from a newer build before changing anything in it, then migrates.
 */
export function openDatabase(options: OpenDatabaseOptions): KioskDatabase {
  const schema = options.schema;
  const list = schema.migrations;
  checkMigrationList(list);
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, options.fileName ?? DATABASE_FILE);

  let connection: DatabaseSync;
  try {
    connection = new DatabaseSync(path, {
      timeout: options.busyTimeoutMs ?? 5_000,
      enableForeignKeyConstraints: true,
    });
  } catch (error) {
    throw new StorageError('STORAGE_OPEN_FAILED', `cannot open ${path}: ${messageOf(error)}`, {
      cause: error,
    });
  }

  try {
    // The version check comes before any pragma that writes (journal_mode changes the file
    // header): a newer database must stay exactly as the newer build left it.
    assertNotNewer(connection, path, list);
    const journal = connection.prepare('PRAGMA journal_mode = WAL').get() as
      { journal_mode: string } | undefined;
    if (journal?.journal_mode !== 'wal') {
      throw new StorageError(
        'STORAGE_OPEN_FAILED',
        `${path}: WAL journal mode refused (got ${journal?.journal_mode ?? 'nothing'})`,
      );
    }
    // In WAL mode FULL syncs the log at every commit: an acknowledged debit survives a power cut.
    const synchronous = options.synchronous === 'OFF' ? 'OFF' : 'FULL';
    connection.exec(`PRAGMA synchronous = ${synchronous}`);
    connection.exec('PRAGMA foreign_keys = ON');
    connection.exec(`PRAGMA busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5_000)}`);
    const migration = migrate(connection, path, schema);
    return {
      path,
      connection,
      migration,
      transaction: (work, transactionOptions) =>
        transactionOptions?.durability === 'deferred' && synchronous === 'FULL'
          ? runDeferred(connection, work)
          : runInTransaction(connection, work),
      close: () => {
        if (connection.isOpen) connection.close();
      },
    };
  } catch (error) {
    if (connection.isOpen) connection.close();
    if (error instanceof StorageError) throw error;
    if (isSqliteError(error) && error.errcode === SQLITE_NOTADB) {
      throw new StorageError('STORAGE_NOT_A_DATABASE', `${path} is not a SQLite database`, {
        cause: error,
      });
    }
    throw new StorageError('STORAGE_OPEN_FAILED', `cannot open ${path}: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

function runInTransaction<T>(connection: DatabaseSync, work: () => T): T {
  if (connection.isTransaction) return work();
  connection.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    connection.exec('COMMIT');
    return result;
  } catch (error) {
    if (connection.isTransaction) connection.exec('ROLLBACK');
    throw error;
  }
}

/**
 * One commit at synchronous=NORMAL, then FULL again whatever happens: a connection left at NORMAL
 * would make every later commit (an accepted debit) lose its power-cut guarantee.
 */
function runDeferred<T>(connection: DatabaseSync, work: () => T): T {
  if (connection.isTransaction) return work();
  connection.exec('PRAGMA synchronous = NORMAL');
  try {
    return runInTransaction(connection, work);
  } finally {
    connection.exec('PRAGMA synchronous = FULL');
  }
}

function isSqliteError(error: unknown): error is Error & { errcode: number } {
  return error instanceof Error && typeof (error as { errcode?: unknown }).errcode === 'number';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
