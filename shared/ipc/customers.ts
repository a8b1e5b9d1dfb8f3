import { z } from 'zod';
import { creditTypes, criterionMaxLength, historyFamilies } from '../api/customers.ts';
import { Text } from '../api/primitives.ts';
import { Page, PageLimit, RecordId } from './common.ts';
import { defineMessage } from './message.ts';
import { CreditEntry, CustomerEntry, recordList, recordView } from './records.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Customer lookup at the counter, by the exact e-mail address (the API's `matchMode=exact`), which
 * nobody can guess their way through. A second fact the customer states (name, phone or postal
 * code) is optional: staff add it when several customers share the address, and every criterion
 * given must match. Never a partial match, never a search without the e-mail address.
 */
export const SearchCustomersRequest = lazySchema(() =>
  z.strictObject({
    email: z.email().max(criterionMaxLength.email),
    lastName: Text.trim().min(1).max(criterionMaxLength.lastName).optional(),
    firstName: Text.trim().min(1).max(criterionMaxLength.firstName).optional(),
    phone: Text.trim().min(1).max(criterionMaxLength.phone).optional(),
    postalCode: Text.trim().min(1).max(criterionMaxLength.postalCode).optional(),
    page: Page.optional(),
    limit: PageLimit.optional(),
  }),
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

export const customerMessages = {
  searchCustomers: defineMessage('searchCustomers', {
    group: 'customers',
    summary: 'Find customers by exact e-mail, optionally confirmed by a second criterion',
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
