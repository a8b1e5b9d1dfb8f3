import type { Migration } from '../../storage/index.ts';
import { liveTables, shadowTables } from '../schema.ts';

/**
 * Shipped once released: never edit it (its DDL is its own, frozen here). Moves each item's body
 * into its product's entry, which is then the catalogue entry exactly as the service returned
 * it, and narrows the items table to what SQL filters on. The rows are converted rather than
 * dropped, so a kiosk upgraded while offline keeps answering from its mirror; a shadow left by an
 * interrupted full sync is dropped, and the next full sync starts over in the new layout.
 */
export const itemsInEntriesMigration: Migration = {
  version: 10,
  name: 'catalogue mirror: items inside their product entry',
  up: (db) => {
    const { bodies, items } = liveTables;
    db.exec(
      `UPDATE ${bodies} SET body = json_set(body, '$.items', (
         SELECT json_group_array(json(i.body) ORDER BY i.position) FROM ${items} i
         WHERE i.product_id = ${bodies}.id))`,
    );
    const staging = `${items}_narrow`;
    db.exec(`
      CREATE TABLE ${staging} (
        product_id INTEGER NOT NULL,
        position   INTEGER NOT NULL,
        uuid       TEXT    NOT NULL,
        shop_id    TEXT,
        available  INTEGER NOT NULL CHECK (available IN (0, 1)),
        PRIMARY KEY (product_id, position)
      ) STRICT, WITHOUT ROWID;
      INSERT INTO ${staging} (product_id, position, uuid, shop_id, available)
        SELECT product_id, position, uuid, shop_id, available FROM ${items}
        ORDER BY product_id, position;
      DROP TABLE ${items};
      ALTER TABLE ${staging} RENAME TO ${items};
      CREATE INDEX catalog_items_uuid_v10 ON ${items} (uuid);
      CREATE INDEX catalog_items_shop_v10 ON ${items} (shop_id, available, product_id);
    `);
    for (const table of Object.values(shadowTables)) db.exec(`DROP TABLE IF EXISTS ${table}`);
  },
};
