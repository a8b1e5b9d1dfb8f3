import type { DatabaseSync } from 'node:sqlite';
import type { MirrorSize } from '../../shared/ipc/catalog.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { MirrorWriter } from './mirror-writer.ts';
import {
  type MirrorTables,
  dropMirrorTablesSql,
  liveTables,
  mirrorIndexesSql,
  mirrorTableKeys,
  mirrorTablesOnlySql,
  shadowTables,
} from './schema.ts';
import { SyncState } from './sync-state.ts';

/**
 * How FTS5 merges the search index's segments. A full sync writes one segment a page; merged as
 * they come (FTS5's defaults), each entry of a 100,000-product index was rewritten about four
 * times on its way up the levels, in the commits of the walk. The walk leaves them unmerged and
 * its end merges them all once ('optimize'), which also leaves the new mirror one segment to
 * search; the live mirror then goes back to FTS5's defaults for the change feed's small writes.
 */
interface SearchMerges {
  readonly automerge: number;
  readonly crisismerge: number;
}

/** Nothing merged during the walk (below FTS5's ceiling of 2,000 segments a level). */
const WALK_MERGES: SearchMerges = { automerge: 0, crisismerge: 1_999 };
const LIVE_MERGES: SearchMerges = { automerge: 4, crisismerge: 16 };

function searchMergesSql(search: string, merges: SearchMerges): string {
  return `
    INSERT INTO ${search} (${search}, rank) VALUES ('automerge', ${merges.automerge});
    INSERT INTO ${search} (${search}, rank) VALUES ('crisismerge', ${merges.crisismerge});
  `;
}

/**
 * The catalogue mirror in the kiosk database: the live table set that queries read, the shadow
 * set a full synchronisation fills, and the durable sync state. Readers on other connections keep
 * their WAL snapshot across a swap; the swap itself is one transaction, so they see the old mirror
 * or the new one, never a mix.
 */
export class CatalogMirror {
  readonly database: KioskDatabase;
  readonly state: SyncState;
  #live: MirrorWriter | undefined;
  #shadow: MirrorWriter | undefined;

  constructor(database: KioskDatabase) {
    this.database = database;
    this.state = new SyncState(database.connection);
  }

  get db(): DatabaseSync {
    return this.database.connection;
  }

  transaction<T>(work: () => T, options?: Parameters<KioskDatabase['transaction']>[1]): T {
    return this.database.transaction(work, options);
  }

  get live(): MirrorWriter {
    this.#live ??= new MirrorWriter(this.db, liveTables);
    return this.#live;
  }

  /** The shadow set left by an interrupted full sync, if any. */
  existingShadow(): MirrorWriter | undefined {
    if (this.#shadow) return this.#shadow;
    if (!this.#shadowComplete()) return undefined;
    this.#shadow = new MirrorWriter(this.db, shadowTables);
    return this.#shadow;
  }

  /** A fresh, empty shadow set (dropping any leftover one). */
  createShadow(): MirrorWriter {
    this.#shadow = undefined;
    this.transaction(() => {
      this.db.exec(dropMirrorTablesSql(shadowTables));
      this.db.exec(mirrorTablesOnlySql(shadowTables));
      this.db.exec(searchMergesSql(shadowTables.search, WALK_MERGES));
    });
    this.#shadow = new MirrorWriter(this.db, shadowTables);
    return this.#shadow;
  }

  dropShadow(): void {
    this.#shadow = undefined;
    this.transaction(() => this.db.exec(dropMirrorTablesSql(shadowTables)));
  }

  /**
   * Runs a full sync's walk with SQLite's automatic checkpoint deferred until the log holds
   * `pages` pages, then puts the connection's own threshold back. Each catalogue page writes about
   * 3 MB, past the default threshold (1,000 pages), so every commit of the walk also copied the
   * log into the database and waited for two fsyncs: on a busy disk those checkpoints took as
   * long as the rest of the walk. The log stays bounded (about 64 MB at 16,384 pages) and the
   * copies happen a twentieth as often; a checkpoint is disk work, not memory.
   */
  async withCheckpointEvery<T>(pages: number, work: () => Promise<T>): Promise<T> {
    const previous = this.db.prepare('PRAGMA wal_autocheckpoint').get() as {
      wal_autocheckpoint: number;
    };
    this.db.exec(`PRAGMA wal_autocheckpoint = ${Math.trunc(pages)}`);
    try {
      return await work();
    } finally {
      if (this.db.isOpen) {
        this.db.exec(`PRAGMA wal_autocheckpoint = ${Math.trunc(previous.wal_autocheckpoint)}`);
      }
    }
  }

  /**
   * Builds the shadow's secondary indexes, once it is complete, and merges its search index into
   * one segment: its own transaction, so the swap that follows holds the write lock only for the
   * renames.
   */
  indexShadow(generation: number): void {
    this.transaction(() => {
      this.db.exec(mirrorIndexesSql(shadowTables, generation));
      const search = shadowTables.search;
      this.db.exec(`INSERT INTO ${search} (${search}) VALUES ('optimize')`);
      this.db.exec(searchMergesSql(search, LIVE_MERGES));
    });
  }

  /**
   * Replaces the live set by the shadow set. Runs inside the caller's transaction, together with
   * the state that describes the new mirror.
   */
  swapInShadow(): void {
    if (!this.db.isTransaction) throw new Error('swapInShadow must run inside a transaction');
    this.db.exec(dropMirrorTablesSql(liveTables));
    for (const key of mirrorTableKeys) {
      this.db.exec(`ALTER TABLE ${shadowTables[key]} RENAME TO ${liveTables[key]}`);
    }
    // Statements prepared on the old names are stale: prepare again on next use.
    this.#live = undefined;
    this.#shadow = undefined;
  }

  size(tables: MirrorTables = liveTables): MirrorSize {
    const count = (table: string) =>
      Number((this.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    const pages = this.db.prepare('PRAGMA page_count').get() as { page_count: number };
    const pageSize = this.db.prepare('PRAGMA page_size').get() as { page_size: number };
    return {
      products: count(tables.products),
      items: count(tables.items),
      shops: count(tables.shops),
      categories: count(tables.categories),
      characteristics: count(tables.characteristics),
      productTypes: count(tables.productTypes),
      databaseBytes: Number(pages.page_count) * Number(pageSize.page_size),
    };
  }

  #shadowComplete(): boolean {
    const names = new Set(
      (
        this.db
          .prepare(
            `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'catalog_%_next'`,
          )
          .all() as { name: string }[]
      ).map((row) => row.name),
    );
    return mirrorTableKeys.every((key) => names.has(shadowTables[key]));
  }
}
