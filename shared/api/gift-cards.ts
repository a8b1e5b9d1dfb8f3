import { z } from 'zod';
import { Amount, Currency, DateOnly, DateTime, Id, commaList } from './primitives.ts';

export const giftCardIncludes = ['customer', 'origin', 'usages', 'invoice'] as const;

export const GiftCardUsage = z
  .object({
    id: Id,
    amount: Amount,
    currency: Currency,
    at: DateTime,
    reference: z.string().nullable(),
    saleId: z.string().nullable(),
  })
  .meta({ id: 'GiftCardUsage' });
export type GiftCardUsage = z.infer<typeof GiftCardUsage>;

export const GiftCard = z
  .object({
    id: Id,
    maskedNumber: z.string(),
    status: z.enum(['active', 'inactive', 'expired']),
    initialAmount: Amount,
    balance: Amount,
    currency: Currency,
    expiresOn: DateOnly.nullable(),
    createdAt: DateTime,
    customer: z
      .object({ uuid: Id, firstName: z.string().nullable(), lastName: z.string().nullable() })
      .nullable()
      .optional(),
    origin: z
      .object({ saleId: z.string().nullable(), shopId: z.string().nullable(), soldAt: DateTime })
      .optional(),
    usages: z.array(GiftCardUsage).optional(),
    invoice: z.object({ id: Id, number: z.string(), saleId: Id }).nullable().optional(),
  })
  .meta({
    id: 'GiftCard',
    'x-assumption':
      'Not shown. A masked number only, the balance computed by the service; each include block is omitted when its scope is missing.',
  });
export type GiftCard = z.infer<typeof GiftCard>;

export const GiftCardQuery = z.strictObject({ include: commaList(giftCardIncludes).optional() });

/**
 * Cents matter: a debit is a positive EUR amount with at most two decimals. The one rule of every
 * door that takes a debit (this body, the IPC message, `kioskctl outbox enqueue --amount`).
 */
export const DebitAmount = z
  .number()
  .positive()
  .max(100_000)
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    message: 'amount has more than two decimals',
  });

/**
 * A debit reference: letters, digits, spaces and `. : / # - _`, 1 to 64 characters. It ends up in
 * the service's usages, on receipts and in our logs, so nothing that could be personal data (an
 * e-mail address) and no line break (a forged log or receipt line). The callers' reference
 * (`shared/ipc/gift-cards.ts`, `CallerDebitReference`) is this rule with room for the outbox's
 * unique suffix.
 */
export const DebitReference = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[\w .:/#-]+$/, { message: 'letters, digits, spaces and . : / # - _ only' });

export const GiftCardDebit = z
  .strictObject({
    amount: DebitAmount,
    currency: Currency,
    reference: DebitReference.optional(),
    shopId: Id.optional(),
  })
  .meta({
    id: 'GiftCardDebit',
    'x-assumption':
      'The body is not shown. We assume the amount to debit in EUR, the currency, an optional client reference (found back in the usages; we send only letters, digits, spaces and . : / # - _) and the shop.',
  });
export type GiftCardDebit = z.infer<typeof GiftCardDebit>;

export const GiftCardDebitReceipt = z
  .object({
    id: Id,
    giftCardId: Id,
    amount: Amount,
    currency: Currency,
    reference: z.string().nullable(),
    balance: Amount,
    at: DateTime,
  })
  .meta({
    id: 'GiftCardDebitReceipt',
    'x-assumption':
      'The reply is not shown. We assume the recorded usage with the balance after the debit, as computed by the service.',
  });
export type GiftCardDebitReceipt = z.infer<typeof GiftCardDebitReceipt>;

export const IdempotencyKeyHeader = z.strictObject({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .meta({ description: 'One unique key per logical write.' }),
});
