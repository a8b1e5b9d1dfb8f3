import type { Migration } from '../migration-runner.ts';

/** Shipped: never edit it, add a later migration instead (kiosks in the field have run it). */
export const commitCountMigration: Migration = {
  version: 12,
  name: 'storage: the count of durable commits, checked against the commit marker at open',
  up: (db) => {
    // One row: how many durable commits the database holds (commit-count.ts). It lives in the
    // database so that a lost write-ahead log takes it back with the commits it lost; the commit
    // marker beside the file (commit-marker.ts) says how many were acknowledged.
    db.exec(`
        CREATE TABLE storage_commits (
          id      INTEGER PRIMARY KEY CHECK (id = 1),
          commits INTEGER NOT NULL CHECK (commits >= 0)
        ) STRICT;
        INSERT INTO storage_commits (id, commits) VALUES (1, 0);
      `);
  },
};
