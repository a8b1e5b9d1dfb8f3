import type { DatabaseSync } from 'node:sqlite';
import type {
  CategoryRef,
  CharacteristicEntry,
  ItemEntry,
  ShopRef,
} from '../../shared/api/catalog.ts';
import { MAX_PAGE_SIZE } from '../../shared/api/primitives.ts';
import type { Category, Characteristic, ProductType, Shop } from '../../shared/api/referentials.ts';
import type { z } from 'zod';
import type { MirrorWriter, ReferentialKind } from './mirror-writer.ts';
import type { MirrorTables } from './schema.ts';
import type { CatalogSource } from './source.ts';

export interface Referentials {
  readonly shops: readonly Shop[];
  readonly categories: readonly Category[];
  readonly characteristics: readonly Characteristic[];
  readonly productTypes: readonly ProductType[];
}

export const referentialKinds: readonly ReferentialKind[] = [
  'shops',
  'categories',
  'characteristics',
  'productTypes',
];

interface ListReply<T> {
  readonly data: readonly T[];
  readonly pagination: { readonly page: number; readonly hasNextPage: boolean };
}

async function walk<T>(
  fetchPage: (page: number) => Promise<ListReply<T>>,
  signal: AbortSignal | undefined,
): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page += 1) {
    signal?.throwIfAborted();
    const reply = await fetchPage(page);
    rows.push(...reply.data);
    // An empty page claiming a next one would loop forever.
    if (!reply.pagination.hasNextPage || reply.data.length === 0) return rows;
  }
}

/** Every row of the asked referential lists, page after page (they are small). */
export async function fetchReferentials(
  source: CatalogSource,
  kinds: readonly ReferentialKind[],
  signal?: AbortSignal,
): Promise<Partial<Referentials>> {
  const options = signal === undefined ? undefined : { signal };
  const query = (page: number) => ({ query: { page, limit: MAX_PAGE_SIZE } });
  const lists: { readonly [K in ReferentialKind]: () => Promise<Referentials[K]> } = {
    shops: () => walk((page) => source.listShops(query(page), options), signal),
    categories: () => walk((page) => source.listCategories(query(page), options), signal),
    characteristics: () => walk((page) => source.listCharacteristics(query(page), options), signal),
    productTypes: () => walk((page) => source.listProductTypes(query(page), options), signal),
  };
  const result: { -readonly [K in ReferentialKind]?: Referentials[K] } = {};
  // Generic so that each kind's rows are typed as that kind's.
  const fetchInto = async <K extends ReferentialKind>(kind: K) => {
    result[kind] = await lists[kind]();
  };
  for (const kind of kinds) await fetchInto(kind);
  return result;
}

export function writeReferentials(writer: MirrorWriter, referentials: Partial<Referentials>): void {
  for (const kind of referentialKinds) {
    const rows = referentials[kind];
    if (rows !== undefined) writer.replaceReferential(kind, rows);
  }
}

/** The referential rows in the service's order. */
export function readReferential<K extends ReferentialKind>(
  db: DatabaseSync,
  tables: MirrorTables,
  kind: K,
): Referentials[K] {
  const rows = db.prepare(`SELECT body FROM ${tables[kind]} ORDER BY position`).all() as {
    body: string;
  }[];
  return rows.map((row) => JSON.parse(row.body) as unknown) as unknown as Referentials[K];
}

/**
 * The service embeds referential labels in every product (an item's shop, a product's category,
 * characteristic entries) and relabels them all when a referential changes, without a product
 * change in the feed. So a shop, category or characteristic change is carried into the mirror's
 * embedded copies here, from the referential list just fetched. Only the embedded reference is
 * rewritten; prices, stock and availability are never touched.
 */
export function relabelEmbedded(
  db: DatabaseSync,
  tables: MirrorTables,
  change: { readonly type: 'shop' | 'category' | 'characteristic'; readonly id: string },
  referentials: Partial<Referentials>,
): number {
  switch (change.type) {
    case 'shop': {
      const shop = referentials.shops?.find((row) => row.id === change.id);
      if (shop === undefined) return 0;
      const ref: z.infer<typeof ShopRef> = {
        id: shop.id,
        name: shop.name,
        shortName: shop.shortName,
        city: shop.city,
      };
      return rewriteRows<ItemEntry>(
        db,
        `SELECT product_id AS a, position AS b, body FROM ${tables.items} WHERE shop_id = ?`,
        `UPDATE ${tables.items} SET body = ? WHERE product_id = ? AND position = ?`,
        [shop.id],
        (item) => (sameJson(item.shop, ref) ? null : { ...item, shop: ref }),
      );
    }
    case 'category': {
      const category = referentials.categories?.find((row) => row.id === change.id);
      if (category === undefined) return 0;
      const ref: z.infer<typeof CategoryRef> = {
        id: category.id,
        code: category.code,
        label: category.label,
      };
      return rewriteRows<{ category: z.infer<typeof CategoryRef> | null }>(
        db,
        `SELECT b.id AS a, NULL AS b, b.body AS body
         FROM ${tables.products} p JOIN ${tables.bodies} b ON b.id = p.id WHERE p.category_id = ?`,
        `UPDATE ${tables.bodies} SET body = ? WHERE id = ?`,
        [category.id],
        (product) => (sameJson(product.category, ref) ? null : { ...product, category: ref }),
      );
    }
    case 'characteristic': {
      const characteristic = referentials.characteristics?.find((row) => row.id === change.id);
      if (characteristic === undefined) return 0;
      type Entry = z.infer<typeof CharacteristicEntry>;
      const relabel = (entry: Entry): Entry =>
        entry.code === characteristic.code && entry.label !== characteristic.label
          ? { ...entry, label: characteristic.label }
          : entry;
      // The code is a JSON string inside the body: a LIKE narrows the rows to parse.
      return rewriteRows<ItemEntry>(
        db,
        `SELECT product_id AS a, position AS b, body FROM ${tables.items} WHERE body LIKE ?`,
        `UPDATE ${tables.items} SET body = ? WHERE product_id = ? AND position = ?`,
        [`%${JSON.stringify({ code: characteristic.code }).slice(1, -1)}%`],
        (item) => {
          const entries = item.characteristics.map(relabel);
          return entries.every((entry, index) => entry === item.characteristics[index])
            ? null
            : { ...item, characteristics: entries };
        },
      );
    }
  }
}

function rewriteRows<T>(
  db: DatabaseSync,
  selectSql: string,
  updateSql: string,
  parameters: readonly string[],
  rewrite: (row: T) => T | null,
): number {
  const rows = db.prepare(selectSql).all(...parameters) as {
    a: number | bigint;
    b: number | bigint | null;
    body: string;
  }[];
  const update = db.prepare(updateSql);
  let changed = 0;
  for (const row of rows) {
    const next = rewrite(JSON.parse(row.body) as T);
    if (next === null) continue;
    // Products are keyed by id alone, items by (product id, position).
    if (row.b === null) update.run(JSON.stringify(next), row.a);
    else update.run(JSON.stringify(next), row.a, row.b);
    changed += 1;
  }
  return changed;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
