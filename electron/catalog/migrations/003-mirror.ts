import type { Migration } from '../../storage/index.ts';
import { liveTables, stateTableSql } from '../schema.ts';
import { mirrorTablesV9Sql } from './layout-v9.ts';

/**
 * Shipped: never edit it. The mirror is rebuildable (the service is the truth), so a later change
 * to its tables is a new migration that drops them and lets the next start run a full sync.
 */
export const mirrorMigration: Migration = {
  version: 3,
  name: 'catalogue mirror: products, items, search index, referentials, sync state',
  // An empty live mirror (generation 0) and the state table; a full sync builds the same tables
  // under shadow names (schema.ts), then swaps them in. Its DDL is frozen in layout-v9.ts.
  up: (db) => {
    db.exec(mirrorTablesV9Sql(liveTables, 0));
    db.exec(stateTableSql);
  },
};
