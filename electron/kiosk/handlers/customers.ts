import type { customerMessages } from '../../../shared/ipc/customers.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';

export interface CustomerHandlerDeps {
  readonly client: Pick<
    CommerceApiClient,
    'searchCustomers' | 'getCustomer' | 'getCustomerHistory' | 'listCustomerCredits'
  >;
}

/** Customers, read live from the service. */
export function customerHandlers({
  client,
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
    listCustomerCredits: (request) =>
      client.listCustomerCredits({
        params: { customerId: request.customerId },
        query: {
          ...(request.types === undefined ? {} : { types: request.types.join(',') }),
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      }),
  };
}
