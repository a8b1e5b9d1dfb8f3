import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { DebitState } from '../../shared/ipc/gift-cards.ts';
import type { KioskDatabase } from '../storage/index.ts';

/**
 * The archive of settled debits (`outbox_debits_archive`, migration 013): every statement over it.
 *
 * A row moves there once it is settled for good and older than the retention: applied or
 * cancelled, or refused, failed or expired and resolved (or acknowledged) by staff. Any other row
 * stays, whatever its age: an open one, one still in the staff's alert, one in a state this list
 * does not name (a state added later is never archived by accident). Each row keeps every column
 * by name, as JSON, with the rows of the tables that reference it (its retired keys), so the
 * readers rebuild it exactly as `outbox_debits` had it.
 */

/** The states a row may be archived in (the rest of the rule is `SETTLED_FOR_GOOD`). */
export const archivableStates: readonly DebitState[] = [
  'applied',
  'cancelled',
  'refused',
  'failed',
  'expired',
];

/** `outbox_debits_settled`'s condition, word for word, so the planner uses that index. */
const SETTLED = `state IN ('applied', 'cancelled', 'refused', 'failed', 'expired')`;
/** Never a row the staff's alert still shows (`needsAttention`). */
const SETTLED_FOR_GOOD = `${SETTLED} AND (state IN ('applied', 'cancelled')
  OR staff_resolution IS NOT NULL OR acknowledged_at IS NOT NULL)`;

/** An archived row as `outbox_debits` had it, by column name. */
export type ArchivedRow = Record<string, unknown>;

interface StoredRow {
  readonly debit: string;
}

/** A table whose rows reference a debit (`outbox_debit_keys.debit_id`). */
interface RelatedTable {
  readonly table: string;
  readonly column: string;
  readonly columns: readonly string[];
}

export class ArchivedDebits {
  readonly #db: KioskDatabase;
  readonly #statements = new Map<string, StatementSync>();
  #present = false;
  #defaults: ArchivedRow | undefined;

  constructor(db: KioskDatabase) {
    this.#db = db;
  }

