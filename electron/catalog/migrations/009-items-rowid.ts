import type { Migration } from '../../storage/index.ts';
import { liveTables, shadowTables } from '../schema.ts';
import { itemsIndexesV9Sql, itemsTableV9Sql } from './layout-v9.ts';

/**
 * Shipped once released: never edit it. Rebuilds the live items table as a rowid table
 * (an item's kilobyte body spilled onto an overflow page of its own in a WITHOUT ROWID table) with its rows copied, so a kiosk upgraded while offline keeps answering
 * from its mirror. A shadow left by an interrupted full sync is dropped rather than converted:
 * the next full sync starts over and builds the new layout.
 */
export const itemsRowidMigration: Migration = {
  version: 9,
  name: 'catalogue mirror: items in a rowid table',
  up: (db) => {
    const staging = `${liveTables.items}_rebuilt`;
    db.exec(itemsTableV9Sql(staging));
    db.exec(
      `INSERT INTO ${staging} (product_id, position, uuid, shop_id, available, status, body)
       SELECT product_id, position, uuid, shop_id, available, status, body
       FROM ${liveTables.items} ORDER BY product_id, position`,
    );
    db.exec(`DROP TABLE ${liveTables.items}`);
    db.exec(`ALTER TABLE ${staging} RENAME TO ${liveTables.items}`);
    // The shadow's index names (generation suffixes) cannot meet this suffix.
    db.exec(itemsIndexesV9Sql(liveTables.items, 'v9'));
    for (const table of Object.values(shadowTables)) db.exec(`DROP TABLE IF EXISTS ${table}`);
  },
};
