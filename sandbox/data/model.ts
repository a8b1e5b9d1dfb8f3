import type { CatalogChange, CatalogProduct, ItemEntry } from '../../shared/api/catalog.ts';
import type { Credit, Customer, HistoryEntry } from '../../shared/api/customers.ts';
import type { GiftCard } from '../../shared/api/gift-cards.ts';
import type { ProductTypeRef, SupplierRef } from '../../shared/api/catalog.ts';
import type { Invoice, Sale } from '../../shared/api/sales.ts';
import type { Sav, SavLogEntry } from '../../shared/api/sav.ts';
import type {
  Category,
  Characteristic,
  CharacteristicValue,
  ProductType,
  Shop,
} from '../../shared/api/referentials.ts';
import type { CharacteristicEntry } from '../../shared/api/catalog.ts';
import type { z } from 'zod';

/**
 * The sandbox's in-memory database. Records are stored complete (every optional block present:
 * contact data, internal comments, credits used, gift-card blocks); the server leaves out what
 * the caller's scopes or `include` do not allow, and computes the derived fields
 * (availableItemsCount, stock, price ranges) from the items when it answers.
 */

/** A product as stored: the catalogue entry without its derived fields, plus the reference-only ones. */
export interface StoredProduct extends Omit<
  CatalogProduct,
  'availableItemsCount' | 'stock' | 'priceRange' | 'promotionPriceRange' | 'items'
> {
  productType: z.infer<typeof ProductTypeRef> | null;
  /** Product-level characteristics (`source: 'product'`). */
  characteristics: z.infer<typeof CharacteristicEntry>[];
  items: ItemEntry[];
}

export interface SandboxData {
  shops: Shop[];
  categories: Category[];
  productTypes: ProductType[];
  characteristics: Characteristic[];
  characteristicValues: CharacteristicValue[];
  suppliers: z.infer<typeof SupplierRef>[];
  /** Insertion order is the catalogue order (stable paging). */
  products: Map<string, StoredProduct>;
  /** Complete records, contact and internalComments included. */
  customers: Map<string, Customer>;
  /** Complete records: customer contact and creditsUsed included. */
  sales: Map<string, Sale>;
  /** By sale uuid; only sales with `hasInvoice`. */
  invoices: Map<string, Invoice>;
  /** Complete records: customer contact and deposits included. */
  sav: Map<string, Sav>;
  savLogs: Map<string, SavLogEntry[]>;
  /** By customer uuid. */
  credits: Map<string, Credit[]>;
  /** Customer orders, only ever seen through the history: by customer uuid. */
  orders: Map<string, HistoryEntry[]>;
  /** Complete records: customer, origin, usages and invoice blocks included. */
  giftCards: Map<string, GiftCard>;
  /** The change journal, ordered by `updatedAt` then insertion. */
  changes: CatalogChange[];
}

export interface SeedOptions {
  /** Deterministic: the same seed gives the same data. */
  seed: number;
  /** Number of products; the default is a demo-sized catalogue. */
  products?: number;
  /** The sandbox clock at seeding time: every timestamp is at or before it. */
  now: Date;
}
