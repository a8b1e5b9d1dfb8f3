import type { Migration } from '../../storage/index.ts';
import { liveTables, shadowTables } from '../schema.ts';

/**
 * Shipped once released: never edit it (its DDL is its own, frozen here). Rebuilds the search
 * index contentless: it kept a copy of every product's indexed text that no search reads (a
 * search asks the index for rowids only), about 10 MB of every 20,000 products that each full
 * sync wrote, and each page's commit with it. The entries are copied out of the old index, so a
 * kiosk upgraded while offline keeps answering; a shadow left by an interrupted full sync is
 * dropped, and the next full sync starts over in the new layout.
 */
export const contentlessSearchMigration: Migration = {
  version: 17,
  name: 'catalogue mirror: a contentless search index',
  up: (db) => {
    const { search } = liveTables;
    const staging = `${search}_rebuilt`;
    db.exec(`
      CREATE VIRTUAL TABLE ${staging} USING fts5(
        name, reference, ean, description, filters,
        tokenize = 'unicode61 remove_diacritics 2',
        prefix = '1 2 3',
        content = '',
        contentless_delete = 1
      );
      INSERT INTO ${staging} (rowid, name, reference, ean, description, filters)
        SELECT rowid, name, reference, ean, description, filters FROM ${search};
      DROP TABLE ${search};
      ALTER TABLE ${staging} RENAME TO ${search};
    `);
    for (const table of Object.values(shadowTables)) db.exec(`DROP TABLE IF EXISTS ${table}`);
  },
};
