import { z } from 'zod';
import { Text } from '../api/primitives.ts';
import { defineMessage } from './message.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * A sale, invoice or SAV case found by what staff have in hand: the number printed on the
 * customer's receipt (or the service's own identifier). The spec shows no search by number, so
 * main reads the lists page by page through the integration profile, up to a bound, and says
 * whether the search covered everything when it finds nothing.
 */

export const FindDocumentRequest = lazySchema(() =>
  z.strictObject({
    /** A sale number, an invoice number, a SAV case number, or a record's identifier. */
    number: Text.trim().min(1).max(64),
  }),
);
export type FindDocumentRequest = z.input<typeof FindDocumentRequest>;

export const FindDocumentReply = lazySchema(() =>
  z.discriminatedUnion('found', [
    z.strictObject({
      found: z.literal('sale'),
      saleId: z.string(),
      /** The sale's number as the service gives it; null when the profile cannot find one. */
      number: z.string().nullable(),
      /** Whether an invoice has been issued; null when the service does not say. */
      hasInvoice: z.boolean().nullable(),
    }),
    z.strictObject({
      found: z.literal('invoice'),
      saleId: z.string(),
      number: z.string().nullable(),
    }),
    z.strictObject({
      found: z.literal('sav'),
      savId: z.string(),
      number: z.string().nullable(),
    }),
    z.strictObject({
      found: z.literal('none'),
      /** False when the lists were longer than the kiosk reads: an older record may exist. */
      complete: z.boolean(),
    }),
  ]),
);
export type FindDocumentReply = z.infer<typeof FindDocumentReply>;

export const documentMessages = {
  findDocument: defineMessage('findDocument', {
    group: 'sales',
    summary: 'A sale, invoice or SAV case by the number on the receipt, or by its identifier',
    request: FindDocumentRequest,
    reply: FindDocumentReply,
  }),
} as const;
