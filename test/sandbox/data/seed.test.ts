import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import {
  CatalogChange,
  CatalogProduct,
  SupplierRef,
  availabilityStatuses,
} from '../../../shared/api/catalog.ts';
import { Credit, Customer, HistoryEntry } from '../../../shared/api/customers.ts';
import { GiftCard } from '../../../shared/api/gift-cards.ts';
import { ProductReference } from '../../../shared/api/products.ts';
import {
  Category,
  Characteristic,
  CharacteristicValue,
  ProductType,
  Shop,
} from '../../../shared/api/referentials.ts';
import { Invoice, Sale } from '../../../shared/api/sales.ts';
import { Sav, SavLogEntry } from '../../../shared/api/sav.ts';
import {
  derivedCatalogFields,
  toCatalogProduct,
} from '../../../sandbox/data/catalog-projection.ts';
import { isValidEan13 } from '../../../sandbox/data/ean.ts';
import type { SandboxData, StoredProduct } from '../../../sandbox/data/model.ts';
import { toCents } from '../../../sandbox/data/money.ts';
import {
  DEFAULT_PRODUCT_COUNT,
  ambiguousEmail,
  demoCustomers,
  demoGiftCardBalances,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
  seedData,
} from '../../../sandbox/data/seed.ts';

const now = new Date('2026-03-15T10:00:00.000Z');
const nowIso = now.toISOString();
const today = nowIso.slice(0, 10);
const data = seedData({ seed: 1, now });

/** Parses and shows zod's issues on failure (a bare `toBe(true)` would hide which record broke). */
function expectParses(schema: z.ZodType, value: unknown, what: string): void {
  const result = schema.safeParse(value);
  expect(result.error, `${what}: ${JSON.stringify(result.error?.issues)}`).toBeUndefined();
}

const products = [...data.products.values()];
const items = products.flatMap((product) => product.items);

function productReference(product: StoredProduct): ProductReference {
  const derived = derivedCatalogFields(product);
  return {
    uuid: product.uuid,
    reference: product.reference,
    ean: product.ean,
    name: product.name,
    description: product.description,
    displayedOnline: product.displayedOnline,
    quantityType: product.quantityType,
    category: product.category,
    productType: product.productType,
    priceRange: derived.priceRange,
    promotionPriceRange: derived.promotionPriceRange,
    availableItemsCount: derived.availableItemsCount,
    updatedAt: product.updatedAt,
    stock: derived.stock,
    media: product.media,
    characteristics: product.characteristics,
    items: derived.items,
  };
}

describe('determinism', () => {
  test('the same seed and now give deep-equal data', () => {
    expect(seedData({ seed: 1, now })).toEqual(data);
  });

  test('another seed gives other data, with the same well-known ids', () => {
    const other = seedData({ seed: 2, now });
    expect([...other.products.keys()]).not.toEqual([...data.products.keys()]);
    expect([...other.customers.values()].map((c) => c.createdAt)).not.toEqual(
      [...data.customers.values()].map((c) => c.createdAt),
    );
    for (const id of Object.values(demoProducts)) expect(other.products.has(id)).toBe(true);
    for (const id of Object.values(demoGiftCards)) expect(other.giftCards.has(id)).toBe(true);
  });

  test('the catalogue size changes the catalogue only, not customers or sales', () => {
    const larger = seedData({ seed: 1, now, products: 400 });
    expect(larger.products.size).toBe(400);
    expect(larger.customers).toEqual(data.customers);
    expect(larger.sales).toEqual(data.sales);
    expect(larger.giftCards).toEqual(data.giftCards);
  });

  test('small and empty catalogues seed too', () => {
    expect(seedData({ seed: 1, now, products: 0 }).products.size).toBe(0);
    expect(seedData({ seed: 1, now, products: 3 }).products.size).toBe(3);
    expect(() => seedData({ seed: 1, now, products: -1 })).toThrow(RangeError);
  });
});

