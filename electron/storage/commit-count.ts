import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { CommitMarker, commitMarkerPath } from './commit-marker.ts';
import { StorageError } from './errors.ts';

/**
 * The database's count of its durable commits (`storage_commits`, migration 012) and the marker
 * beside it (`commit-marker.ts`): together they make a lost write-ahead log a refusal at open
 * instead of debits silently gone.
 *
 * Why a marker after every durable commit, and not a checkpoint after every debit so that none
 * lives only in the log: a checkpoint makes a lost log lose nothing, but nothing would say it was
 * lost, and a file restored from last week's copy would open as if nothing happened as well. The
 * count in the file against the count acknowledged catches both, whoever checkpointed (the kiosk
 * app, kioskctl, SQLite itself on the last close, or a technician's sqlite3), with one small
 * flushed write per durable commit; deferred commits (a reply the sender can ask for again)
 * neither count nor pay. `npm run bench` measures the cost on a durable enqueue.
 */
export class CommitCount {
  readonly #marker: CommitMarker;
  readonly #changes: StatementSync;
  readonly #bump: StatementSync;

  private constructor(connection: DatabaseSync, databasePath: string) {
    this.#marker = new CommitMarker(databasePath);
    this.#changes = connection.prepare('SELECT total_changes() AS changes');
    this.#bump = connection.prepare(
      'UPDATE storage_commits SET commits = commits + 1 WHERE id = 1 RETURNING commits',
    );
  }

  /** The counter of this connection, or undefined when its schema has no `storage_commits`. */
  static of(connection: DatabaseSync, databasePath: string): CommitCount | undefined {
    return hasCountTable(connection) ? new CommitCount(connection, databasePath) : undefined;
  }

  /** Rows changed by this connection so far: taken at BEGIN, compared before COMMIT. */
  changes(): number {
    return (this.#changes.get() as { changes: number }).changes;
  }

  /**
   * Inside the transaction, just before COMMIT: one more commit when the work changed anything
   * (a transaction that only read writes nothing to the log and is not counted).
   */
  count(changesAtBegin: number): number | undefined {
    if (this.changes() === changesAtBegin) return undefined;
    const row = this.#bump.get() as { commits: number } | undefined;
    return row?.commits;
  }

  /** After COMMIT returned (the log flushed): the marker says so before the caller hears of it. */
  committed(commits: number): void {
    this.#marker.record(commits);
  }

  close(): void {
    this.#marker.close();
  }
}

/** The durable commits a database holds (0 before migration 012 made the count). */
export function readCommitCount(connection: DatabaseSync): number {
  if (!hasCountTable(connection)) return 0;
  const row = connection.prepare('SELECT commits FROM storage_commits WHERE id = 1').get() as
    { commits: number } | undefined;
  return row?.commits ?? 0;
}

/**
 * Refuses, touching nothing, a database holding fewer commits than its marker says were
 * acknowledged. `marked` must have been read before the database's count (see commit-marker.ts).
 */
export function assertNoCommitLost(connection: DatabaseSync, path: string, marked: number): void {
  if (marked === 0) return;
  const held = readCommitCount(connection);
  if (held >= marked) return;
  throw new StorageError(
    'STORAGE_LOG_LOST',
    `${path} holds ${held} commits but ${commitMarkerPath(path)} says ${marked} were acknowledged: ${marked - held} commit(s), accepted debits among them, are not in it. Its write-ahead log (${path}-wal) was lost, or an older copy of the database was restored. Nothing was changed: put the -wal file back, or restore the database together with its -wal; to start from what is left once the missing debits are accounted for, move ${commitMarkerPath(path)} away`,
  );
}

/** A database that is missing while its marker says commits were acknowledged in it. */
export function assertNotLostWhole(path: string, marked: number): void {
  if (marked === 0) return;
  throw new StorageError(
    'STORAGE_LOG_LOST',
    `${path} is missing but ${commitMarkerPath(path)} says ${marked} commits were acknowledged in it: restore the database (with its -wal), or move ${commitMarkerPath(path)} away to start an empty one once its debits are accounted for (nothing was created)`,
  );
}

function hasCountTable(connection: DatabaseSync): boolean {
  return (
    connection
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'storage_commits'`)
      .get() !== undefined
  );
}
