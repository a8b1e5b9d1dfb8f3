import { z } from 'zod';
import type { Ping } from '../../shared/api/auth.ts';
import type {
  Credit,
  Customer,
  CustomerHistory,
  HistoryEntry,
} from '../../shared/api/customers.ts';
import {
  DebitAmount,
  DebitReference,
  type GiftCard,
  type GiftCardDebit,
  type GiftCardDebitReceipt,
  type GiftCardUsage,
} from '../../shared/api/gift-cards.ts';
import { type OperationName, operations } from '../../shared/api/operations.ts';
import { Id } from '../../shared/api/primitives.ts';
import type { Shop } from '../../shared/api/referentials.ts';
import type { Invoice, Sale } from '../../shared/api/sales.ts';
import type { Sav, SavLogEntry } from '../../shared/api/sav.ts';
import { invalidRequest } from '../server/errors.ts';
import type { Dialect } from './dialect.ts';

/**
 * The `alternate` dialect: a service that follows the specification exactly where it shows
 * something, and shapes everything it leaves 'not shown' its own way (renamed fields, fields
 * missing, other nesting, other status words, other parameter names, a debit body without
 * currency). It proves the kiosk reads through its integration profile
 * (`alternate.profile.json`), not through the default dialect's guesses.
 */

type Json = Record<string, unknown>;

export const giftCardStatuses = { active: 'ACTIVE', inactive: 'BLOCKED', expired: 'EXPIRED' };
export const savStages = {
  open: 'RECEIVED',
  diagnosis: 'DIAGNOSING',
  in_repair: 'REPAIRING',
  waiting_parts: 'AWAITING_PARTS',
  ready: 'READY_FOR_PICKUP',
  closed: 'RETURNED',
  cancelled: 'CANCELLED',
} as const;
export const customerKinds = { individual: 'PERSON', company: 'COMPANY' } as const;
export const creditKinds = { gift_card: 'GIFT_CARD', credit_note: 'CREDIT_NOTE' } as const;

const word = <K extends string>(table: Readonly<Record<K, string>>, value: K): string =>
  table[value] ?? value;

/** The not-shown lists that take `pageNumber`/`pageSize`; the two below take no paging at all. */
const unpaged = new Set<OperationName>(['searchCustomers', 'getSavLog']);
const paged = new Set<OperationName>(
  (Object.keys(operations) as OperationName[]).filter(
    (name) => operations[name].pagination === 'list' && !unpaged.has(name),
  ),
);
const productItemRoutes = new Set<OperationName>(['listProductItems', 'listProductItemsOfProduct']);

const unknownParameter = (name: string) =>
  invalidRequest(`unknown query parameter \`${name}\` (unknown parameters are refused)`);

function translateQuery(
  operation: OperationName,
  sent: Readonly<Record<string, string>>,
): Record<string, string> {
  const query = { ...sent };
  const refuse = (...names: string[]) => {
    for (const name of names) if (Object.hasOwn(query, name)) throw unknownParameter(name);
  };
  if (unpaged.has(operation)) refuse('page', 'limit', 'pageNumber', 'pageSize');
  if (productItemRoutes.has(operation)) refuse('availableOnly');
  if (paged.has(operation)) {
    refuse('page', 'limit');
    rename(query, 'pageNumber', 'page');
    rename(query, 'pageSize', 'limit');
  }
  if (operation === 'listSav') {
    refuse('status');
    if (query['stage'] !== undefined) {
      const stage = query['stage'];
      const status = Object.entries(savStages).find(([, alternate]) => alternate === stage)?.[0];
      if (status === undefined)
        throw invalidRequest(
          `query parameter \`stage\`: one of ${Object.values(savStages).join(', ')}`,
        );
      delete query['stage'];
      query['status'] = status;
    }
  }
  return query;
}

function rename(query: Record<string, string>, from: string, to: string): void {
  const value = query[from];
  if (value === undefined) return;
  delete query[from];
  query[to] = value;
}

/** The debit as this dialect takes it: the amount under `debit.value`, no currency. */
const AlternateDebit = z.strictObject({
  debit: z.strictObject({ value: DebitAmount }),
  memo: DebitReference.optional(),
  storeId: Id.optional(),
});

function translateBody(operation: OperationName, json: unknown): unknown {
  if (operation !== 'debitGiftCard') return json;
  const result = AlternateDebit.safeParse(json);
  if (!result.success) {
    // An unknown field first: the most useful thing to say to a client sending another shape.
    const { issues } = result.error;
    const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
    if (unknown?.code === 'unrecognized_keys')
      throw invalidRequest(`unknown field \`${[...unknown.path, unknown.keys[0]].join('.')}\``);
    const issue = issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    const message = issue?.message ?? 'invalid';
    throw invalidRequest(where === '' ? `body: ${message}` : `body field \`${where}\`: ${message}`);
  }
  const { debit, memo, storeId } = result.data;
  const body: GiftCardDebit = {
    amount: debit.value,
    currency: 'EUR',
    ...(memo === undefined ? {} : { reference: memo }),
    ...(storeId === undefined ? {} : { shopId: storeId }),
  };
  return body;
}

function movement(usage: GiftCardUsage): Json {
  return {
    id: usage.id,
    value: usage.amount,
    when: usage.at,
    memo: usage.reference,
    saleId: usage.saleId,
  };
}