describe('every stored record parses with its shared schema', () => {
  test('referentials', () => {
    expect(data.shops).toHaveLength(6);
    for (const shop of data.shops) expectParses(Shop, shop, shop.id);
    for (const category of data.categories) expectParses(Category, category, category.id);
    for (const type of data.productTypes) expectParses(ProductType, type, type.id);
    for (const characteristic of data.characteristics)
      expectParses(Characteristic, characteristic, characteristic.id);
    for (const value of data.characteristicValues)
      expectParses(CharacteristicValue, value, value.id);
    for (const supplier of data.suppliers) expectParses(SupplierRef, supplier, supplier.id);
  });

  test('catalogue projection and product reference of every product', () => {
    expect(products).toHaveLength(DEFAULT_PRODUCT_COUNT);
    for (const product of products) {
      expectParses(CatalogProduct, toCatalogProduct(product), product.uuid);
      expectParses(ProductReference, productReference(product), product.uuid);
    }
  });

  test('customers, sales, invoices, SAV cases and logs, credits, orders, gift cards, changes', () => {
    for (const customer of data.customers.values()) expectParses(Customer, customer, customer.uuid);
    for (const sale of data.sales.values()) expectParses(Sale, sale, sale.uuid);
    for (const invoice of data.invoices.values()) expectParses(Invoice, invoice, invoice.id);
    for (const sav of data.sav.values()) expectParses(Sav, sav, sav.uuid);
    for (const [id, log] of data.savLogs)
      for (const entry of log) expectParses(SavLogEntry, entry, id);
    for (const [id, credits] of data.credits)
      for (const credit of credits) expectParses(Credit, credit, id);
    for (const [id, orders] of data.orders)
      for (const order of orders) expectParses(HistoryEntry, order, id);
    for (const card of data.giftCards.values()) expectParses(GiftCard, card, card.id);
    for (const change of data.changes) expectParses(CatalogChange, change, change.id);
  });

  test('records are stored complete: every optional block is present', () => {
    for (const customer of data.customers.values()) {
      expect(customer.contact).toBeDefined();
      expect(customer.internalComments).not.toBeUndefined();
    }
    for (const sale of data.sales.values()) expect(sale.creditsUsed).toBeDefined();
    for (const sav of data.sav.values()) expect(sav.deposits).toBeDefined();
    for (const card of data.giftCards.values()) {
      expect(card.customer).not.toBeUndefined();
      expect(card.origin).toBeDefined();
      expect(card.usages).toBeDefined();
      expect(card.invoice).not.toBeUndefined();
    }
    expect(products.some((p) => p.productType !== null && p.characteristics.length > 0)).toBe(true);
  });
});

