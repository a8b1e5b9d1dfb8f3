import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type {
  ChangeWindowRecord,
  ErrorRecord,
  FullSyncProgressRecord,
  FullSyncRecord,
} from '../../shared/ipc/catalog.ts';
import { STATE_TABLE } from './schema.ts';

/**
 * The durable part of the mirror's status, in `catalog_state` (outside the swapped tables).
 * Each value is written inside the same transaction as the data it describes: the change-feed
 * cursor with the last apply of its window, the full-sync record with the swap.
 */

/** Why the mirror cannot be synchronised with this account: live lookups take over. */
export interface AccessRecord {
  readonly missingScopes: readonly string[];
  readonly message: string;
  readonly at: string;
}

interface StateValues {
  /** The next `since` of the change feed (the last applied window's `until`). */
  cursor: string;
  /** Service time the mirror reflects. */
  asOf: string;
  /** Suffix of the live mirror's index names. */
  generation: number;
  lastFullSync: FullSyncRecord;
  lastWindow: ChangeWindowRecord;
  fullSyncProgress: FullSyncProgressRecord;
  forbidden: AccessRecord;
  lastError: ErrorRecord;
}

export type StateKey = keyof StateValues;

export class SyncState {
  readonly #get: StatementSync;
  readonly #set: StatementSync;
  readonly #delete: StatementSync;

  constructor(db: DatabaseSync) {
    this.#get = db.prepare(`SELECT value FROM ${STATE_TABLE} WHERE key = ?`);
    this.#set = db.prepare(
      `INSERT INTO ${STATE_TABLE} (key, value) VALUES (?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    );
    this.#delete = db.prepare(`DELETE FROM ${STATE_TABLE} WHERE key = ?`);
  }

  get<K extends StateKey>(key: K): StateValues[K] | undefined {
    const row = this.#get.get(key) as { value: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.value) as StateValues[K]);
  }

  set<K extends StateKey>(key: K, value: StateValues[K]): void {
    this.#set.run(key, JSON.stringify(value));
  }

  delete(key: StateKey): void {
    this.#delete.run(key);
  }
}
