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
    getCustomer: async (request) =>
      customerEntryOf(
        profile(),
        await client.getCustomer({
          params: { customerId: request.customerId },
          query: request.includeContact ? { include: 'contact' } : {},
        }),
      ),
    getCustomerHistory: async (request) =>
      viewOf(
        profile(),
        'customerHistory',
        await client.getCustomerHistory({
          params: { customerId: request.customerId },
          query: request.families === undefined ? {} : { include: request.families.join(',') },
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
