import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CatalogProductsReply } from '../../../shared/api/catalog.ts';
import {
  ProductItem,
  ProductItemsReply,
  ProductReference,
  ProductsReply,
} from '../../../shared/api/products.ts';
import { demoProducts } from '../../../sandbox/data/demo.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient({ products: 300 });
});
afterAll(() => client.sandbox.close());

const catalog = async (query = '') => {
  const reply = await client.as(emails.catalog, `/v1/catalog/products${query}`);
  expect(reply.status).toBe(200);
  return CatalogProductsReply.parse(reply.body);
};
const products = async (query = '') => {
  const reply = await client.as(emails.all, `/v1/products${query}`);
  expect(reply.status).toBe(200);
  return ProductsReply.parse(reply.body);
};

describe('GET /v1/catalog/products', () => {
  test('catalogue pagination: nine fields, pages cover the catalogue once', async () => {
    const first = await catalog('?limit=120');
    const total = first.pagination.total;
    expect(first.pagination).toEqual({
      page: 1,
      limit: 120,
      count: 120,
      total,
      totalPages: Math.ceil(total / 120),
      hasNextPage: true,
      hasPreviousPage: false,
      nextPage: 2,
      previousPage: null,
    });
    const seen = new Set(first.data.map((product) => product.uuid));
    let page = first;
    while (page.pagination.nextPage !== null) {
      page = await catalog(`?limit=120&page=${page.pagination.nextPage}`);
      for (const product of page.data) seen.add(product.uuid);
    }
    expect(seen.size).toBe(total);
    expect(page.pagination).toMatchObject({
      hasNextPage: false,
      nextPage: null,
      hasPreviousPage: true,
      previousPage: page.pagination.page - 1,
    });
    const past = await catalog(`?limit=120&page=${page.pagination.totalPages + 1}`);
    expect(past.data).toEqual([]);
    expect(past.pagination.count).toBe(0);
  });

  test('filters and meta are echoed; displayedOnline defaults to true', async () => {
    const reply = await catalog();
    expect(reply.filters).toEqual({
      page: 1,
      limit: 50,
      updatedSince: null,
      shopUuid: null,
      availableOnly: false,
      displayedOnline: true,
    });
    expect(reply.meta.currency).toBe('EUR');
    expect(reply.meta.included.length).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(reply.meta.generatedAt))).toBe(false);
    const all = await catalog('?limit=500');
    expect(all.data.every((product) => product.displayedOnline)).toBe(true);
    expect(all.data.map((product) => product.uuid)).not.toContain(demoProducts.hidden);
    const hidden = await catalog('?limit=500&displayedOnline=false');
    expect(hidden.data.every((product) => !product.displayedOnline)).toBe(true);
    expect(hidden.data.map((product) => product.uuid)).toContain(demoProducts.hidden);
    expect(hidden.filters.displayedOnline).toBe(false);
  });

  test('availableOnly keeps available items only; a shop narrows items and every derived figure', async () => {
    const available = await catalog('?limit=500&availableOnly=true');
    for (const product of available.data) {
      expect(product.items.length).toBeGreaterThan(0);
      expect(product.items.every((item) => item.availability.available)).toBe(true);
      expect(product.availableItemsCount).toBe(product.items.length);
      expect(product.stock.available).toBe(true);
    }
    const everywhere = (await catalog('?limit=500')).data.find(
      (product) => product.uuid === demoProducts.availableEverywhere,
    )!;
    const shopUuid = everywhere.items[0]!.shop!.id;
    const inShop = await catalog(`?limit=500&shopUuid=${shopUuid}`);
    expect(inShop.filters.shopUuid).toBe(shopUuid);
    for (const product of inShop.data) {
      expect(product.items.length).toBeGreaterThan(0);
      expect(product.items.every((item) => item.shop?.id === shopUuid)).toBe(true);
      const prices = product.items
        .map((item) => item.price.inclTax)
        .filter((price) => price !== null);
      if (prices.length > 0) expect(product.priceRange?.minInclTax).toBe(Math.min(...prices));
    }
    expect((await catalog('?shopUuid=shop_nowhere')).data).toEqual([]);
  });

  test('updatedSince keeps what changed since', async () => {
    const future = await catalog('?updatedSince=2999-01-01T00:00:00Z');
    expect(future.data).toEqual([]);
    expect(future.filters.updatedSince).toBe('2999-01-01T00:00:00Z');
    const all = await catalog('?updatedSince=2000-01-01T00:00:00Z&limit=500');
    expect(all.pagination.total).toBe((await catalog('?limit=500')).pagination.total);
  });
});

