import type { z } from 'zod';
import type {
  CategoryRef,
  CharacteristicEntry,
  ProductTypeRef,
  ShopRef,
  SupplierRef,
} from '../../shared/api/catalog.ts';
import type { Shop } from '../../shared/api/referentials.ts';
import type { SandboxData } from './model.ts';
import type { CharacteristicCode } from './referentials.ts';

/**
 * The references a product embeds (shop, category, type, supplier, characteristic entries), built
 * once from the current referentials and shared by every product made with the same context.
 * Sharing is what keeps a 100k-product catalogue small; it is safe because catalogue sub-objects
 * are replaced, never edited in place (see activity.ts).
 */
export interface CatalogContext {
  shops: readonly Shop[];
  shopRef(shop: Shop): z.infer<typeof ShopRef>;
  categoryRef(id: string): z.infer<typeof CategoryRef> | null;
  productTypeRef(id: string): z.infer<typeof ProductTypeRef> | null;
  supplierRef(id: string): z.infer<typeof SupplierRef> | null;
  entry(code: CharacteristicCode, value: string): z.infer<typeof CharacteristicEntry>;
}

export type ReferentialData = Pick<
  SandboxData,
  'shops' | 'categories' | 'productTypes' | 'characteristics' | 'suppliers'
>;

export function shopRefOf(shop: Shop): z.infer<typeof ShopRef> {
  return { id: shop.id, name: shop.name, shortName: shop.shortName, city: shop.city };
}

export function createCatalogContext(data: ReferentialData): CatalogContext {
  const shopRefs = new Map(data.shops.map((shop) => [shop.id, shopRefOf(shop)]));
  const categoryRefs = new Map(
    data.categories.map((c) => [c.id, { id: c.id, code: c.code, label: c.label }]),
  );
  const typeRefs = new Map(
    data.productTypes.map((t) => [t.id, { id: t.id, code: t.code, label: t.label }]),
  );
  const supplierRefs = new Map(data.suppliers.map((s) => [s.id, { ...s }]));
  const characteristics = new Map(data.characteristics.map((c) => [c.code, c]));
  // Nested by code then value: no key string to build on the hot path.
  const entries = new Map<string, Map<string, z.infer<typeof CharacteristicEntry>>>();

  return {
    shops: data.shops,
    shopRef(shop) {
      return shopRefs.get(shop.id) ?? shopRefOf(shop);
    },
    categoryRef: (id) => categoryRefs.get(id) ?? null,
    productTypeRef: (id) => typeRefs.get(id) ?? null,
    supplierRef: (id) => supplierRefs.get(id) ?? null,
    entry(code, value) {
      let byValue = entries.get(code);
      if (byValue === undefined) {
        byValue = new Map();
        entries.set(code, byValue);
      }
      let entry = byValue.get(value);
      if (entry === undefined) {
        const characteristic = characteristics.get(code);
        if (characteristic === undefined) throw new Error(`unknown characteristic ${code}`);
        entry = { code, label: characteristic.label, value, source: characteristic.source };
        byValue.set(value, entry);
      }
      return entry;
    },
  };
}
