import { z } from 'zod';
import { ListPagination, listOf } from './pagination.ts';
import { Amount, Currency, DateTime, Id, IdFilter, limit, page } from './primitives.ts';
import { CustomerSummary } from './sales.ts';

export const savStatuses = [
  'open',
  'diagnosis',
  'in_repair',
  'waiting_parts',
  'ready',
  'closed',
  'cancelled',
] as const;

export const SavDeposit = z
  .object({ id: Id, amount: Amount, currency: Currency, receivedAt: DateTime, method: z.string() })
  .meta({ id: 'SavDeposit' });

export const Sav = z
  .object({
    uuid: Id,
    number: z.string(),
    status: z.enum(savStatuses),
    saleId: z.string().nullable(),
    shopId: z.string().nullable(),
    customer: CustomerSummary.nullable(),
    item: z.object({
      label: z.string(),
      reference: z.string().nullable(),
      serialNumber: z.string().nullable(),
    }),
    issue: z.string(),
    createdAt: DateTime,
    updatedAt: DateTime,
    deposits: z.array(SavDeposit).optional(),
  })
  .meta({
    id: 'Sav',
    'x-assumption':
      'Not shown. Number, status, the item and the issue; customer contact only with customers:pii:read, detailed deposits only with customer-credits:read.',
  });
export type Sav = z.infer<typeof Sav>;

export const SavQuery = z
  .strictObject({
    page,
    limit: limit(50),
    customerId: IdFilter.optional(),
    shopId: IdFilter.optional(),
    status: z.enum(savStatuses).optional(),
  })
  .meta({ 'x-assumption': 'Not shown; we assume page, limit, customerId, shopId and status.' });

export const SavReply = listOf(Sav, ListPagination).meta({ id: 'SavReply' });

export const SavLogEntry = z
  .object({ at: DateTime, status: z.enum(savStatuses), message: z.string() })
  .meta({
    id: 'SavLogEntry',
    'x-assumption': 'Not shown. The public log: time, status reached, public message.',
  });
export type SavLogEntry = z.infer<typeof SavLogEntry>;

export const SavLogQuery = z.strictObject({ page, limit: limit(50) }).meta({
  'x-assumption':
    'Not shown; the log is a list, so we assume page and limit as on the other lists.',
});

export const SavLogReply = listOf(SavLogEntry, ListPagination).meta({ id: 'SavLogReply' });
