import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { assertNoCommitLost, assertNotLostWhole, CommitCount } from './commit-count.ts';
import { readCommitMarker } from './commit-marker.ts';
import { createDatabaseFile, databaseFileExists } from './database-file.ts';
import { prepareDataDir } from './data-dir.ts';
import { IdleCheckpoint } from './idle-checkpoint.ts';
import { sqliteCodeOf, StorageError, storageErrorOf } from './errors.ts';
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
  /** The kiosk's data directory; created (0700) when missing. */
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
  /**
   * `true` (the default, and the only setting the product uses): every durable commit is counted
   * and recorded in the commit marker beside the file, so a lost write-ahead log is refused at
   * the next open (`commit-count.ts`). `false` exists for the benchmark baseline; the check at
   * open runs either way.
   */
  readonly commitMarker?: boolean;
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
   *
   * The log is copied into the file between tasks, not in the commit (`IdleCheckpoint`).
   *
   * A durable commit is recorded in the commit marker once its log is flushed and before this
   * returns; if that record cannot be written (a full disk) this throws a StorageError although
   * the work was committed: the caller treats it as an answer it did not get (a debit is found
   * again by its request id).
   */
  transaction<T>(work: () => T, options?: { readonly durability?: 'full' | 'deferred' }): T;
  close(): void;
}

const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;
const SQLITE_IOERR_SHORT_READ = 522;

/**
 * Opens (creating if needed, 0600) the kiosk database with the durability settings the outbox
 * relies on, refuses a file that is empty, foreign, damaged or from a newer build before changing
 * anything in it, then migrates. Every failure is a StorageError naming the file.
 */
export function openDatabase(options: OpenDatabaseOptions): KioskDatabase {
  const schema = options.schema;
  const list = schema.migrations;
  checkMigrationList(list);
  const dataDir = prepareDataDir(options.dataDir);
  const path = join(dataDir, options.fileName ?? DATABASE_FILE);
  // Before anything reads the database's own count: both only grow (commit-marker.ts).
  const marked = readCommitMarker(path);
  if (!databaseFileExists(path)) {
    assertNotLostWhole(path, marked);
    createDatabaseFile(path);
  }

  let connection: DatabaseSync;
  try {
    connection = new DatabaseSync(path, {
      timeout: options.busyTimeoutMs ?? 5_000,
      enableForeignKeyConstraints: true,
    });
  } catch (error) {
    throw (
      storageErrorOf(error, path) ??
      new StorageError('STORAGE_OPEN_FAILED', `cannot open ${path}: ${messageOf(error)}`, {
        cause: error,
      })
    );
  }

  try {
    // Both checks come before any pragma that writes (journal_mode changes the file header): a
    // damaged database, or one from a newer build, must stay exactly as it was found.
    assertIntact(connection, path, schema.copiedTablePrefixes ?? []);
    assertNotNewer(connection, path, list);
    assertNoCommitLost(connection, path, marked);
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
    // Counted only where a commit survives a power cut: a marker ahead of the file's own count
    // would refuse a database that lost nothing.
    const commits =
      synchronous === 'FULL' && options.commitMarker !== false
        ? CommitCount.of(connection, path)
        : undefined;
    const checkpoint = new IdleCheckpoint(connection);
    checkpoint.run();
    return {
      path,
      connection,
      migration,
      transaction: (work, transactionOptions) => {
        const outermost = !connection.isTransaction;
        const result =
          transactionOptions?.durability === 'deferred' && synchronous === 'FULL'
            ? runDeferred(connection, work)
            : runInTransaction(connection, work, commits);
        if (outermost) checkpoint.committed();
        return result;
      },
      close: () => {
        checkpoint.cancel();
        commits?.close();
        if (connection.isOpen) connection.close();
      },
    };
  } catch (error) {
    if (connection.isOpen) connection.close();
    if (error instanceof StorageError) throw error;
    if ((error as { errcode?: unknown }).errcode === SQLITE_IOERR_SHORT_READ) {
      // The shared index says the log holds frames the file at `-wal` does not have: the log was
      // removed or truncated while another process (the kiosk app) had the database open.
      throw new StorageError(
        'STORAGE_LOG_LOST',
        `${path}: its write-ahead log ${path}-wal is shorter than the database's index says (removed or truncated while another process had it open); accepted debits may be missing from it. Nothing was changed: stop the kiosk app and put the -wal file back`,
        { cause: error },
      );
    }
    const sqliteCode = sqliteCodeOf(error);
    if (sqliteCode === SQLITE_NOTADB || sqliteCode === SQLITE_CORRUPT) {
      throw new StorageError(
        'STORAGE_DATABASE_DAMAGED',
        `${path} is damaged (${messageOf(error)}); it was left as it is`,
        { cause: error },
      );
    }
    throw (
      storageErrorOf(error, path) ??
      new StorageError('STORAGE_OPEN_FAILED', `cannot open ${path}: ${messageOf(error)}`, {
        cause: error,
      })
    );
  }
}

/**
 * SQLite's check of the pages (`quick_check`: `integrity_check` without matching each index entry
 * to its row, so it stays linear in the size checked): a damaged file is refused before a debit
 * is read. With `copies`, only the schema and the tables (with their indexes) not named by them
 * are checked, each on its own.
 */
function assertIntact(connection: DatabaseSync, path: string, copies: readonly string[]): void {
  const checks =
    copies.length === 0
      ? ['PRAGMA quick_check(5)']
      : ['sqlite_schema', ...ownTables(connection, copies)].map(
          (table) => `PRAGMA quick_check("${table.replaceAll('"', '""')}")`,
        );
  const problems: string[] = [];
  for (const check of checks) {
    // A schema too damaged to list its tables throws here: the caller names it (SQLITE_CORRUPT).
    const rows = connection.prepare(check).all() as { quick_check: string }[];
    if (rows.length === 1 && rows[0]!.quick_check === 'ok') continue;
    problems.push(...rows.map((row) => row.quick_check.replace(/\s+/g, ' ').trim()));
    if (problems.length >= 5) break;
  }
  if (problems.length === 0) return;
  throw new StorageError(
    'STORAGE_DATABASE_DAMAGED',
    `${path} is damaged (PRAGMA quick_check: ${problems.slice(0, 5).join('; ')}); it was left as it is`,
  );
}

/** The ordinary tables not named by a prefix of `copies`. */
function ownTables(connection: DatabaseSync, copies: readonly string[]): string[] {
  const rows = connection
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
    .all() as { name: string }[];
  return rows
    .map((row) => row.name)
    .filter((name) => !copies.some((prefix) => name.startsWith(prefix)));
}

function runInTransaction<T>(connection: DatabaseSync, work: () => T, commits?: CommitCount): T {
  if (connection.isTransaction) return work();
  connection.exec('BEGIN IMMEDIATE');
  try {
    const changesAtBegin = commits?.changes() ?? 0;
    const result = work();
    const counted = commits?.count(changesAtBegin);
    connection.exec('COMMIT');
    if (counted !== undefined) commits?.committed(counted);
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
