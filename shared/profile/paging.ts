import { readPath } from './field-path.ts';
import type { IntegrationProfile } from './integration-profile.ts';

/**
 * Paging of the lists whose parameters and pagination the spec does not show: the parameter
 * names are the profile's, and a next page is followed only when the reply says so in the shape
 * the spec gives every list (`pagination.hasNextPage`).
 */

/**
 * The page and page-size parameters of one list under the profile's names; left out where it has
 * none, and on a list the service does not page (unknown parameters are refused).
 */
export function pagingQuery(
  profile: IntegrationProfile,
  operationId: string,
  request: { readonly page?: number | undefined; readonly limit?: number | undefined },
): Record<string, number> {
  const { page, limit, unpaged } = profile.parameters;
  if (unpaged.includes(operationId)) return {};
  return {
    ...(page === null || request.page === undefined ? {} : { [page]: request.page }),
    ...(limit === null || request.limit === undefined ? {} : { [limit]: request.limit }),
  };
}

/** Whether a list reply says a next page exists; no pagination it can read means no. */
export function hasNextPageOf(reply: unknown): boolean {
  const read = readPath(reply, 'pagination.hasNextPage');
  return read.found && read.value === true;
}
