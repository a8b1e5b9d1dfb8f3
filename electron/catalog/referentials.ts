import type { DatabaseSync } from 'node:sqlite';
import type {
  CatalogProduct,
  CategoryRef,
  CharacteristicEntry,
  ShopRef,
} from '../../shared/api/catalog.ts';
import type { NotShownList, NotShownRecord } from '../../shared/api/not-shown.ts';
import type { OperationName } from '../../shared/api/operations.ts';
import { MAX_PAGE_SIZE } from '../../shared/api/primitives.ts';
import {
  type IntegrationProfile,
  hasNextPageOf,
  pagingQuery,
  viewOf,
} from '../../shared/profile/index.ts';
import type { z } from 'zod';
import type { MirrorWriter, ReferentialKind } from './mirror-writer.ts';
import type { MirrorTables } from './schema.ts';
import type { CatalogSource } from './source.ts';

/**
 * The referential lists (shops, categories, characteristics, product types): their records are
 * 'not shown' in the spec, so each row is kept exactly as the service returned it (its `id`
 * checked by the client) and read through the integration profile where the kiosk uses a value.
 */
export type ReferentialRow = NotShownRecord<'id'>;
export type Referentials = { readonly [K in ReferentialKind]: readonly ReferentialRow[] };

export const referentialKinds: readonly ReferentialKind[] = [
  'shops',
  'categories',
  'characteristics',
  'productTypes',
];

/** More rows than any shop network has: a service that never says "last page" stops here. */
const MAX_REFERENTIAL_PAGES = 200;

async function walk(
  profile: IntegrationProfile,
  operationId: OperationName,
  fetchPage: (query: Record<string, number>) => Promise<NotShownList<'id'>>,
  signal: AbortSignal | undefined,
): Promise<ReferentialRow[]> {
  const rows: ReferentialRow[] = [];
  for (let page = 1; ; page += 1) {
    signal?.throwIfAborted();
    const query = pagingQuery(profile, operationId, { page, limit: MAX_PAGE_SIZE });
    const reply = await fetchPage(query);
    rows.push(...reply.data);
    // Without a page parameter the first reply is all there is; an empty page claiming a next
    // one would loop forever.
    const paged = profile.parameters.page !== null && profile.parameters.page in query;
    if (!paged || !hasNextPageOf(reply) || reply.data.length === 0) return rows;
    if (page >= MAX_REFERENTIAL_PAGES) return rows;
  }
}

/** Every row of the asked referential lists, page after page (they are small). */
export async function fetchReferentials(
  source: CatalogSource,
  kinds: readonly ReferentialKind[],
  profile: IntegrationProfile,
  signal?: AbortSignal,
): Promise<Partial<Referentials>> {
  const options = signal === undefined ? undefined : { signal };
  const lists: { readonly [K in ReferentialKind]: () => Promise<ReferentialRow[]> } = {
    shops: () =>
      walk(profile, 'listShops', (query) => source.listShops({ query }, options), signal),
    categories: () =>
      walk(profile, 'listCategories', (query) => source.listCategories({ query }, options), signal),
    characteristics: () =>
      walk(
        profile,
        'listCharacteristics',
        (query) => source.listCharacteristics({ query }, options),
        signal,
      ),
    productTypes: () =>
      walk(
        profile,
        'listProductTypes',
        (query) => source.listProductTypes({ query }, options),
        signal,
      ),
  };
  const result: { -readonly [K in ReferentialKind]?: ReferentialRow[] } = {};
  for (const kind of kinds) result[kind] = await lists[kind]();
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
  return rows.map((row) => JSON.parse(row.body) as ReferentialRow);
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
  profile: IntegrationProfile,
): number {
  switch (change.type) {
    case 'shop': {
      const row = referentials.shops?.find((candidate) => candidate.id === change.id);
      if (row === undefined) return 0;
      const shop = viewOf(profile, 'shop', row);
      const ref: z.infer<typeof ShopRef> = {
        id: row.id,
        name: shop.name,
        shortName: shop.shortName,
        city: shop.city,
      };
      return rewriteEntries(
        db,
        tables,
        `id IN (SELECT product_id FROM ${tables.items} WHERE shop_id = ?)`,
        [row.id],
        (product) => {
          const items = product.items.map((item) =>
            item.shop?.id === ref.id && !sameJson(item.shop, ref) ? { ...item, shop: ref } : item,
          );
          return items.every((item, index) => item === product.items[index])
            ? null
            : { ...product, items };
        },
      );
    }
    case 'category': {
      const row = referentials.categories?.find((candidate) => candidate.id === change.id);
      if (row === undefined) return 0;
      const category = viewOf(profile, 'category', row);
      const ref: z.infer<typeof CategoryRef> = {
        id: row.id,
        code: category.code,
        label: category.label,
      };
      return rewriteEntries(
        db,
        tables,
        `id IN (SELECT id FROM ${tables.products} WHERE category_id = ?)`,
        [row.id],
        (product) => (sameJson(product.category, ref) ? null : { ...product, category: ref }),
      );
    }
    case 'characteristic': {
      const row = referentials.characteristics?.find((candidate) => candidate.id === change.id);
      if (row === undefined) return 0;
      const characteristic = viewOf(profile, 'characteristic', row);
      // Embedded entries are matched by code and carry a label: without both, nothing to carry.
      const { code, label } = characteristic;
      if (code === null || label === null) return 0;
      type Entry = z.infer<typeof CharacteristicEntry>;
      const relabel = (entry: Entry): Entry =>
        entry.code === code && entry.label !== label ? { ...entry, label } : entry;
      // The code is a JSON string inside the body: a LIKE narrows the rows to parse.
      return rewriteEntries(
        db,
        tables,
        'body LIKE ?',
        [`%${JSON.stringify({ code }).slice(1, -1)}%`],
        (product) => {
          let changed = false;
          const items = product.items.map((item) => {
            const entries = item.characteristics.map(relabel);
            if (entries.every((entry, index) => entry === item.characteristics[index])) return item;
            changed = true;
            return { ...item, characteristics: entries };
          });
          return changed ? { ...product, items } : null;
        },
      );
    }
  }
}

/** Rewrites the stored entries the condition selects; returns how many changed. */
function rewriteEntries(
  db: DatabaseSync,
  tables: MirrorTables,
  where: string,
  parameters: readonly string[],
  rewrite: (product: CatalogProduct) => CatalogProduct | null,
): number {
  const rows = db
    .prepare(`SELECT id, body FROM ${tables.bodies} WHERE ${where}`)
    .all(...parameters) as { id: number | bigint; body: string }[];
  const update = db.prepare(`UPDATE ${tables.bodies} SET body = ? WHERE id = ?`);
  let changed = 0;
  for (const row of rows) {
    const next = rewrite(JSON.parse(row.body) as CatalogProduct);
    if (next === null) continue;
    update.run(JSON.stringify(next), row.id);
    changed += 1;
  }
  return changed;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
