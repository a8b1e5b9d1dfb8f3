import { SearchProductsRequest } from '../../shared/ipc/catalog.ts';
import { CatalogError } from './errors.ts';

/** A search as the catalogue queries run it: checked against the message schema, page resolved. */
export type SearchQuery = SearchProductsRequest & {
  readonly limit: number;
  readonly offset: number;
};

const DEFAULT_LIMIT = 20;

/**
 * The kiosk's router has already checked a renderer's request against the same schema; `kioskctl`
 * and other callers in main have not, and get the same limits.
 */
export function searchQueryOf(request: SearchProductsRequest): SearchQuery {
  const parsed = SearchProductsRequest.safeParse(request);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'query'}: ${issue.message}`,
    );
    throw new CatalogError('CATALOG_INVALID_QUERY', issues.join('; '));
  }
  const { limit = DEFAULT_LIMIT, offset = 0 } = parsed.data;
  return { ...parsed.data, limit, offset };
}
