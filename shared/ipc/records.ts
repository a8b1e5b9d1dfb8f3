import { z } from 'zod';
import {
  type FieldSpec,
  type RecordKind,
  type RecordViewOf,
  type ValueType,
  recordKinds,
} from '../profile/index.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * The records the specification leaves 'not shown', as they cross to the renderer: resolved in
 * the main process through the integration profile (`shared/profile`), each value typed or null
 * ('not provided by the service'), and every other scalar the service returned in `otherFields`,
 * so staff see all it gave. The renderer never sees the service's own shapes.
 */

const valueSchemas: Record<ValueType, z.ZodType> = {
  text: lazySchema(() => z.string()),
  money: lazySchema(() => z.number()),
  integer: lazySchema(() => z.number().int()),
  boolean: lazySchema(() => z.boolean()),
  date: lazySchema(() => z.string()),
  datetime: lazySchema(() => z.string()),
};

export const OtherField = lazySchema(() =>
  z.strictObject({
    name: z.string(),
    value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  }),
);

/**
 * The fields of a resolved record of this kind, as a zod shape: for an IPC reply that carries a
 * view together with values of its own (`.extend` a `z.strictObject` of it).
 */
export function recordViewShape(kind: RecordKind): Record<string, z.ZodType> {
  const fields = recordKinds[kind].fields as Record<string, FieldSpec>;
  return {
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
  };
}

const cache = new Map<RecordKind, z.ZodType>();

/** The IPC schema of a resolved record of this kind. */
export function recordView<K extends RecordKind>(kind: K): z.ZodType<RecordViewOf<K>> {
  let schema = cache.get(kind);
  if (!schema) {
    schema = z.strictObject(recordViewShape(kind));
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

/**
 * A list of resolved records and whether the service has more: `hasNextPage` is false when the
 * reply says nothing of a next page (its pagination is not shown either).
 */
export function recordList<T extends z.ZodType>(entry: T) {
  return z.strictObject({ data: z.array(entry), hasNextPage: z.boolean() });
}

/** A record the kiosk opens by its identifier: the client checked it, so it is never null. */
const identified = (kind: RecordKind) =>
  z.strictObject(recordViewShape(kind)).extend({ id: z.string().min(1) });

/** A customer, with `isCompany` by the profile's `statuses.customerIsCompany` (null: unknown). */
export type CustomerEntry = Omit<CustomerView, 'id'> & {
  readonly id: string;
  readonly isCompany: boolean | null;
};
export const CustomerEntry = lazySchema(
  () =>
    identified('customer').extend({
      isCompany: z.boolean().nullable(),
    }) as unknown as z.ZodType<CustomerEntry, CustomerEntry>,
);

/** A credit, with `isGiftCard` by the profile's `statuses.creditIsGiftCard` (null: unknown). */
export type CreditEntry = CreditView & { readonly isGiftCard: boolean | null };
export const CreditEntry = lazySchema(
  () =>
    z
      .strictObject(recordViewShape('credit'))
      .extend({ isGiftCard: z.boolean().nullable() }) as unknown as z.ZodType<
      CreditEntry,
      CreditEntry
    >,
);

/** A shop of the picker: its id is what the kiosk sends back. */
export type ShopEntry = Omit<ShopView, 'id'> & { readonly id: string };
export const ShopEntry = lazySchema(
  () => identified('shop') as unknown as z.ZodType<ShopEntry, ShopEntry>,
);
