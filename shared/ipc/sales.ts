import { z } from 'zod';
import { Page, PageLimit, RecordId } from './common.ts';
import { defineMessage } from './message.ts';
import { recordList, recordView } from './records.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Sales, invoices and after-sales (SAV) cases: read-only, from the service, read through the
 * integration profile (`records.ts`).
 */

export const GetSaleRequest = lazySchema(() => z.strictObject({ saleId: RecordId }));
export type GetSaleRequest = z.input<typeof GetSaleRequest>;

export const GetSavRequest = lazySchema(() => z.strictObject({ savId: RecordId }));
export type GetSavRequest = z.input<typeof GetSavRequest>;

export const GetSavLogRequest = lazySchema(() =>
  z.strictObject({
    savId: RecordId,
    page: Page.optional(),
    limit: PageLimit.optional(),
  }),
);
export type GetSavLogRequest = z.input<typeof GetSavLogRequest>;

export const salesMessages = {
  getSale: defineMessage('getSale', {
    group: 'sales',
    summary: 'One sale',
    request: GetSaleRequest,
    reply: lazySchema(() => recordView('sale')),
  }),
  getInvoice: defineMessage('getInvoice', {
    group: 'sales',
    summary: "Metadata of a sale's invoice",
    request: GetSaleRequest,
    reply: lazySchema(() => recordView('invoice')),
  }),
} as const;

export const savMessages = {
  getSav: defineMessage('getSav', {
    group: 'sav',
    summary: 'One SAV case',
    request: GetSavRequest,
    reply: lazySchema(() => recordView('sav')),
  }),
  getSavLog: defineMessage('getSavLog', {
    group: 'sav',
    summary: 'Public log of a SAV case',
    request: GetSavLogRequest,
    reply: lazySchema(() => recordList(recordView('savLogEntry'))),
  }),
} as const;