describe('catalogue', () => {
  test('all six availability statuses, with availability consistent with status and quantity', () => {
    expect(new Set(items.map((item) => item.availability.status))).toEqual(
      new Set(availabilityStatuses),
    );
    for (const item of items) {
      const { status, available, reason } = item.availability;
      expect(available).toBe(status === 'available' && item.quantity !== null && item.quantity > 0);
      if (status === 'available') expect(reason).toBeNull();
      else expect(reason).toEqual(expect.any(String));
    }
  });

  test('the demo products show the trait they are named for', () => {
    const get = (id: string) => {
      const product = data.products.get(id);
      if (product === undefined) throw new Error(`missing ${id}`);
      return product;
    };
    const everywhere = get(demoProducts.availableEverywhere);
    expect(new Set(everywhere.items.map((item) => item.shop?.id))).toEqual(
      new Set(data.shops.map((s) => s.id)),
    );
    expect(everywhere.items.every((item) => item.availability.available)).toBe(true);
    expect(everywhere.displayedOnline).toBe(true);
    expect(get(demoProducts.outOfStock).items[0]?.availability.status).toBe('out_of_stock');
    expect(get(demoProducts.sold).items[0]?.availability.status).toBe('sold');
    expect(get(demoProducts.reserved).items[0]?.availability.status).toBe('reserved');
    expect(get(demoProducts.withdrawn).items[0]?.availability.status).toBe('withdrawn');
    expect(get(demoProducts.unsalable).items[0]?.availability.status).toBe('unsalable');
    expect(get(demoProducts.hidden).displayedOnline).toBe(false);
    expect(get(demoProducts.withoutName).name).toBeNull();
    expect(get(demoProducts.withoutDescription).description).toBeNull();
    expect(get(demoProducts.withoutCategory).category).toBeNull();
    expect(derivedCatalogFields(get(demoProducts.unpriced)).priceRange).toBeNull();
    const promoted = get(demoProducts.promoted);
    expect(promoted.items.every((item) => item.promotionPrice !== null)).toBe(true);
    expect(promoted.name).toMatch(/glaçons/);
    expect(get(demoProducts.warehouseItem).items.some((item) => item.shop === null)).toBe(true);
  });

  test('prices: 20% VAT to the cent, promotions strictly lower, null promotion otherwise', () => {
    let promotions = 0;
    for (const item of items) {
      const { inclTax, exclTax } = item.price;
      if (inclTax === null) {
        expect(exclTax).toBeNull();
        expect(item.promotionPrice).toBeNull();
        continue;
      }
      expect(toCents(exclTax ?? NaN)).toBe(Math.round((toCents(inclTax) * 100) / 120));
      expect(Number.isInteger(toCents(inclTax) * 1)).toBe(true);
      if (item.promotionPrice !== null) {
        promotions += 1;
        expect(item.promotionPrice.inclTax).toBeLessThan(inclTax);
        expect(item.promotionPrice.exclTax).toBeLessThan(exclTax ?? NaN);
      }
    }
    expect(promotions).toBeGreaterThan(10);
  });

  test('EAN-13 check digits are valid and codes unique; some nullable fields are null', () => {
    const eans = products.map((p) => p.ean).filter((ean): ean is string => ean !== null);
    expect(eans.length).toBeGreaterThan(products.length * 0.9);
    expect(eans.every(isValidEan13)).toBe(true);
    expect(new Set(eans).size).toBe(eans.length);
    expect(products.some((p) => p.name === null)).toBe(true);
    expect(products.some((p) => p.description === null)).toBe(true);
    expect(products.some((p) => p.category === null)).toBe(true);
    expect(products.filter((p) => !p.displayedOnline).length).toBeGreaterThan(1);
  });

  test('media: images on the example CDN, exactly one main image per product', () => {
    for (const product of products) {
      expect(product.media.filter((m) => m.isMain)).toHaveLength(1);
      for (const media of product.media)
        expect(media.url).toMatch(/^https:\/\/cdn\.example\.test\/.+\.jpg$/);
    }
  });

  test('identifiers carry their prefix and are unique', () => {
    expect(products.every((p) => p.uuid.startsWith('prod_'))).toBe(true);
    expect(items.every((i) => i.uuid.startsWith('item_'))).toBe(true);
    expect(new Set(items.map((i) => i.uuid)).size).toBe(items.length);
    expect(data.shops.every((s) => s.id.startsWith('shop_'))).toBe(true);
    expect(data.characteristics.every((c) => c.id.startsWith('char_'))).toBe(true);
    expect(new Set(data.characteristicValues.map((v) => v.id)).size).toBe(
      data.characteristicValues.length,
    );
    const categoryIds = new Set(data.categories.map((c) => c.id));
    for (const category of data.categories)
      if (category.parentId !== null) expect(categoryIds.has(category.parentId)).toBe(true);
  });

  test('French names with accents, including é, è and ç', () => {
    const names = products.map((p) => p.name ?? '').join(' ');
    expect(names).toMatch(/é/);
    expect(names).toMatch(/è/);
    expect(names).toMatch(/ç/);
  });
});

