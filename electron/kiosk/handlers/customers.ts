import type { customerMessages } from '../../../shared/ipc/customers.ts';
import {
  hasNextPageOf,
  type IntegrationProfile,
  pagingQuery,
  viewOf,
} from '../../../shared/profile/index.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';
import type { Outbox } from '../../outbox/index.ts';
import { creditEntryOf, customerEntryOf } from '../record-views.ts';

export interface CustomerHandlerDeps {
  readonly client: Pick<
    CommerceApiClient,
    'searchCustomers' | 'getCustomer' | 'getCustomerHistory' | 'listCustomerCredits'
  >;
  /** The integration profile in force (read at each call: an administrator may switch it). */
  readonly profile: () => IntegrationProfile;
  /** Keeps the gift cards among the credits read, so they can be debited offline later. */
  readonly outbox?: Pick<Outbox, 'recordCardValues'>;
}

/** Customers, read live from the service through the profile. */
export function customerHandlers({
  client,
  profile,
  outbox,
}: CustomerHandlerDeps): Pick<KioskHandlers, keyof typeof customerMessages> {
  return {
    searchCustomers: async (request) => {
      // `email` and `matchMode=exact` are the spec's; the other criteria's names are the profile's.
      const names = profile().parameters.customerSearch;
      const criteria = (['lastName', 'firstName', 'phone', 'postalCode'] as const).flatMap(
        (criterion) => {
          const value = request[criterion];
          const name = names[criterion];
          return value === undefined || name === null ? [] : [[name, value] as const];
        },
      );
      const reply = await client.searchCustomers({
        query: {
          email: request.email,
          matchMode: 'exact',
          ...Object.fromEntries(criteria),
          ...pagingQuery(profile(), 'searchCustomers', request),
        },
      });
      return {
        data: reply.data.map((customer) => customerEntryOf(profile(), customer)),
        hasNextPage: hasNextPageOf(reply),
      };
    },
    getCustomer: async (request) => {
      // Not shown: the contact parameter is the profile's, and none is sent when it names none.
      const contact = profile().parameters.customerContact;
      return customerEntryOf(
        profile(),
        await client.getCustomer({
          params: { customerId: request.customerId },
          query:
            request.includeContact && contact !== null ? { [contact.name]: contact.value } : {},
        }),
      );
    },
    getCustomerHistory: async (request) =>
      viewOf(
        profile(),
        'customerHistory',
        await client.getCustomerHistory({
          params: { customerId: request.customerId },
          query: historyQuery(profile(), request.families),
        }),
      ),
    listCustomerCredits: async (request) => {
      const reply = await client.listCustomerCredits({
        params: { customerId: request.customerId },
        query: {
          ...(request.types === undefined ? {} : { types: request.types.join(',') }),
          ...pagingQuery(profile(), 'listCustomerCredits', request),
        },
      });
      const credits = reply.data.map((credit) => creditEntryOf(profile(), credit));
      for (const credit of credits) {
        if (credit.isGiftCard !== true || credit.giftCardId === null) continue;
        // The card's values only: its label and the customer stay out of the cache.
        outbox?.recordCardValues({
          id: credit.giftCardId,
          status: credit.status,
          balance: credit.remainingAmount,
          expiresOn: credit.expiresOn,
        });
      }
      return { data: credits, hasNextPage: hasNextPageOf(reply) };
    },
  };
}

/**
 * The history's family choice under the profile's names: `include` is the spec's word, its
 * values are not shown. Families the service does not name are left out; when none is left (or
 * the profile says the service takes no choice), the history is asked without one.
 */
function historyQuery(
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
