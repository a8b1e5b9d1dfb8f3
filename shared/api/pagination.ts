import { z } from 'zod';

/**
 * The spec's pagination variants. Catalogue products and the change feed are closed shapes;
 * the products list "shows at least" its fields, and the other lists share the fields
 * marked "all lists", so those two tolerate extra members.
 */

/** The fields the spec marks "all lists". */
const listFields = {
  page: z.number().int().min(1),
  limit: z.number().int().min(1),
  total: z.number().int().min(0),
  hasNextPage: z.boolean(),
};
const { page, limit, total, hasNextPage } = listFields;

/** What the products list shows at least; catalogue products show the same and the way back. */
const productsFields = {
  page,
  limit,
  count: z.number().int().min(0),
  total,
  totalPages: z.number().int().min(0),
  hasNextPage,
};

export const CatalogPagination = z
  .strictObject({
    ...productsFields,
    hasPreviousPage: z.boolean(),
    nextPage: z.number().int().nullable(),
    previousPage: z.number().int().nullable(),
  })
  .meta({ id: 'CatalogPagination' });

export const ProductsPagination = z.object(productsFields).meta({ id: 'ProductsPagination' });

export const ChangesPagination = z.strictObject(listFields).meta({ id: 'ChangesPagination' });

export const ListPagination = z.object(listFields).meta({
  id: 'ListPagination',
  'x-assumption':
    'Pagination of the lists other than products, catalogue products and the change feed is not shown; we assume the fields the spec marks "all lists".',
});

export type PaginationKind = 'catalog' | 'products' | 'changes' | 'list' | 'none';

/** A list reply: `data` and `pagination`. */
export function listOf<T extends z.ZodType, P extends z.ZodType>(item: T, pagination: P) {
  return z.object({ data: z.array(item), pagination });
}