describe('customers', () => {
  test('the ambiguous e-mail belongs to exactly two different customers', () => {
    const owners = [...data.customers.values()].filter(
      (c) => c.contact?.email === ambiguousEmail.email,
    );
    expect(owners.map((c) => c.uuid).sort()).toEqual([...ambiguousEmail.customerIds].sort());
    expect(new Set(owners.map((c) => c.firstName)).size).toBe(2);
  });

  test('contact data, internal comments, both customer types and the demo customers', () => {
    const customers = [...data.customers.values()];
    for (const id of Object.values(demoCustomers)) expect(data.customers.has(id)).toBe(true);
    expect(customers.every((c) => c.uuid.startsWith('customer_'))).toBe(true);
    expect(customers.some((c) => c.typeCustomer === 'company')).toBe(true);
    expect(customers.filter((c) => c.internalComments !== null).length).toBeGreaterThan(3);
    for (const c of customers)
      if (c.contact?.phone) expect(c.contact.phone).toMatch(/^\+33 [67]( \d{2}){4}$/);
    const bare = data.customers.get(demoCustomers.withoutContact);
    expect(bare?.contact).toEqual({
      email: null,
      phone: null,
      address: null,
      postalCode: null,
      city: null,
    });
    expect(bare?.communication).toBe('none');
  });
});

describe('sales and invoices', () => {
  const sales = [...data.sales.values()];

  test('totals are consistent to the cent and paid + remaining = total', () => {
    for (const sale of sales) {
      const { exclTax, vat, inclTax } = sale.totals;
      expect(toCents(exclTax) + toCents(vat)).toBe(toCents(inclTax));
      expect(sale.lines.reduce((sum, line) => sum + toCents(line.totalInclTax), 0)).toBe(
        toCents(inclTax),
      );
      for (const line of sale.lines)
        expect(toCents(line.totalInclTax)).toBe(toCents(line.unitPriceInclTax) * line.quantity);
      if (sale.status !== 'cancelled')
        expect(toCents(sale.amountPaid) + toCents(sale.remainingToPay)).toBe(toCents(inclTax));
      const credits = (sale.creditsUsed ?? []).reduce(
        (sum, credit) => sum + toCents(credit.amount),
        0,
      );
      expect(credits).toBeLessThanOrEqual(toCents(sale.amountPaid));
    }
  });

  test('numbers, invoices and links', () => {
    expect(new Set(sales.map((s) => s.number)).size).toBe(sales.length);
    for (const sale of sales) {
      expect(sale.uuid).toMatch(/^sale_/);
      expect(sale.number).toMatch(/^V-\d{4}-\d{6}$/);
      expect(data.invoices.has(sale.uuid)).toBe(sale.hasInvoice);
      if (sale.customer !== null) expect(data.customers.has(sale.customer.uuid)).toBe(true);
      if (sale.shopId !== null) expect(data.shops.some((s) => s.id === sale.shopId)).toBe(true);
    }
    for (const [saleId, invoice] of data.invoices) {
      expect(invoice.saleId).toBe(saleId);
      expect(invoice.id).toMatch(/^inv_/);
      expect(invoice.number).toMatch(/^F-\d{4}-\d{6}$/);
      expect(invoice.fileName).toBe(`${invoice.number}.pdf`);
      expect(invoice.totalInclTax).toBe(data.sales.get(saleId)?.totals.inclTax);
    }
    expect(sales.some((s) => s.remainingToPay > 0)).toBe(true);
    expect(sales.some((s) => (s.creditsUsed ?? []).length > 0)).toBe(true);
  });

  test('the demo sales keep their promises', () => {
    expect(data.sales.get(demoSales.withInvoice)?.hasInvoice).toBe(true);
    expect(data.sales.get(demoSales.withInvoice)?.customer?.uuid).toBe(demoCustomers.main);
    const withCredits = data.sales.get(demoSales.withCredits);
    expect(withCredits?.hasInvoice).toBe(true);
    expect(new Set(withCredits?.creditsUsed?.map((c) => c.type))).toEqual(
      new Set(['credit_note', 'gift_card']),
    );
    expect(data.sales.get(demoSales.partiallyPaid)?.remainingToPay).toBeGreaterThan(0);
    expect(data.sales.get(demoSales.anonymous)?.customer).toBeNull();
    expect(data.sales.get(demoSales.giftCardPurchase)?.lines[0]?.reference).toBe('CARTE-CADEAU');
  });

  test('credits used name a credit of the sale customer, or a gift card', () => {
    for (const sale of sales) {
      for (const used of sale.creditsUsed ?? []) {
        if (used.type === 'gift_card') {
          expect(
            data.giftCards.get(used.creditId)?.usages?.some((u) => u.saleId === sale.uuid),
          ).toBe(true);
        } else {
          const credits = data.credits.get(sale.customer?.uuid ?? '') ?? [];
          expect(credits.some((c) => c.id === used.creditId && c.type === 'credit_note')).toBe(
            true,
          );
        }
      }
    }
  });
});

