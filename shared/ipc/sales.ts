import { z } from 'zod';
import { Invoice, Sale } from '../api/sales.ts';
import { Sav, SavLogReply } from '../api/sav.ts';
import { Page, PageLimit, RecordId } from './common.ts';
import { defineMessage } from './message.ts';

/** Sales, invoices and after-sales (SAV) cases: read-only, straight from the service. */

export const GetSaleRequest = z.strictObject({ saleId: RecordId });
export type GetSaleRequest = z.input<typeof GetSaleRequest>;

export const GetSavRequest = z.strictObject({ savId: RecordId });
export type GetSavRequest = z.input<typeof GetSavRequest>;

export const GetSavLogRequest = z.strictObject({
  savId: RecordId,
  page: Page.optional(),
  limit: PageLimit.optional(),
});
export type GetSavLogRequest = z.input<typeof GetSavLogRequest>;

export const salesMessages = {
  getSale: defineMessage('getSale', {
    group: 'sales',
    summary: 'One sale',
    request: GetSaleRequest,
    reply: Sale,
  }),
  getInvoice: defineMessage('getInvoice', {
    group: 'sales',
    summary: "Metadata of a sale's invoice",
    request: GetSaleRequest,
    reply: Invoice,
  }),
} as const;

export const savMessages = {
  getSav: defineMessage('getSav', {
    group: 'sav',
    summary: 'One SAV case',
    request: GetSavRequest,
    reply: Sav,
  }),
  getSavLog: defineMessage('getSavLog', {
    group: 'sav',
    summary: 'Public log of a SAV case',
    request: GetSavLogRequest,
    reply: SavLogReply,
  }),
} as const;
