import { z } from 'zod';
import { creditTypes } from './customer-vocabulary.ts';
import { CustomerContact } from './customers.ts';
import { ListPagination, listOf } from './pagination.ts';
import { Amount, Currency, DateTime, Id, IdFilter, limit, page } from './primitives.ts';

/** The customer as a sale or SAV case names it; contact only with customers:pii:read. */
export const CustomerSummary = z
  .object({
    uuid: Id,
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    contact: CustomerContact.optional(),
  })
  .meta({ id: 'CustomerSummary' });

export const SaleLine = z
  .object({
    label: z.string(),
    reference: z.string().nullable(),
    productId: z.string().nullable(),
    itemId: z.string().nullable(),
    quantity: z.number().int(),
    unitPriceInclTax: Amount,
    totalInclTax: Amount,
  })
  .meta({ id: 'SaleLine' });

export const Totals = z
  .object({ exclTax: Amount, vat: Amount, inclTax: Amount, currency: Currency })
  .meta({ id: 'Totals' });

export const CreditUsed = z
  .object({
    creditId: Id,
    type: z.enum(creditTypes),
    amount: Amount,
    currency: Currency,
  })
  .meta({ id: 'CreditUsed' });

export const Sale = z
  .object({
    uuid: Id,
    number: z.string(),
    date: DateTime,
    shopId: z.string().nullable(),
    status: z.string(),
    customer: CustomerSummary.nullable(),
    lines: z.array(SaleLine),
    totals: Totals,
    amountPaid: Amount,
    remainingToPay: Amount,
    hasInvoice: z.boolean(),
    creditsUsed: z.array(CreditUsed).optional(),
  })
  .meta({
    id: 'Sale',
    'x-assumption':
      'Not shown. Number, date, shop, lines and totals as computed by the service; customer contact only with customers:pii:read, creditsUsed only with customer-credits:read.',
  });
export type Sale = z.infer<typeof Sale>;

export const SalesQuery = z
  .strictObject({
    page,
    limit: limit(50),
    customerId: IdFilter.optional(),
    shopId: IdFilter.optional(),
    since: DateTime.optional(),
    until: DateTime.optional(),
  })
  .meta({
    'x-assumption':
      'Not shown; we assume page, limit, customerId, shopId and a since/until date window.',
  });

export const SalesReply = listOf(Sale, ListPagination).meta({ id: 'SalesReply' });

export const Invoice = z
  .object({
    id: Id,
    saleId: Id,
    number: z.string(),
    issuedAt: DateTime,
    totalInclTax: Amount,
    currency: Currency,
    fileName: z.string(),
    contentType: z.literal('application/pdf'),
  })
  .meta({
    id: 'Invoice',
    'x-assumption': 'Not shown. Invoice number, issue time, total and the PDF file name.',
  });
export type Invoice = z.infer<typeof Invoice>;
