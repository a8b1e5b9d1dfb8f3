import { z } from 'zod';
import {
  type FieldSpec,
  type RecordKind,
  type RecordViewOf,
  type ValueType,
  recordKinds,
} from '../profile/index.ts';

/**
 * The records the specification leaves 'not shown', as they cross to the renderer: resolved in
 * the main process through the integration profile (`shared/profile`), each value typed or null
 * ('not provided by the service'), and every other scalar the service returned in `otherFields`,
 * so staff see all it gave. The renderer never sees the service's own shapes.
 */

const valueSchemas: Record<ValueType, z.ZodType> = {
  text: z.string(),
  money: z.number(),
  integer: z.number().int(),
  boolean: z.boolean(),
  date: z.string(),
  datetime: z.string(),
};

export const OtherField = z.strictObject({
  name: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});

const cache = new Map<RecordKind, z.ZodType>();

/** The IPC schema of a resolved record of this kind. */
export function recordView<K extends RecordKind>(kind: K): z.ZodType<RecordViewOf<K>> {
  let schema = cache.get(kind);
  if (!schema) {
    const fields = recordKinds[kind].fields as Record<string, FieldSpec>;
    schema = z.strictObject({
      id: z.string().nullable(),
      otherFields: z.array(OtherField),
      ...Object.fromEntries(
        Object.entries(fields).map(([name, spec]) => [
          name,
          (spec.type === 'list'
            ? z.array(z.lazy(() => recordView(spec.of as RecordKind)))
            : valueSchemas[spec.type]
          ).nullable(),
        ]),
      ),
    });
    cache.set(kind, schema);
  }
  return schema as z.ZodType<RecordViewOf<K>>;
}

export type GiftCardView = RecordViewOf<'giftCard'>;
export type SaleView = RecordViewOf<'sale'>;
export type InvoiceView = RecordViewOf<'invoice'>;
export type SavView = RecordViewOf<'sav'>;
export type SavLogEntryView = RecordViewOf<'savLogEntry'>;
export type CustomerView = RecordViewOf<'customer'>;
export type CreditView = RecordViewOf<'credit'>;
export type CustomerHistoryView = RecordViewOf<'customerHistory'>;
export type HistoryEntryView = RecordViewOf<'historyEntry'>;
export type ShopView = RecordViewOf<'shop'>;
