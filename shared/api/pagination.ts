import { z } from 'zod';

/**
 * The spec's pagination variants. Catalogue products and the change feed are closed shapes;
 * the products list "shows at least" its fields, and the other lists share the fields
 * marked "all lists", so those two tolerate extra members.
 */

export const CatalogPagination = z
  .strictObject({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    count: z.number().int().min(0),
    total: z.number().int().min(0),
    totalPages: z.number().int().min(0),
    hasNextPage: z.boolean(),
    hasPreviousPage: z.boolean(),
    nextPage: z.number().int().nullable(),
    previousPage: z.number().int().nullable(),
  })
  .meta({ id: 'CatalogPagination' });

export const ProductsPagination = z
  .object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    count: z.number().int().min(0),
    total: z.number().int().min(0),
    totalPages: z.number().int().min(0),
    hasNextPage: z.boolean(),
  })
  .meta({ id: 'ProductsPagination' });

export const ChangesPagination = z
  .strictObject({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().min(0),
    hasNextPage: z.boolean(),
  })
  .meta({ id: 'ChangesPagination' });

export const ListPagination = z
  .object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1),
    total: z.number().int().min(0),
    hasNextPage: z.boolean(),
  })
  .meta({
    id: 'ListPagination',
    'x-assumption':
      'Pagination of the lists other than products, catalogue products and the change feed is not shown; we assume the fields the spec marks "all lists".',
  });

export type PaginationKind = 'catalog' | 'products' | 'changes' | 'list' | 'none';

/** A list reply: `data` and `pagination`. */
export function listOf<T extends z.ZodType, P extends z.ZodType>(item: T, pagination: P) {
  return z.object({ data: z.array(item), pagination });
}