describe('gift cards', () => {
  test('the demo cards have the promised states and balances', () => {
    const card = (id: string) => data.giftCards.get(id);
    expect(card(demoGiftCards.active)).toMatchObject({
      status: 'active',
      balance: demoGiftCardBalances.active,
    });
    expect((card(demoGiftCards.active)?.expiresOn ?? '') > today).toBe(true);
    expect(card(demoGiftCards.active)?.customer?.uuid).toBe(demoCustomers.main);
    expect(card(demoGiftCards.active)?.invoice).not.toBeNull();
    expect(card(demoGiftCards.lowBalance)).toMatchObject({
      status: 'active',
      balance: demoGiftCardBalances.lowBalance,
    });
    expect(card(demoGiftCards.lowBalance)?.customer).toBeNull();
    expect(card(demoGiftCards.inactive)).toMatchObject({
      status: 'inactive',
      balance: demoGiftCardBalances.inactive,
    });
    expect(card(demoGiftCards.expired)).toMatchObject({
      status: 'expired',
      balance: demoGiftCardBalances.expired,
    });
    expect((card(demoGiftCards.expired)?.expiresOn ?? '') < today).toBe(true);
  });

  test('balance = initial amount - usages; masked numbers; usage references', () => {
    for (const card of data.giftCards.values()) {
      expect(card.id).toMatch(/^gift_card_/);
      expect(card.maskedNumber).toMatch(/^\*{4} \*{4} \*{4} \d{4}$/);
      const used = (card.usages ?? []).reduce((sum, usage) => sum + toCents(usage.amount), 0);
      expect(toCents(card.balance)).toBe(toCents(card.initialAmount) - used);
      expect(card.balance).toBeGreaterThanOrEqual(0);
      for (const usage of card.usages ?? []) {
        expect(usage.at <= nowIso).toBe(true);
        if (usage.saleId !== null)
          expect(usage.reference).toBe(data.sales.get(usage.saleId)?.number);
        else expect(usage.reference).toMatch(/^KIOSK-/);
      }
      if (card.invoice) expect(data.invoices.get(card.invoice.saleId)?.id).toBe(card.invoice.id);
      if (card.status === 'expired') expect((card.expiresOn ?? '') < today).toBe(true);
    }
  });

  test('cards held by a customer are among the customer credits, with the card id', () => {
    for (const card of data.giftCards.values()) {
      if (!card.customer) continue;
      const credit = data.credits.get(card.customer.uuid)?.find((c) => c.id === card.id);
      expect(credit).toMatchObject({
        type: 'gift_card',
        giftCardId: card.id,
        remainingAmount: card.balance,
      });
    }
    const kinds = new Set([...data.credits.values()].flat().map((c) => c.type));
    expect(kinds).toEqual(new Set(['credit_note', 'gift_card']));
  });
});