  get(id: number): ArchivedRow | undefined {
    if (!this.#ready()) return undefined;
    return this.#row(this.#sql(`SELECT debit FROM outbox_debits_archive WHERE id = ?`).get(id));
  }

  byRequestId(requestId: string): ArchivedRow | undefined {
    if (!this.#ready()) return undefined;
    return this.#row(
      this.#sql(`SELECT debit FROM outbox_debits_archive WHERE request_id = ?`).get(requestId),
    );
  }

  /** As `OutboxStore.list`; nothing at all for a state never archived (an open one). */
  list(filter: { state?: DebitState; afterId?: number; limit?: number } = {}): ArchivedRow[] {
    if (filter.state !== undefined && !archivableStates.includes(filter.state)) return [];
    if (!this.#ready()) return [];
    const rows =
      filter.state === undefined
        ? this.#sql(`SELECT debit FROM outbox_debits_archive WHERE id > ? ORDER BY id LIMIT ?`).all(
            filter.afterId ?? 0,
            filter.limit ?? -1,
          )
        : this.#sql(
            `SELECT debit FROM outbox_debits_archive WHERE state = ? AND id > ? ORDER BY id LIMIT ?`,
          ).all(filter.state, filter.afterId ?? 0, filter.limit ?? -1);
    return rows.map((row) => this.#row(row)!);
  }

  /** Accepted in [from, to) (epoch ms, the outbox clock), oldest first. */
  createdBetween(from: number, to: number): ArchivedRow[] {
    if (!this.#ready()) return [];
    return this.#sql(
      `SELECT debit FROM outbox_debits_archive WHERE created_at >= ? AND created_at < ?
       ORDER BY created_at, id`,
    )
      .all(from, to)
      .map((row) => this.#row(row)!);
  }

  /** The rows of `table` that referenced the archived debit `id`, in their order there. */
  related(id: number, table: string): ArchivedRow[] {
    if (!this.#ready()) return [];
    const row = this.#sql(
      `SELECT related -> ? AS rows FROM outbox_debits_archive WHERE id = ?`,
    ).get(`$."${table}"`, id) as { rows: string | null } | undefined;
    return row?.rows ? (JSON.parse(row.rows) as ArchivedRow[]) : [];
  }

  count(): number {
    if (!this.#ready()) return 0;
    return (this.#sql(`SELECT count(*) AS n FROM outbox_debits_archive`).get() as { n: number }).n;
  }

  /**
   * The row as it was, each column the live table has now filled in: a column added after the
   * row was archived reads as `ALTER TABLE ... ADD COLUMN` gave the rows it found.
   */
  #row(stored: unknown): ArchivedRow | undefined {
    if (stored === undefined) return undefined;
    this.#defaults ??= columnDefaults(this.#db.connection);
    return { ...this.#defaults, ...(JSON.parse((stored as StoredRow).debit) as ArchivedRow) };
  }

  /** Whether migration 013 ran on this database (a test schema may stop before it). */
  #ready(): boolean {
    this.#present ||= tableExists(this.#db.connection, 'outbox_debits_archive');
    return this.#present;
  }

  #sql(text: string): StatementSync {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.#db.connection.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }
}

export interface ArchiveBatch {
  /** Service-clock epoch ms: rows accepted (at the latest) by then move. */
  readonly cutoff: number;
  /**
   * The latest reading of the service's clock: settled rows with no service time (accepted by a
   * process that had no dated reply) are dated with it, so their age counts from now, late but
   * never early, as `OutboxStore.dateOpenRows` does for open ones.
   */
  readonly serviceLatest: number;
  /** The outbox clock, for `archived_at`. */
  readonly now: number;
  readonly limit: number;
}

export interface ArchiveBatchResult {
  readonly moved: number;
  readonly dated: number;
  /** The batch was full: there may be more to do. */
  readonly more: boolean;
}

/**
 * Moves up to `limit` rows in one transaction: copied whole into the archive, then deleted with
 * the rows that referenced them, the counts checked before the commit. A crash at any point
 * leaves each row in exactly one of the two tables. The commit is a deferred one (no flush of its
 * own): a power cut may undo it, which only puts the rows back where they were.
 *
 * `afterCopy` runs between the copy and the delete: a test crashes the process there.
 */
export function archiveBatch(
  db: KioskDatabase,
  batch: ArchiveBatch,
  afterCopy?: () => void,
): ArchiveBatchResult {
  const sql = moverOf(db.connection);
  return db.transaction(
    () => {
      const dated = Number(sql.date.run(batch.serviceLatest, batch.limit).changes);
      const ids = (sql.candidates.all(batch.cutoff, batch.limit) as { id: number }[]).map(
        (row) => row.id,
      );
      if (ids.length === 0) return { moved: 0, dated, more: dated === batch.limit };
      const chosen = JSON.stringify(ids);
      const copied = Number(sql.copy.run(batch.now, chosen).changes);
      afterCopy?.();
      for (const remove of sql.removeRelated) remove.run(chosen);
      const deleted = Number(sql.remove.run(chosen).changes);
      if (copied !== ids.length || deleted !== ids.length) {
        throw new Error(
          `archiving ${ids.length} debits copied ${copied} and deleted ${deleted}; rolled back`,
        );
      }
      return { moved: ids.length, dated, more: ids.length === batch.limit };
    },
    { durability: 'deferred' },
  );
}

interface Mover {
  readonly date: StatementSync;
  readonly candidates: StatementSync;
  readonly copy: StatementSync;
  readonly removeRelated: readonly StatementSync[];
  readonly remove: StatementSync;
}

/**
 * The batch's statements, prepared once a connection: they name every column of the debits and
 * of the tables referencing them, which only a migration changes, and migrations run at open.
 */
const movers = new WeakMap<DatabaseSync, Mover>();

function moverOf(connection: DatabaseSync): Mover {
  let mover = movers.get(connection);
  if (mover) return mover;
  const related = relatedTables(connection);
  const relatedJson =
    related.length === 0
      ? `'{}'`
      : `json_object(${related
          .map(
            (r) =>
              `'${r.table}', (SELECT json_group_array(json(o)) FROM (SELECT ${objectOf(r.columns, 'x')} AS o
                 FROM "${r.table}" AS x WHERE x."${r.column}" = d.id ORDER BY x.rowid))`,
          )
          .join(', ')})`;
  mover = {
    date: connection.prepare(
      `UPDATE outbox_debits SET created_service_at = ?
       WHERE id IN (SELECT id FROM outbox_debits INDEXED BY outbox_debits_settled
                    WHERE ${SETTLED} AND created_service_at IS NULL LIMIT ?)`,
    ),
    candidates: connection.prepare(
      // The settled rows' own index, in its order: the planner would rather read every applied
      // row by state and sort them, a million of them on a kiosk upgraded with years of debits.
      `SELECT id FROM outbox_debits INDEXED BY outbox_debits_settled
       WHERE ${SETTLED_FOR_GOOD} AND created_service_at <= ?
       ORDER BY created_service_at LIMIT ?`,
    ),
    copy: connection.prepare(
      `INSERT INTO outbox_debits_archive
         (id, state, created_at, request_id, debit, related, archived_at)
       SELECT d.id, d.state, d.created_at, d.request_id,
         ${objectOf(columnsOf(connection, 'outbox_debits'), 'd')}, ${relatedJson}, ?
       FROM outbox_debits AS d WHERE d.id IN (SELECT value FROM json_each(?))`,
    ),
    removeRelated: related.map((r) =>
      connection.prepare(
        `DELETE FROM "${r.table}" WHERE "${r.column}" IN (SELECT value FROM json_each(?))`,
      ),
    ),
    remove: connection.prepare(
      `DELETE FROM outbox_debits WHERE id IN (SELECT value FROM json_each(?))
         AND ${SETTLED_FOR_GOOD}`,
    ),
  };
  movers.set(connection, mover);
  return mover;
}

/** `json_object('col', alias."col", ...)` over every column. */
function objectOf(columns: readonly string[], alias: string): string {
  return `json_object(${columns.map((c) => `'${c}', ${alias}."${c}"`).join(', ')})`;
}

function columnsOf(connection: DatabaseSync, table: string): string[] {
  return (
    connection.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as {
      name: string;
    }[]
  ).map((row) => row.name);
}

/** Every table with a foreign key to `outbox_debits`, whichever migration made it. */
function relatedTables(connection: DatabaseSync): RelatedTable[] {
  const rows = connection
    .prepare(
      `SELECT m.name AS "table", f."from" AS "column"
       FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f
       WHERE m.type = 'table' AND f."table" = 'outbox_debits' ORDER BY m.name`,
    )
    .all() as { table: string; column: string }[];
  return rows.map((row) => ({ ...row, columns: columnsOf(connection, row.table) }));
}

function columnDefaults(connection: DatabaseSync): ArchivedRow {
  const columns = connection
    .prepare(`SELECT name, dflt_value FROM pragma_table_info('outbox_debits')`)
    .all() as { name: string; dflt_value: string | null }[];
  const defaults: ArchivedRow = {};
  for (const { name, dflt_value: value } of columns) defaults[name] = literalOf(value);
  return defaults;
}

/** A column's default as SQLite reports it (SQL text): a number, a quoted string, or NULL. */
function literalOf(sql: string | null): unknown {
  if (sql === null || /^null$/i.test(sql)) return null;
  if (/^[-+]?\d+(\.\d+)?$/.test(sql)) return Number(sql);
  const quoted = /^'(.*)'$/s.exec(sql);
  return quoted ? quoted[1]!.replaceAll("''", "'") : null;
}

function tableExists(connection: DatabaseSync, table: string): boolean {
  return (
    connection
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(table) !== undefined
  );
}
