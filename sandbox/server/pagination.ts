import type { z } from 'zod';
import type {
  CatalogPagination,
  ChangesPagination,
  ListPagination,
  ProductsPagination,
} from '../../shared/api/pagination.ts';

/**
 * The four pagination variants of the spec, computed from the total and the requested page.
 * A page past the end is an empty page, not an error.
 */

export interface Page<T> {
  readonly items: T[];
  readonly page: number;
  readonly limit: number;
  readonly total: number;
}

export function pageOf<T>(items: readonly T[], page: number, limit: number): Page<T> {
  const start = (page - 1) * limit;
  return { items: items.slice(start, start + limit), page, limit, total: items.length };
}

const hasNext = ({ page, limit, total }: Page<unknown>) => page * limit < total;

export function listPagination(slice: Page<unknown>): z.infer<typeof ListPagination> {
  return { page: slice.page, limit: slice.limit, total: slice.total, hasNextPage: hasNext(slice) };
}

export function changesPagination(slice: Page<unknown>): z.infer<typeof ChangesPagination> {
  return { page: slice.page, limit: slice.limit, total: slice.total, hasNextPage: hasNext(slice) };
}

export function productsPagination(slice: Page<unknown>): z.infer<typeof ProductsPagination> {
  return {
    page: slice.page,
    limit: slice.limit,
    count: slice.items.length,
    total: slice.total,
    totalPages: Math.ceil(slice.total / slice.limit),
    hasNextPage: hasNext(slice),
  };
}

export function catalogPagination(slice: Page<unknown>): z.infer<typeof CatalogPagination> {
  const next = hasNext(slice);
  const previous = slice.page > 1;
  return {
    ...productsPagination(slice),
    hasPreviousPage: previous,
    nextPage: next ? slice.page + 1 : null,
    previousPage: previous ? slice.page - 1 : null,
  };
}