describe('SAV cases', () => {
  test('logs are ordered, start open and end at the case status', () => {
    for (const sav of data.sav.values()) {
      const log = data.savLogs.get(sav.uuid) ?? [];
      expect(log.length).toBeGreaterThan(0);
      expect(log[0]?.status).toBe('open');
      expect(log.at(-1)?.status).toBe(sav.status);
      expect(log.at(-1)?.at).toBe(sav.updatedAt);
      expect(log[0]?.at).toBe(sav.createdAt);
      for (let i = 1; i < log.length; i++)
        expect((log[i]?.at ?? '') >= (log[i - 1]?.at ?? '')).toBe(true);
      expect(sav.number).toMatch(/^SAV-\d{4}-\d{5}$/);
      if (sav.saleId !== null)
        expect((data.sales.get(sav.saleId)?.date ?? '') < sav.createdAt).toBe(true);
    }
    expect(data.sav.get(demoSav.inRepair)?.status).toBe('in_repair');
    expect(data.sav.get(demoSav.inRepair)?.deposits?.length).toBeGreaterThan(0);
    expect(data.sav.get(demoSav.ready)?.status).toBe('ready');
    expect(data.sav.get(demoSav.closed)?.status).toBe('closed');
    expect(data.sav.get(demoSav.open)?.status).toBe('open');
  });
});

describe('time', () => {
  function timestamps(d: SandboxData): string[] {
    const out: string[] = [];
    for (const p of d.products.values()) {
      if (p.updatedAt) out.push(p.updatedAt);
      for (const item of p.items) if (item.updatedAt) out.push(item.updatedAt);
    }
    for (const c of d.customers.values()) out.push(c.createdAt, c.updatedAt);
    for (const s of d.sales.values()) out.push(s.date);
    for (const i of d.invoices.values()) out.push(i.issuedAt);
    for (const s of d.sav.values()) out.push(s.createdAt, s.updatedAt);
    for (const log of d.savLogs.values()) for (const e of log) out.push(e.at);
    for (const credits of d.credits.values()) for (const c of credits) out.push(c.createdAt);
    for (const orders of d.orders.values()) for (const o of orders) out.push(o.date);
    for (const g of d.giftCards.values()) out.push(g.createdAt);
    for (const c of d.changes) out.push(c.updatedAt);
    return out;
  }

  test('nothing is dated after now', () => {
    const all = timestamps(data);
    expect(all.length).toBeGreaterThan(1000);
    for (const at of all) expect(at <= nowIso, at).toBe(true);
  });

  test('the change journal is ordered, recent, and agrees with the records', () => {
    const changes = data.changes;
    expect(changes.length).toBeGreaterThan(20);
    for (let i = 1; i < changes.length; i++) {
      expect(Date.parse(changes[i]?.updatedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(changes[i - 1]?.updatedAt ?? ''),
      );
    }
    expect(new Set(changes.map((c) => c.action))).toEqual(
      new Set([
        'created',
        'deleted',
        'updated',
        'price_updated',
        'stock_updated',
        'visibility_updated',
        'media_updated',
      ]),
    );
    for (const change of changes) {
      if (change.action === 'deleted' || change.action === 'created') continue;
      const product = data.products.get(
        change.type === 'product' ? change.id : (change.productId ?? ''),
      );
      expect(product, change.id).toBeDefined();
      expect((product?.updatedAt ?? '') >= change.updatedAt).toBe(true);
    }
  });
});

describe('large catalogues', () => {
  test('20 000 products: sizes, unique ids and EANs, the same customers', () => {
    const large = seedData({ seed: 1, now, products: 20_000 });
    expect(large.products.size).toBe(20_000);
    const eans = [...large.products.values()].map((p) => p.ean).filter((e) => e !== null);
    expect(new Set(eans).size).toBe(eans.length);
    expect(large.customers).toEqual(data.customers);
  });
});
