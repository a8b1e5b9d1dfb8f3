import type { IntegrationProfile } from './integration-profile.ts';
import { pagingQuery } from './paging.ts';

/**
 * The query of each read whose parameters the specification does not show in full, built from
 * the profile: one function per read, shared by the kiosk's handlers and `contract check`, so the
 * check sends exactly what the kiosk sends (docs/integrating.md, "What the kiosk sends and
 * requires"). A name the profile leaves null is never sent.
 */

/** The customer-search criteria other than the spec's `email`, by the kiosk's own names. */
export const customerSearchCriteria = ['lastName', 'firstName', 'phone', 'postalCode'] as const;
export type CustomerSearchCriterion = (typeof customerSearchCriteria)[number];

export interface CustomerSearchRequest extends Partial<
  Record<CustomerSearchCriterion, string | undefined>
> {
  readonly email?: string | undefined;
  readonly page?: number | undefined;
  readonly limit?: number | undefined;
}

/**
 * Customer search: `email` and `matchMode=exact` are the spec's; each other criterion goes under
 * the profile's name for it, and not at all when the profile names none; paging as the profile
 * pages the list. The caller makes sure at least one criterion is sent (`sentCustomerCriteria`).
 */
export function customerSearchQuery(
  profile: IntegrationProfile,
  request: CustomerSearchRequest,
): Record<string, string | number> {
  const names = profile.parameters.customerSearch;
  const criteria = customerSearchCriteria.flatMap((criterion) => {
    const value = request[criterion];
    const name = names[criterion];
    return value === undefined || name === null ? [] : [[name, value] as const];
  });
  return {
    ...(request.email === undefined ? {} : { email: request.email }),
    matchMode: 'exact',
    ...Object.fromEntries(criteria),
    ...pagingQuery(profile, 'searchCustomers', request),
  };
}

/** The criteria the service takes besides `email`: those the profile names a parameter for. */
export function takenCustomerCriteria(profile: IntegrationProfile): CustomerSearchCriterion[] {
  return customerSearchCriteria.filter(
    (criterion) => profile.parameters.customerSearch[criterion] !== null,
  );
}

/** How many of a search's criteria go to the service: none would be a search for everyone. */
export function sentCustomerCriteria(
  profile: IntegrationProfile,
  request: CustomerSearchRequest,
): number {
  const taken = takenCustomerCriteria(profile);
  return (
    (request.email === undefined ? 0 : 1) +
    taken.filter((criterion) => request[criterion] !== undefined && request[criterion] !== '')
      .length
  );
}

/**
 * The criteria of a search the service was not asked (the profile names no parameter for them):
 * the kiosk checks those itself on the matches it got back, so stating another detail still
 * tells several customers apart. A match that does not show the detail stays a candidate (the
 * kiosk never opens a record it cannot tell from another); values compare trimmed, ignoring
 * case and accents.
 */
export function customersMatchingUnsent<
  T extends Partial<Record<CustomerSearchCriterion, unknown>>,
>(profile: IntegrationProfile, request: CustomerSearchRequest, matches: readonly T[]): T[] {
  const fold = (value: string) =>
    value
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .trim()
      .toLocaleLowerCase();
  const unsent = customerSearchCriteria.filter(
    (criterion) =>
      request[criterion] !== undefined &&
      request[criterion] !== '' &&
      profile.parameters.customerSearch[criterion] === null,
  );
  return matches.filter((match) =>
    unsent.every((criterion) => {
      const shown = match[criterion];
      return typeof shown !== 'string' || fold(shown) === fold(request[criterion] ?? '');
    }),
  );
}

/**
 * Opening a customer: the contact parameter is the profile's (not shown), sent only when the
 * screen asks for the contact block and the profile names one.
 */
export function customerContactQuery(
  profile: IntegrationProfile,
  includeContact: boolean | undefined,
): Record<string, string> {
  const contact = profile.parameters.customerContact;
  return includeContact === true && contact !== null ? { [contact.name]: contact.value } : {};
}

/**
 * The history's family choice under the profile's names: `include` is the spec's word, its
 * values are not shown. Families the service does not name are left out; when none is left (or
 * the profile says the service takes no choice), the history is asked without one.
 */
export function customerHistoryQuery(
  profile: IntegrationProfile,
  families: readonly string[] | undefined,
): Record<string, string> {
  const choice = profile.parameters.customerHistory;
  if (families === undefined || choice === null) return {};
  const values = families.flatMap((family) => {
    const value = (choice.families as Readonly<Record<string, string | null>>)[family];
    return value === undefined || value === null ? [] : [value];
  });
  return values.length === 0 ? {} : { [choice.name]: values.join(',') };
}

/** A customer's credits: the spec's `types` filter, paging as the profile pages the list. */
export function customerCreditsQuery(
  profile: IntegrationProfile,
  request: {
    readonly types?: readonly string[] | undefined;
    readonly page?: number | undefined;
    readonly limit?: number | undefined;
  },
): Record<string, string | number> {
  return {
    ...(request.types === undefined ? {} : { types: request.types.join(',') }),
    ...pagingQuery(profile, 'listCustomerCredits', request),
  };
}

/** A gift card with its usages: the profile's parameter asking for them, none when they always come. */
export function giftCardUsagesQuery(profile: IntegrationProfile): Record<string, string> {
  const usages = profile.parameters.giftCardUsages;
  return usages === null ? {} : { [usages.name]: usages.value };
}
