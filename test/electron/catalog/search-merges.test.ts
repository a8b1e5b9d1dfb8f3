import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CatalogMirror } from '../../../electron/catalog/mirror.ts';
import { shadowTables } from '../../../electron/catalog/schema.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { bareProduct } from './support.ts';
import { type KioskDatabase, openDatabase } from '../../../electron/storage/database.ts';

let dir: string;
let database: KioskDatabase;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'search-merges-'));
  database = openDatabase({ dataDir: dir, schema: kioskSchema });
});
afterEach(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** FTS5's merge settings of the shadow's search index (absent: FTS5's default). */
function merges(): Record<string, number> {
  const rows = database.connection
    .prepare(
      `SELECT k, v FROM ${shadowTables.search}_config WHERE k IN ('automerge', 'crisismerge')`,
    )
    .all() as { k: string; v: number }[];
  return Object.fromEntries(rows.map((row) => [row.k, Number(row.v)]));
}

/** Rows of the index's own storage: every segment adds at least one. */
function indexRows(): number {
  const row = database.connection
    .prepare(`SELECT count(*) AS n FROM ${shadowTables.search}_data`)
    .get() as { n: number };
  return Number(row.n);
}

it('leaves the walk its segments and merges them once when the shadow is indexed', () => {
  const mirror = new CatalogMirror(database);
  const shadow = mirror.createShadow();
  expect(merges()).toEqual({ automerge: 0, crisismerge: 1_999 });
  // Twenty pages: FTS5's defaults would have merged them on the way.
  for (let page = 0; page < 20; page += 1) {
    mirror.transaction(() => {
      for (let i = 0; i < 10; i += 1) shadow.upsertProduct(bareProduct(page * 10 + i), 1);
    });
  }
  const unmerged = indexRows();
  expect(unmerged).toBeGreaterThanOrEqual(20);

  mirror.indexShadow(1);
  expect(indexRows()).toBeLessThan(unmerged / 2);
  // The mirror it becomes merges the change feed's writes as FTS5 does by default.
  expect(merges()).toEqual({ automerge: 4, crisismerge: 16 });
  const search = shadowTables.search;
  database.connection.exec(`INSERT INTO ${search} (${search}) VALUES ('integrity-check')`);
  const found = database.connection
    .prepare(`SELECT count(*) AS n FROM ${search} WHERE ${search} MATCH '"bouil"*'`)
    .get() as { n: number };
  expect(Number(found.n)).toBe(200);
});
