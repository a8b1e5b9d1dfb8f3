import { describe, expect, it } from 'vitest';
import {
  ApiError,
  AvailabilityStatus,
  CatalogChange,
  CatalogChangesQuery,
  CatalogChangesReply,
  CatalogPagination,
  CatalogProduct,
  CatalogProductsQuery,
  CatalogProductsReply,
  ChangesPagination,
  CustomerReplacement,
  CustomerSearchQuery,
  GiftCardDebit,
  IdempotencyKeyHeader,
  ItemEntry,
  ProductReference,
  ProductsPagination,
  ProductsQuery,
  availabilityStatuses,
  errorBody,
  operations,
  parseErrorMessage,
} from '../../../shared/api/index.ts';
import { catalogPage, item, product } from './fixtures.ts';

const ok = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(true);
const refused = (schema: { safeParse(v: unknown): { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);

describe('closed shapes (additionalProperties: false)', () => {
  it('accepts the catalogue entry and refuses an unknown member at every closed level', () => {
    ok(CatalogProduct, product());
    refused(CatalogProduct, { ...product(), extra: 1 });
    refused(CatalogProduct, { ...product(), items: [{ ...item(), extra: 1 }] });
    refused(CatalogProduct, {
      ...product(),
      stock: { available: true, totalQuantity: 1, extra: 1 },
    });
  });

  it('refuses a catalogue reply or change-feed reply with an extra member', () => {
    const reply = catalogPage([product()], 50);
    ok(CatalogProductsReply, reply);
    refused(CatalogProductsReply, { ...reply, extra: true });
    const changes = {
      since: '2026-11-20T00:00:00Z',
      until: '2026-11-21T00:00:00Z',
      changes: [],
      pagination: { page: 1, limit: 100, total: 0, hasNextPage: false },
    };
    ok(CatalogChangesReply, changes);
    refused(CatalogChangesReply, { ...changes, next: 'x' });
  });

  it('keeps the error object open and the debit body closed', () => {
    ok(ApiError, { message: 'CONFLICT: x', extra: { any: 'thing' } });
    refused(GiftCardDebit, { amount: 5, currency: 'EUR', note: 'x' });
  });
});

describe('required, nullable and optional', () => {
  it('requires every catalogue field, and accepts null only where the spec says nullable', () => {
    const { ean: _ean, ...withoutEan } = product();
    refused(CatalogProduct, withoutEan);
    ok(CatalogProduct, {
      ...product(),
      ean: null,
      name: null,
      category: null,
      supplier: null,
      priceRange: null,
      updatedAt: null,
    });
    refused(CatalogProduct, { ...product(), displayedOnline: null });
    refused(CatalogProduct, { ...product(), media: null });
    ok(ItemEntry, {
      ...item(),
      quantity: null,
      shop: null,
      inStockDate: null,
      promotionPrice: null,
    });
    refused(ItemEntry, { ...item(), availability: null });
  });

  it('treats the product reference inclusions as optional and its base fields as required', () => {
    const { items: _items, stock: _stock, media: _media, supplier: _supplier, ...base } = product();
    const reference = { ...base, productType: null };
    ok(ProductReference, reference);
    ok(ProductReference, { ...reference, stock: product().stock, media: [] });
    const { productType: _productType, ...withoutType } = reference;
    refused(ProductReference, withoutType);
  });
});

describe('enumerations', () => {
  it('has the six availability statuses and nothing else', () => {
    expect(availabilityStatuses).toHaveLength(6);
    for (const status of availabilityStatuses) ok(AvailabilityStatus, status);
    refused(AvailabilityStatus, 'in_stock');
  });

  it('accepts the change types and actions of the spec only', () => {
    const change = {
      type: 'product-item',
      id: 'item_1',
      productId: 'prod_1',
      action: 'price_updated',
      updatedAt: '2026-11-21T08:00:00Z',
    };
    ok(CatalogChange, change);
    ok(CatalogChange, { ...change, productId: undefined, type: 'shop', action: 'deleted' });
    refused(CatalogChange, { ...change, type: 'products' });
    refused(CatalogChange, { ...change, action: 'renamed' });
  });

  it('accepts media type image and currency EUR only', () => {
    ok(CatalogProduct, product());
    refused(CatalogProduct, { ...product(), media: [{ type: 'video', url: 'u', isMain: true }] });
    refused(CatalogProduct, {
      ...product(),
      priceRange: { minInclTax: 1, maxInclTax: 2, currency: 'USD' },
    });
    refused(GiftCardDebit, { amount: 5, currency: 'USD' });
  });
});

describe('query ranges and defaults', () => {
  it('applies the per-route limit defaults: 100 for the change feed, 50 for the other two', () => {
    expect(CatalogChangesQuery.parse({ since: '2026-11-20T00:00:00Z' }).limit).toBe(100);
    expect(CatalogProductsQuery.parse({}).limit).toBe(50);
    expect(ProductsQuery.parse({}).limit).toBe(50);
    expect(ProductsQuery.parse({}).page).toBe(1);
    expect(CatalogProductsQuery.parse({})).toMatchObject({
      availableOnly: false,
      displayedOnline: true,
    });
  });

  it('accepts page >= 1 and limit 1..500, from strings as on the wire', () => {
    ok(ProductsQuery, { page: '1', limit: '500' });
    ok(ProductsQuery, { page: 7, limit: 1 });
    refused(ProductsQuery, { page: '0' });
    refused(ProductsQuery, { limit: '501' });
    refused(ProductsQuery, { limit: '0' });
    refused(ProductsQuery, { page: '1.5' });
    refused(ProductsQuery, { page: 'two' });
  });

  it('accepts booleans as true/false only', () => {
    expect(ProductsQuery.parse({ availableOnly: 'true' }).availableOnly).toBe(true);
    expect(ProductsQuery.parse({ displayedOnline: 'false' }).displayedOnline).toBe(false);
    refused(ProductsQuery, { availableOnly: 'yes' });
    refused(ProductsQuery, { availableOnly: '1' });
  });

  it('bounds search to 1..300 characters and identifier filters to 1..64', () => {
    ok(ProductsQuery, { search: 'a'.repeat(300), shopId: 's'.repeat(64) });
    refused(ProductsQuery, { search: '' });
    refused(ProductsQuery, { search: 'a'.repeat(301) });
    refused(ProductsQuery, { categoryId: '' });
    refused(ProductsQuery, { supplierId: 's'.repeat(65) });
    refused(CatalogChangesQuery, { since: '2026-11-20T00:00:00Z', shopId: 's'.repeat(65) });
  });

  it('refuses unknown query parameters', () => {
    refused(ProductsQuery, { foo: 'bar' });
    refused(CatalogProductsQuery, { shopId: 'shop_lyon' });
    refused(CatalogChangesQuery, { since: '2026-11-20T00:00:00Z', cursor: 'x' });
  });
});

describe('comma lists without spaces', () => {
  it('accepts enumerated values joined by commas', () => {
    ok(ProductsQuery, { include: 'stock' });
    ok(ProductsQuery, { include: 'characteristics,media,stock,prices' });
    ok(CatalogChangesQuery, {
      since: '2026-11-20T00:00:00Z',
      types: 'products,product-items,shops',
    });
  });

  it('refuses spaces, empty elements and unknown values', () => {
    refused(ProductsQuery, { include: 'stock, media' });
    refused(ProductsQuery, { include: 'stock,' });
    refused(ProductsQuery, { include: ',stock' });
    refused(ProductsQuery, { include: 'items' });
    refused(CatalogChangesQuery, { since: '2026-11-20T00:00:00Z', types: 'product' });
  });

  it('lets the product detail include items, unlike the list', () => {
    const detail = operations.getProduct.query;
    ok(detail, { include: 'items,stock' });
    refused(detail, { include: 'items stock' });
  });
});

describe('dates', () => {
  it('takes ISO 8601 date-times with Z or an offset where a date-time is expected', () => {
    ok(CatalogChangesQuery, { since: '2026-11-20T00:00:00Z' });
    ok(CatalogChangesQuery, { since: '2026-11-20T00:00:00.123+01:00' });
    refused(CatalogChangesQuery, { since: '2026-11-20' });
    refused(CatalogChangesQuery, { since: '20/11/2026' });
    refused(CatalogChangesQuery, {});
  });

  it('takes YYYY-MM-DD where a date-only value is expected', () => {
    const credit = operations.listCustomerCredits.reply.json.shape.data.element;
    const value = {
      id: 'credit_1',
      type: 'credit_note',
      label: 'Avoir',
      initialAmount: 20,
      remainingAmount: 5,
      currency: 'EUR',
      status: 'active',
      createdAt: '2026-01-01T10:00:00Z',
      expiresOn: '2027-01-01',
      giftCardId: null,
    };
    ok(credit, value);
    refused(credit, { ...value, expiresOn: '2027-01-01T00:00:00Z' });
  });
});

describe('pagination variants', () => {
  const catalog = {
    page: 1,
    limit: 50,
    count: 50,
    total: 120,
    totalPages: 3,
    hasNextPage: true,
    hasPreviousPage: false,
    nextPage: 2,
    previousPage: null,
  };

  it('requires all nine catalogue fields and nothing more', () => {
    ok(CatalogPagination, catalog);
    const { nextPage: _nextPage, ...missing } = catalog;
    refused(CatalogPagination, missing);
    refused(CatalogPagination, { ...catalog, cursor: 'x' });
  });

  it('requires at least six fields on the products list, tolerating more', () => {
    const products = { page: 1, limit: 50, count: 0, total: 0, totalPages: 0, hasNextPage: false };
    ok(ProductsPagination, products);
    ok(ProductsPagination, { ...products, hasPreviousPage: false });
    const { totalPages: _totalPages, ...missing } = products;
    refused(ProductsPagination, missing);
  });

  it('has exactly page, limit, total, hasNextPage on the change feed', () => {
    ok(ChangesPagination, { page: 1, limit: 100, total: 0, hasNextPage: false });
    refused(ChangesPagination, { page: 1, limit: 100, total: 0, hasNextPage: false, count: 0 });
  });
});

describe('catalogue filters and meta', () => {
  it('echoes the applied filters with nullable updatedSince and shopUuid', () => {
    ok(CatalogProductsReply, catalogPage([product()], 50));
    refused(CatalogProductsReply, {
      ...catalogPage([product()], 50),
      filters: { ...catalogPage([product()], 50).filters, shopUuid: undefined },
    });
    refused(CatalogProductsReply, {
      ...catalogPage([product()], 50),
      meta: { ...catalogPage([product()], 50).meta, currency: 'USD' },
    });
  });
});

describe('error object', () => {
  it('requires message and allows the optional members and missingScopes', () => {
    ok(ApiError, {
      message: 'FORBIDDEN: missing scope',
      statusCode: 403,
      code: 'FORBIDDEN',
      error: 'Request Error',
      missingScopes: ['stock:read'],
    });
    ok(ApiError, { message: 'CONFLICT: x', code: 409 });
    refused(ApiError, { statusCode: 400 });
  });

  it('splits the stable code from the explanation', () => {
    expect(parseErrorMessage('INSUFFICIENT_BALANCE: balance 4.50 EUR')).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      explanation: 'balance 4.50 EUR',
    });
    expect(parseErrorMessage('something broke')).toEqual({
      code: undefined,
      explanation: 'something broke',
    });
    expect(errorBody('RATE_LIMITED', 'slow down')).toEqual({
      message: 'RATE_LIMITED: slow down',
      statusCode: 429,
      code: 'RATE_LIMITED',
      error: 'Request Error',
    });
  });
});

