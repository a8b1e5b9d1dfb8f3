import type { DatabaseSync } from 'node:sqlite';

/**
 * Commits between two checkpoints taken off the commit path. An accepted debit writes about six
 * log pages, so a hundred of them stay under SQLite's own threshold (1,000 pages), which then
 * only fires for large writes (a catalogue page) or when the event loop never turns.
 */
export const COMMITS_PER_CHECKPOINT = 100;

/**
 * Copies the write-ahead log into the database file in the event loop's next turn, after every
 * `COMMITS_PER_CHECKPOINT` commits. SQLite's automatic checkpoint runs inside the commit that
 * crosses its threshold, so one debit in a hundred and fifty waited 1 to 7 ms more for its
 * acknowledgement; here the staff's answer has already left when the copy starts.
 *
 * PASSIVE never waits for another connection (kioskctl) and never blocks a writer. A checkpoint
 * that fails (a full disk, another process checkpointing) is left to the next one or to SQLite's
 * own: the commits it would have copied are already durable in the log.
 */
export class IdleCheckpoint {
  readonly #connection: DatabaseSync;
  #commits = 0;
  #pending: NodeJS.Immediate | undefined;

  constructor(connection: DatabaseSync) {
    this.#connection = connection;
  }

  /** Counts a commit; every `COMMITS_PER_CHECKPOINT`th schedules a checkpoint. */
  committed(): void {
    this.#commits += 1;
    if (this.#commits < COMMITS_PER_CHECKPOINT || this.#pending) return;
    this.#pending = setImmediate(() => this.run());
  }

  /** Checkpoints now (at open, so the first debits do not copy a migration's pages). */
  run(): void {
    this.cancel();
    this.#commits = 0;
    const connection = this.#connection;
    if (!connection.isOpen || connection.isTransaction) return;
    try {
      connection.exec('PRAGMA wal_checkpoint(PASSIVE)');
    } catch {
      // Nothing is lost (see above), and a kiosk never stops for its own housekeeping.
    }
  }

  cancel(): void {
    if (this.#pending) clearImmediate(this.#pending);
    this.#pending = undefined;
  }
}