function giftCard(card: GiftCard): Json {
  const { maskedNumber, status, initialAmount, balance, expiresOn, usages, ...rest } = card;
  return {
    id: rest.id,
    pan: maskedNumber,
    status: word(giftCardStatuses, status),
    funds: { initial: initialAmount, remaining: balance },
    currency: rest.currency,
    validUntil: expiresOn,
    createdAt: rest.createdAt,
    ...('customer' in rest ? { customer: rest.customer } : {}),
    ...('origin' in rest ? { origin: rest.origin } : {}),
    ...(usages === undefined ? {} : { movements: usages.map(movement) }),
    ...('invoice' in rest ? { invoice: rest.invoice } : {}),
  };
}

function debitReceipt(receipt: GiftCardDebitReceipt): Json {
  return { id: receipt.id, remaining: receipt.balance, when: receipt.at, memo: receipt.reference };
}

function sale(record: Sale): Json {
  const { uuid, number, status: _status, hasInvoice: _hasInvoice, lines, totals, ...rest } = record;
  return {
    uuid,
    reference: number,
    date: rest.date,
    shopId: rest.shopId,
    customer: rest.customer === null ? null : customerSummary(rest.customer),
    items: lines.map((line) => ({
      name: line.label,
      sku: line.reference,
      productId: line.productId,
      itemId: line.itemId,
      qty: line.quantity,
      unitPrice: line.unitPriceInclTax,
      lineTotal: line.totalInclTax,
    })),
    grandTotal: totals.inclTax,
    currency: totals.currency,
    amountPaid: rest.amountPaid,
    remainingToPay: rest.remainingToPay,
    ...(rest.creditsUsed === undefined
      ? {}
      : {
          paidWith: rest.creditsUsed.map((credit) => ({
            cardId: credit.creditId,
            kind: word(creditKinds, credit.type),
            value: credit.amount,
          })),
        }),
  };
}

function customerSummary(summary: NonNullable<Sale['customer']>): Json {
  const { contact, ...rest } = summary;
  return { ...rest, ...(contact === undefined ? {} : { contactDetails: contact }) };
}

function invoice(record: Invoice): Json {
  const { number, ...rest } = record;
  return { invoiceNumber: number, ...rest };
}

function sav(record: Sav): Json {
  const { uuid, number, status, customer, ...rest } = record;
  return {
    uuid,
    caseNumber: number,
    stage: word(savStages, status),
    customer: customer === null ? null : customerSummary(customer),
    ...rest,
  };
}

function savLogEntry(entry: SavLogEntry): Json {
  return { when: entry.at, stage: word(savStages, entry.status), text: entry.message };
}

function customer(record: Customer): Json {
  const { uuid, typeCustomer, createdAt, contact, internalComments, ...rest } = record;
  return {
    uuid,
    kind: word(customerKinds, typeCustomer),
    ...rest,
    registeredAt: createdAt,
    ...(contact === undefined ? {} : { contactDetails: contact }),
    ...(internalComments === undefined ? {} : { internalComments }),
  };
}

function credit(record: Credit): Json {
  const { id, type, remainingAmount, giftCardId, ...rest } = record;
  return {
    id,
    kind: word(creditKinds, type),
    ...rest,
    balance: remainingAmount,
    cardId: giftCardId,
  };
}

function historyEntry(entry: HistoryEntry): Json {
  const { uuid, number, totalInclTax, ...rest } = entry;
  return { uuid, reference: number, ...rest, grandTotal: totalInclTax };
}

function history(record: CustomerHistory): Json {
  const families = ['sales', 'orders', 'sav', 'credits'] as const;
  const reshaped: Json = { customerId: record.customerId };
  for (const family of families) {
    const entries = record[family];
    if (entries !== undefined) reshaped[family] = entries.map(historyEntry);
  }
  return reshaped;
}

function shop(record: Shop): Json {
  return { id: record.id, label: record.name, shortName: record.shortName, city: record.city };
}

function named(record: { id: string; label: string | null }): Json {
  const { id, label, ...rest } = record;
  return { id, name: label, ...rest };
}

const list =
  <T>(reshape: (record: T) => Json) =>
  (reply: { data: T[]; pagination: unknown }) => ({ ...reply, data: reply.data.map(reshape) });

/** The success reply of each operation whose records the spec does not show. */
const replies: Partial<Record<OperationName, (json: never) => unknown>> = {
  ping: (ping: Ping) => ({ apiVersion: ping.version }),
  getGiftCard: giftCard,
  debitGiftCard: debitReceipt,
  listSales: list(sale),
  getSale: sale,
  getSaleInvoice: invoice,
  listSav: list(sav),
  getSav: sav,
  getSavLog: list(savLogEntry),
  listCustomers: list(customer),
  searchCustomers: list(customer),
  getCustomer: customer,
  replaceCustomer: customer,
  listCustomerCredits: list(credit),
  getCustomerHistory: history,
  listShops: list(shop),
  listCategories: list(named),
  listProductTypes: list(named),
  listCharacteristics: list(named),
};

export const alternateDialect: Dialect = {
  name: 'alternate',
  query: translateQuery,
  body: translateBody,
  reply: (operation, json) => {
    const reshape = replies[operation] as ((json: unknown) => unknown) | undefined;
    return reshape ? reshape(json) : json;
  },
};
