import type { customerMessages } from '../../../shared/ipc/customers.ts';
import {
  customerContactQuery,
  customerCreditsQuery,
  customerHistoryQuery,
  customerSearchQuery,
  customersMatchingUnsent,
  hasNextPageOf,
  type IntegrationProfile,
  sentCustomerCriteria,
  takenCustomerCriteria,
  viewOf,
} from '../../../shared/profile/index.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import { IpcFailure, type KioskHandlers } from '../../ipc/index.ts';
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
    customerSearchCriteria: () => Promise.resolve({ criteria: takenCustomerCriteria(profile()) }),
    searchCustomers: async (request) => {
      if (sentCustomerCriteria(profile(), request) === 0) {
        // Only criteria the service is not sent: the search would go out with none, and list
        // every customer.
        throw new IpcFailure(
          'CUSTOMER_CRITERION_NOT_TAKEN',
          'none of the criteria given is one the service takes (integration profile): add the e-mail address or another',
        );
      }
      const reply = await client.searchCustomers({
        query: customerSearchQuery(profile(), request),
      });
      const entries = reply.data.map((customer) => customerEntryOf(profile(), customer));
      return {
        // The details the service was not asked (the profile names no parameter): checked here.
        data: customersMatchingUnsent(profile(), request, entries),
        hasNextPage: hasNextPageOf(reply),
      };
    },
    getCustomer: async (request) => {
      // Not shown: the contact parameter is the profile's, and none is sent when it names none.
      return customerEntryOf(
        profile(),
        await client.getCustomer({
          params: { customerId: request.customerId },
          query: customerContactQuery(profile(), request.includeContact),
        }),
      );
    },
    getCustomerHistory: async (request) =>
      viewOf(
        profile(),
        'customerHistory',
        await client.getCustomerHistory({
          params: { customerId: request.customerId },
          query: customerHistoryQuery(profile(), request.families),
        }),
      ),
    listCustomerCredits: async (request) => {
      const reply = await client.listCustomerCredits({
        params: { customerId: request.customerId },
        query: customerCreditsQuery(profile(), request),
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
