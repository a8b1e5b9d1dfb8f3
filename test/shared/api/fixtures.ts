import type { CatalogProduct, ItemEntry } from '../../../shared/api/index.ts';

/** A valid catalogue item and product, straight from the spec's field tables, for rule tests to bend. */
export function item(): ItemEntry {
  return {
    uuid: 'item_0001',
    code: 'A-1',
    price: { inclTax: 129.9, exclTax: 108.25, currency: 'EUR' },
    promotionPrice: null,
    quantity: 3,
    availability: { available: true, status: 'available', reason: null },
    shop: { id: 'shop_lyon', name: 'Lyon Part-Dieu', shortName: 'LYO', city: 'Lyon' },
    characteristics: [{ code: 'color', label: 'Couleur', value: 'Noir', source: 'item' }],
    inStockDate: '2026-10-01',
    updatedAt: '2026-11-20T10:00:00Z',
  };
}

export function product(): CatalogProduct {
  return {
    uuid: 'prod_0001',
    reference: 'REF-1',
    ean: '3760000000017',
    name: 'Aspirateur sans fil',
    description: 'Léger et puissant',
    displayedOnline: true,
    quantityType: 'unit',
    category: { id: 'cat_1', code: 'ASP', label: 'Aspirateurs' },
    priceRange: { minInclTax: 129.9, maxInclTax: 129.9, currency: 'EUR' },
    promotionPriceRange: null,
    availableItemsCount: 1,
    stock: { available: true, totalQuantity: 3 },
    media: [{ type: 'image', url: 'https://cdn.example.test/p1.jpg', isMain: true }],
    updatedAt: '2026-11-20T10:00:00+01:00',
    supplier: null,
    items: [item()],
  };
}

/** A one-page catalogue reply holding `data`, as the service sends it for `limit` per page. */
export function catalogPage<T>(data: T[], limit = 500) {
  return {
    data,
    pagination: {
      page: 1,
      limit,
      count: data.length,
      total: data.length,
      totalPages: 1,
      hasNextPage: false,
      hasPreviousPage: false,
      nextPage: null,
      previousPage: null,
    },
    filters: {
      page: 1,
      limit,
      updatedSince: null,
      shopUuid: null,
      availableOnly: false,
      displayedOnline: true,
    },
    meta: { generatedAt: '2026-11-21T10:00:00Z', currency: 'EUR' as const, included: ['items'] },
  };
}
