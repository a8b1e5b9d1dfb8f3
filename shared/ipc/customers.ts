import { z } from 'zod';
import { creditTypes, criterionMaxLength, historyFamilies } from '../api/customer-vocabulary.ts';
import { Text } from '../api/primitives.ts';
import { Page, PageLimit, RecordId } from './common.ts';
import { defineMessage } from './message.ts';
import { CreditEntry, CustomerEntry, recordList, recordView } from './records.ts';
import { lazySchema } from './lazy-schema.ts';
import { customerSearchCriteria } from '../profile/queries.ts';

/**
 * Customer lookup at the counter, always an exact match (the API's `matchMode=exact`): by the
 * e-mail address, or by any other criterion the service takes (the integration profile names
 * them: `customerSearchCriteria`), every criterion given combined. Several matches are never
 * picked from: staff ask for another detail. A search needs at least one criterion the service is
 * sent; one the profile names no parameter for is checked by main on the matches only
 * (`CUSTOMER_CRITERION_NOT_TAKEN` when nothing else is given, rather than a search with no
 * criterion at all).
 */
export const SearchCustomersRequest = lazySchema(() =>
  z
    .strictObject({
      email: z.email().max(criterionMaxLength.email).optional(),
      lastName: Text.trim().min(1).max(criterionMaxLength.lastName).optional(),
      firstName: Text.trim().min(1).max(criterionMaxLength.firstName).optional(),
      phone: Text.trim().min(1).max(criterionMaxLength.phone).optional(),
      postalCode: Text.trim().min(1).max(criterionMaxLength.postalCode).optional(),
      page: Page.optional(),
      limit: PageLimit.optional(),
    })
    .refine(
      (request) =>
        [
          request.email,
          request.lastName,
          request.firstName,
          request.phone,
          request.postalCode,
        ].some((value) => value !== undefined),
      { message: 'at least one criterion (email, lastName, firstName, phone, postalCode)' },
    ),
);
export type SearchCustomersRequest = z.input<typeof SearchCustomersRequest>;

export const GetCustomerRequest = lazySchema(() =>
  z.strictObject({
    customerId: RecordId,
    /** Ask for the contact block (needs `customers:pii:read`; left out otherwise). */
    includeContact: z.boolean().optional(),
  }),
);
export type GetCustomerRequest = z.input<typeof GetCustomerRequest>;

export const GetCustomerHistoryRequest = lazySchema(() =>
  z.strictObject({
    customerId: RecordId,
    /** Families to read; all that the account may see when absent. */
    families: z.array(z.enum(historyFamilies)).min(1).max(historyFamilies.length).optional(),
  }),
);
export type GetCustomerHistoryRequest = z.input<typeof GetCustomerHistoryRequest>;

export const ListCustomerCreditsRequest = lazySchema(() =>
  z.strictObject({
    customerId: RecordId,
    types: z.array(z.enum(creditTypes)).min(1).max(creditTypes.length).optional(),
    page: Page.optional(),
    limit: PageLimit.optional(),
  }),
);
export type ListCustomerCreditsRequest = z.input<typeof ListCustomerCreditsRequest>;

/** The customer-search criteria besides `email` the service takes, as the profile names them. */
export const CustomerSearchCriteriaReply = lazySchema(() =>
  z.object({ criteria: z.array(z.enum(customerSearchCriteria)) }),
);
export type CustomerSearchCriteriaReply = z.infer<typeof CustomerSearchCriteriaReply>;

export const customerMessages = {
  customerSearchCriteria: defineMessage('customerSearchCriteria', {
    group: 'customers',
    summary: 'The customer-search criteria besides e-mail the service takes (integration profile)',
    request: lazySchema(() => z.strictObject({})),
    reply: CustomerSearchCriteriaReply,
  }),
  searchCustomers: defineMessage('searchCustomers', {
    group: 'customers',
    summary: 'Find customers by exact e-mail or any criterion the service takes, combined',
    request: SearchCustomersRequest,
    reply: lazySchema(() => recordList(CustomerEntry)),
  }),
  getCustomer: defineMessage('getCustomer', {
    group: 'customers',
    summary: 'One customer',
    request: GetCustomerRequest,
    reply: CustomerEntry,
  }),
  getCustomerHistory: defineMessage('getCustomerHistory', {
    group: 'customers',
    summary: 'Commercial history of a customer',
    request: GetCustomerHistoryRequest,
    reply: lazySchema(() => recordView('customerHistory')),
  }),
  listCustomerCredits: defineMessage('listCustomerCredits', {
    group: 'customers',
    summary: 'Credit notes and gift cards held by a customer',
    request: ListCustomerCreditsRequest,
    reply: lazySchema(() => recordList(CreditEntry)),
  }),
} as const;