describe('identifiers are opaque', () => {
  it('accepts prefixed public identifiers where a UUID validator would refuse them', () => {
    ok(CatalogProduct, {
      ...product(),
      uuid: 'customer_42',
      items: [{ ...item(), shop: { ...item().shop!, id: 'shop_paris-rivoli' } }],
    });
    ok(operations.getGiftCard.params, { giftCardId: 'gift_card_7F3A' });
    refused(operations.getGiftCard.params, { giftCardId: '' });
  });
});

describe('writes', () => {
  it('requires Idempotency-Key on the gift-card debit', () => {
    ok(IdempotencyKeyHeader, { 'Idempotency-Key': '3f1c2a9e-0d7b-4f5e-9a51-7c1de2b0f001' });
    refused(IdempotencyKeyHeader, {});
  });

  it('accepts a positive EUR debit with at most two decimals', () => {
    ok(GiftCardDebit, { amount: 12.5, currency: 'EUR', reference: 'kiosk-1' });
    refused(GiftCardDebit, { amount: 0, currency: 'EUR' });
    refused(GiftCardDebit, { amount: -3, currency: 'EUR' });
    refused(GiftCardDebit, { amount: 1.005, currency: 'EUR' });
  });

  it('validates the customer replacement body', () => {
    ok(CustomerReplacement, {
      typeCustomer: 'individual',
      firstName: 'Chloé',
      lastName: 'Martin',
      email: 'chloe@example.test',
    });
    refused(CustomerReplacement, {
      typeCustomer: 'individual',
      firstName: 'Chloé',
      lastName: 'Martin',
      email: 'not-an-email',
    });
    refused(CustomerReplacement, { typeCustomer: 'individual', firstName: 'Chloé' });
  });

  it('needs at least one customer search criterion, exact match by default', () => {
    expect(CustomerSearchQuery.parse({ email: 'a@b.test' }).matchMode).toBe('exact');
    refused(CustomerSearchQuery, {});
    refused(CustomerSearchQuery, { email: 'a@b.test', matchMode: 'fuzzy' });
  });
});
