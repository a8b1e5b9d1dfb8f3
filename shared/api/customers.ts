import { z } from 'zod';
import { ListPagination, listOf } from './pagination.ts';
import {
  Amount,
  Currency,
  DateOnly,
  DateTime,
  Id,
  IdFilter,
  commaList,
  limit,
  page,
} from './primitives.ts';
import {
  communicationChannels,
  creditTypes,
  criterionMaxLength,
  customerIncludes,
  customerTypes,
  historyFamilies,
} from './customer-vocabulary.ts';

/** Contact data: PII, present only with customers:pii:read. */
export const CustomerContact = z
  .object({
    email: z.email().nullable(),
    phone: z.string().nullable(),
    address: z.string().nullable(),
    postalCode: z.string().nullable(),
    city: z.string().nullable(),
  })
  .meta({ id: 'CustomerContact' });
export type CustomerContact = z.infer<typeof CustomerContact>;

export const Customer = z
  .object({
    uuid: Id,
    typeCustomer: z.enum(customerTypes),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    shopId: z.string().nullable(),
    billingDifferentAddress: z.boolean(),
    communication: z.enum(communicationChannels),
    phoneCommunication: z.boolean(),
    emailCommunication: z.boolean(),
    personalInformations: z.boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
    contact: CustomerContact.optional(),
    internalComments: z.string().nullable().optional(),
  })
  .meta({
    id: 'Customer',
    'x-assumption':
      'The record is not shown. We assume the replacement-body fields plus uuid and timestamps; names are visible with customers:read, the contact block only with customers:pii:read, internalComments only when included with internal-comments:read.',
  });
export type Customer = z.infer<typeof Customer>;

export const CustomersQuery = z
  .strictObject({
    page,
    limit: limit(50),
    shopId: IdFilter.optional(),
    updatedSince: DateTime.optional(),
    email: z.string().min(1).max(criterionMaxLength.email).optional(),
    phone: z.string().min(1).max(criterionMaxLength.phone).optional(),
    include: commaList(customerIncludes).optional(),
  })
  .meta({
    'x-assumption':
      'Not shown. email and phone are the personal-data filters (customers:pii:read); include=contact,internalComments requests the sensitive blocks.',
  });

export const CustomerDetailQuery = z
  .strictObject({ include: commaList(customerIncludes).optional() })
  .meta({ 'x-assumption': 'Not shown; the same include values as the list.' });

export const CustomersReply = listOf(Customer, ListPagination).meta({ id: 'CustomersReply' });

export const matchModes = ['exact'] as const;

export const CustomerSearchQuery = z
  .strictObject({
    email: z.string().min(1).max(criterionMaxLength.email).optional(),
    phone: z.string().min(1).max(criterionMaxLength.phone).optional(),
    lastName: z.string().min(1).max(criterionMaxLength.lastName).optional(),
    firstName: z.string().min(1).max(criterionMaxLength.firstName).optional(),
    postalCode: z.string().min(1).max(criterionMaxLength.postalCode).optional(),
    matchMode: z.enum(matchModes).default('exact'),
    page,
    limit: limit(50),
  })
  .refine(
    (q) => [q.email, q.phone, q.lastName, q.firstName, q.postalCode].some((v) => v !== undefined),
    {
      message: 'at least one criterion (email, phone, lastName, firstName, postalCode) is required',
    },
  )
  .meta({
    'x-assumption':
      'Only email and matchMode=exact are shown. We assume phone, lastName, firstName and postalCode as further criteria combined with AND, at least one required, and page/limit as on the other lists.',
  });

export const CustomerSearchReply = listOf(Customer, ListPagination).meta({
  id: 'CustomerSearchReply',
});

export const CustomerReplacement = z
  .strictObject({
    typeCustomer: z.enum(customerTypes),
    firstName: z.string().min(1).max(100),
    lastName: z.string().min(1).max(100),
    email: z.email().optional(),
    billingDifferentAddress: z.boolean().optional(),
    communication: z.enum(communicationChannels).optional(),
    phoneCommunication: z.boolean().optional(),
    emailCommunication: z.boolean().optional(),
    personalInformations: z.boolean().optional(),
    shopId: Id.optional(),
  })
  .meta({
    id: 'CustomerReplacement',
    'x-assumption':
      'Which fields are required and the allowed values are not shown. We assume typeCustomer, firstName and lastName required; omitted optional fields are cleared or reset to false/none.',
  });
export type CustomerReplacement = z.infer<typeof CustomerReplacement>;

export const Credit = z
  .object({
    id: Id,
    type: z.enum(creditTypes),
    label: z.string(),
    initialAmount: Amount,
    remainingAmount: Amount,
    currency: Currency,
    status: z.enum(['active', 'used', 'expired', 'cancelled']),
    createdAt: DateTime,
    expiresOn: DateOnly.nullable(),
    giftCardId: z.string().nullable(),
  })
  .meta({
    id: 'Credit',
    'x-assumption':
      'Not shown. A credit note or a gift card held by the customer, amounts computed by the service.',
  });
export type Credit = z.infer<typeof Credit>;

export const CreditsQuery = z
  .strictObject({ page, limit: limit(50), types: commaList(creditTypes).optional() })
  .meta({
    'x-assumption': 'Not shown; types filters the credit kinds (gift_card needs gift-cards:read).',
  });

export const CreditsReply = listOf(Credit, ListPagination).meta({ id: 'CreditsReply' });

export const HistoryEntry = z
  .object({
    uuid: Id,
    number: z.string(),
    date: DateTime,
    status: z.string(),
    shopId: z.string().nullable(),
    totalInclTax: Amount.nullable(),
    currency: Currency,
  })
  .meta({
    id: 'HistoryEntry',
    'x-assumption':
      'Not shown. One summary shape for every family: the durable uuid, number, date, status, total.',
  });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryQuery = z
  .strictObject({ include: commaList(historyFamilies).optional() })
  .meta({
    'x-assumption': 'Not shown; include chooses families, default all that the scopes allow.',
  });

export const CustomerHistory = z
  .object({
    customerId: Id,
    sales: z.array(HistoryEntry).optional(),
    orders: z.array(HistoryEntry).optional(),
    sav: z.array(HistoryEntry).optional(),
    credits: z.array(HistoryEntry).optional(),
  })
  .meta({
    id: 'CustomerHistory',
    'x-assumption':
      'Not shown. One array per family; a family is absent when unauthorized or not requested.',
  });
export type CustomerHistory = z.infer<typeof CustomerHistory>;