describe('GET /v1/products', () => {
  test('products pagination and entries without any relation unless included', async () => {
    const reply = await products('?limit=10');
    expect(Object.keys(reply.pagination).sort()).toEqual([
      'count',
      'hasNextPage',
      'limit',
      'page',
      'total',
      'totalPages',
    ]);
    expect(reply.pagination).toMatchObject({ page: 1, limit: 10, count: 10, hasNextPage: true });
    for (const product of reply.data) {
      for (const block of ['stock', 'media', 'characteristics', 'items'])
        expect(product).not.toHaveProperty(block);
    }
    const included = await products('?limit=10&include=stock,media,characteristics,prices');
    for (const product of included.data) {
      expect(product.stock).toBeDefined();
      expect(product.media).toBeDefined();
      expect(product.characteristics!.every((entry) => entry.source === 'product')).toBe(true);
    }
  });

  test('search is normalized: accents and case do not matter, over name, reference, EAN and description', async () => {
    const promoted = ProductReference.parse(
      (await client.as(emails.all, `/v1/products/${demoProducts.promoted}`)).body,
    );
    for (const search of ['glacons', 'GLAÇONS', 'Machine à glaçons']) {
      expect(
        (await products(`?search=${encodeURIComponent(search)}&limit=500`)).data.map((p) => p.uuid),
      ).toContain(demoProducts.promoted);
    }
    expect(
      (await products(`?search=${promoted.reference!.toLowerCase()}`)).data.map((p) => p.uuid),
    ).toEqual([demoProducts.promoted]);
    expect((await products(`?search=${promoted.ean}`)).data.map((p) => p.uuid)).toEqual([
      demoProducts.promoted,
    ]);
    expect((await products('?search=zzzzqqqq')).pagination.total).toBe(0);
  });

  test('referential filters', async () => {
    const all = (await products('?limit=500')).data;
    const category = all.find((product) => product.category)!.category!.id;
    const type = all.find((product) => product.productType)!.productType!.id;
    expect(
      (await products(`?limit=500&categoryId=${category}`)).data.every(
        (p) => p.category?.id === category,
      ),
    ).toBe(true);
    expect(
      (await products(`?limit=500&productTypeId=${type}`)).data.every(
        (p) => p.productType?.id === type,
      ),
    ).toBe(true);
    const available = await products('?limit=500&availableOnly=true');
    expect(available.data.every((product) => product.availableItemsCount > 0)).toBe(true);
  });

  test("detail: include=items with a shop gives that shop's items; unknown product is 404", async () => {
    const plain = ProductReference.parse(
      (await client.as(emails.all, `/v1/products/${demoProducts.availableEverywhere}`)).body,
    );
    expect(plain).not.toHaveProperty('items');
    const withItems = ProductReference.parse(
      (
        await client.as(
          emails.all,
          `/v1/products/${demoProducts.availableEverywhere}?include=items,stock`,
        )
      ).body,
    );
    const shopId = withItems.items![0]!.shop!.id;
    const inShop = ProductReference.parse(
      (
        await client.as(
          emails.all,
          `/v1/products/${demoProducts.availableEverywhere}?include=items&shopId=${shopId}`,
        )
      ).body,
    );
    expect(inShop.items!.length).toBeGreaterThan(0);
    expect(inShop.items!.every((item) => item.shop?.id === shopId)).toBe(true);
    expect(inShop.availableItemsCount).toBeLessThanOrEqual(withItems.availableItemsCount);
    expectError(
      await client.as(emails.all, '/v1/products/prod_unknown'),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('items', () => {
  test('items of a product, all items, one item; 404 for unknown ids', async () => {
    const ofProduct = ProductItemsReply.parse(
      (await client.as(emails.all, `/v1/products/${demoProducts.availableEverywhere}/items`)).body,
    );
    expect(ofProduct.data.length).toBeGreaterThan(0);
    expect(
      ofProduct.data.every((item) => item.productId === demoProducts.availableEverywhere),
    ).toBe(true);
    const one = ProductItem.parse(
      (await client.as(emails.all, `/v1/product-items/${ofProduct.data[0]!.uuid}`)).body,
    );
    expect(one).toEqual(ofProduct.data[0]);
    const list = ProductItemsReply.parse(
      (await client.as(emails.all, '/v1/product-items?limit=500&availableOnly=true')).body,
    );
    expect(list.data.every((item) => item.availability.available)).toBe(true);
    const byProduct = ProductItemsReply.parse(
      (await client.as(emails.all, `/v1/product-items?productId=${demoProducts.outOfStock}`)).body,
    );
    expect(byProduct.data.map((item) => item.availability.status)).toContain('out_of_stock');
    const statuses = new Set(
      ProductItemsReply.parse(
        (await client.as(emails.all, '/v1/product-items?limit=500')).body,
      ).data.map((i) => i.availability.status),
    );
    expect(statuses.size).toBe(6);
    expectError(
      await client.as(emails.all, '/v1/product-items/item_unknown'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectError(
      await client.as(emails.all, '/v1/products/prod_unknown/items'),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});
