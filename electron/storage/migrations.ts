import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { catalogMigration } from '../catalog/schema.ts';
import { SchemaTooNew, StorageError } from './errors.ts';

/**
 * The kiosk database schema, as Signal Desktop keeps it: one ordered list of numbered
 * migrations, the version stored in SQLite's own `PRAGMA user_version`, each migration applied in
 * its own transaction together with its version bump, so a crash leaves the database at a
 * version boundary and the next start carries on from there.
 *
 * To add a migration (any service: outbox, catalogue mirror, ...): append an entry at the END of
 * `migrations` with the next version number. Never edit, reorder or remove a shipped entry: kiosks
 * in the field are at every version in between. A migration must never drop or rewrite rows of
 * debits that are not settled yet (`preservedRows` below checks it at run time and rolls the
 * migration back if it did).
 */
export interface Migration {
  /** 1, 2, 3...: its position in the list, checked at start-up. */
  readonly version: number;
  /** What it does, for logs and errors. */
  readonly name: string;
  /** Runs inside the migration's transaction; throw to roll it back. */
  readonly up: (db: DatabaseSync) => void;
}

export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'outbox: durable gift-card debits',
    up: (db) => {
      // Money is kept in integer cents for sums and limits; the request body is the exact JSON
      // text that goes on the wire, written once and never rewritten, so a resend is byte-identical.
      // No customer personal data: a card id, an amount and our own reference only.
      db.exec(`
        CREATE TABLE outbox_debits (
          id                 INTEGER PRIMARY KEY AUTOINCREMENT,
          idempotency_key    TEXT    NOT NULL UNIQUE,
          gift_card_id       TEXT    NOT NULL,
          request_body       TEXT    NOT NULL,
          amount_cents       INTEGER NOT NULL CHECK (amount_cents > 0),
          reference          TEXT    NOT NULL,
          policy             TEXT    NOT NULL CHECK (policy IN ('prefer_online', 'require_online')),
          accepted_offline   INTEGER NOT NULL CHECK (accepted_offline IN (0, 1)),
          state              TEXT    NOT NULL CHECK (state IN
                               ('pending', 'sending', 'applied', 'refused', 'failed', 'expired', 'cancelled')),
          attempts           INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
          created_at         INTEGER NOT NULL,
          updated_at         INTEGER NOT NULL,
          first_attempt_at   INTEGER,
          last_attempt_at    INTEGER,
          -- The start of the first attempt that may have reached the service (anything but a
          -- request surely never sent): the service's key-retention window counts from there.
          may_have_reached_at INTEGER,
          next_attempt_at    INTEGER NOT NULL,
          last_error_code    TEXT,
          last_error_message TEXT,
          reply              TEXT,
          new_balance        REAL,
          resolved_at        INTEGER,
          resolved_by        TEXT CHECK (resolved_by IN ('service', 'reconciliation', 'staff', 'expiry')),
          -- Staff saw a refused, failed or expired debit: it no longer needs attention.
          acknowledged_at    INTEGER
        ) STRICT;
        -- The sender's working set: the head of each card's queue (FIFO per card).
        CREATE INDEX outbox_debits_open ON outbox_debits (gift_card_id, id)
          WHERE state IN ('pending', 'sending');
        CREATE INDEX outbox_debits_state ON outbox_debits (state, id);
      `);
    },
  },
  {
    version: 2,
    name: 'leases: one worker per data directory',
    up: (db) => {
      // A named lease with an expiry, so two processes on one data directory (the kiosk app and
      // kioskctl) never run the same worker at once, and a crashed holder is replaced in time.
      db.exec(`
        CREATE TABLE leases (
          name        TEXT    PRIMARY KEY,
          owner       TEXT    NOT NULL,
          acquired_at INTEGER NOT NULL,
          expires_at  INTEGER NOT NULL
        ) STRICT;
      `);
    },
  },
  // The catalogue mirror's DDL lives with the catalogue (electron/catalog/schema.ts).
  { version: 3, ...catalogMigration },
];

/**
 * Rows no migration may drop or rewrite: the columns that make an unsettled debit what it is
 * (its key and its exact body). A fingerprint is taken before and after each migration.
 */
const preservedRows = [
  {
    table: 'outbox_debits',
    where: `state IN ('pending', 'sending')`,
    columns: ['id', 'idempotency_key', 'gift_card_id', 'request_body', 'created_at'],
  },
] as const;

export function latestVersion(list: readonly Migration[] = migrations): number {
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
 * Brings the database up to the last version of `list`. Safe when two processes start at once:
 * each step re-reads the version inside its IMMEDIATE transaction, so a step another process has
 * just applied is skipped, never applied twice.
 */
export function migrate(
  db: DatabaseSync,
  path: string,
  list: readonly Migration[] = migrations,
): MigrationReport {
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
      const before = fingerprint(db);
      migration.up(db);
      const after = fingerprint(db);
      if (before !== after) {
        throw new StorageError(
          'STORAGE_MIGRATION_FAILED',
          `migration ${migration.version} ("${migration.name}") dropped or rewrote unsettled debits; rolled back`,
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

function fingerprint(db: DatabaseSync): string {
  const hash = createHash('sha256');
  for (const { table, where, columns } of preservedRows) {
    const exists = db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(table);
    // A table that does not exist yet holds no rows: creating it changes nothing that matters.
    if (exists === undefined) continue;
    const rows = db
      .prepare(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${where} ORDER BY rowid`)
      .iterate();
    for (const row of rows) hash.update(`${table}:${JSON.stringify(row)}\n`);
  }
  return hash.digest('hex');
}
