import type { customerMessages } from '../../../shared/ipc/customers.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';
import type { Outbox } from '../../outbox/index.ts';

export interface CustomerHandlerDeps {
  readonly client: Pick<
    CommerceApiClient,
    'searchCustomers' | 'getCustomer' | 'getCustomerHistory' | 'listCustomerCredits'
  >;
  /** Keeps the gift cards among the credits read, so they can be debited offline later. */
  readonly outbox?: Pick<Outbox, 'recordCard'>;
}

/** Customers, read live from the service. */
export function customerHandlers({
  client,
  outbox,
}: CustomerHandlerDeps): Pick<KioskHandlers, keyof typeof customerMessages> {
  return {
    searchCustomers: (request) =>
      client.searchCustomers({
        query: {
          email: request.email,
          matchMode: 'exact',
          ...(request.lastName === undefined ? {} : { lastName: request.lastName }),
          ...(request.firstName === undefined ? {} : { firstName: request.firstName }),
          ...(request.phone === undefined ? {} : { phone: request.phone }),
          ...(request.postalCode === undefined ? {} : { postalCode: request.postalCode }),
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      }),
    getCustomer: (request) =>
      client.getCustomer({
        params: { customerId: request.customerId },
        query: request.includeContact ? { include: 'contact' } : {},
      }),
    getCustomerHistory: (request) =>
      client.getCustomerHistory({
        params: { customerId: request.customerId },
        query: request.families === undefined ? {} : { include: request.families.join(',') },
      }),
    listCustomerCredits: async (request) => {
      const credits = await client.listCustomerCredits({
        params: { customerId: request.customerId },
        query: {
          ...(request.types === undefined ? {} : { types: request.types.join(',') }),
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      });
      for (const credit of credits.data) {
        if (credit.type !== 'gift_card' || credit.giftCardId === null) continue;
        // The card's values only: its label and the customer stay out of the cache.
        outbox?.recordCard({
          id: credit.giftCardId,
          status: credit.status,
          balance: credit.remainingAmount,
          currency: credit.currency,
          expiresOn: credit.expiresOn,
        });
      }
      return credits;
    },
  };
}
