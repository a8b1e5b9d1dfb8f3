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
} from '../../shared/api/gift-cards.ts';
import type { OperationName } from '../../shared/api/operations.ts';
import type { ItemEntry } from '../../shared/api/catalog.ts';
import type {
  Category,
  Characteristic,
  CharacteristicValue,
  ProductType,
  Shop,
} from '../../shared/api/referentials.ts';
import type { Invoice, Sale } from '../../shared/api/sales.ts';
import type { Sav, SavLogEntry } from '../../shared/api/sav.ts';
import { invalidRequest } from '../server/errors.ts';
import type { Dialect } from './dialect.ts';

/**
 * The `minimal` dialect: a strict service that answers exactly what the specification shows and
 * nothing more. Every query parameter the spec does not list for a route is refused (400
 * `unknown parameter`); 'not shown' records carry their identifier and a few fields under names
 * unlike the default dialect's; the item routes return the spec's item entry; characteristic
 * values have no `id`; a gift card's usage list is always empty; the debit body takes only
 * `amount` and `reference`. Its profile is `minimal.profile.json`. What the kiosk sends to it
 * must therefore come from the spec or from that profile (`docs/integrating.md`, "What the kiosk
 * sends and requires").
 */

type Json = Record<string, unknown>;

/**
 * The query parameters the specification lists for each route, with the line that lists them.
 * A route not here takes none.
 */
export const specQueryParameters: Partial<Record<OperationName, readonly string[]>> = {
  // "GET /v1/catalog/changes" query parameter table.
  listCatalogChanges: ['since', 'until', 'types', 'shopId', 'page', 'limit'],
  // "GET /v1/catalog/products" query parameter table.
  listCatalogProducts: [
    'page',
    'limit',
    'updatedSince',
    'shopUuid',
    'availableOnly',
    'displayedOnline',
  ],
  // "GET /v1/products" query parameter table.
  listProducts: [
    'page',
    'limit',
    'search',
    'displayedOnline',
    'availableOnly',
    'updatedSince',
    'supplierId',
    'productTypeId',
    'categoryId',
    'shopId',
    'include',
  ],
  // Operation list, GET /v1/products/{productId}: "when `include` asks `stock` or `items`, or a
  // shop is used for availability" (the shop under the list's name, `shopId`).
  getProduct: ['include', 'shopId'],
  // Customer routes: "query parameter `email` (string) and `matchMode`".
  searchCustomers: ['email', 'matchMode'],
  // Operation list, credits: "when filter `types` contains `gift_card`".
  listCustomerCredits: ['types'],
  // Operation list, history: "each family requested in `include`".
  getCustomerHistory: ['include'],
  // GET /v1/gift-cards: "`include` accepts `customer`, `origin`, `usages`, `invoice`".
  getGiftCard: ['include'],
};

const unknownParameter = (name: string) =>
  invalidRequest(`unknown parameter \`${name}\` (unknown parameters are refused)`);

function translateQuery(
  operation: OperationName,
  sent: Readonly<Record<string, string>>,
): Record<string, string> {
  const allowed = specQueryParameters[operation] ?? [];
  for (const name of Object.keys(sent)) if (!allowed.includes(name)) throw unknownParameter(name);
  // This service returns contact data whenever the account may read it: it takes no parameter
  // asking for it. The default handlers below want the sandbox's `include=contact`.
  if (operation === 'getCustomer' || operation === 'listCustomers') {
    return { ...sent, include: 'contact' };
  }
  return { ...sent };
}

/** The debit as this dialect takes it: `amount` and `reference`, nothing else. */
const MinimalDebit = z.strictObject({ amount: DebitAmount, reference: DebitReference });

function translateBody(operation: OperationName, json: unknown): unknown {
  if (operation !== 'debitGiftCard') return json;
  const result = MinimalDebit.safeParse(json);
  if (!result.success) {
    const { issues } = result.error;
    const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
    if (unknown?.code === 'unrecognized_keys')
      throw invalidRequest(`unknown field \`${unknown.keys[0] ?? ''}\``);
    const issue = issues[0];
    const where = issue?.path.map(String).join('.') ?? '';
    throw invalidRequest(`body field \`${where}\`: ${issue?.message ?? 'invalid'}`);
  }
  const body: GiftCardDebit = {
    amount: result.data.amount,
    currency: 'EUR',
    reference: result.data.reference,
  };
  return body;
}

export const minimalCardStates = { active: 'open', inactive: 'closed', expired: 'lapsed' };

function giftCard(card: GiftCard): Json {
  return {
    id: card.id,
    masked: card.maskedNumber,
    state: minimalCardStates[card.status],
    remaining: card.balance,
    // The usages this service returns: none (a fresh account, or a service that keeps them apart).
    ...(card.usages === undefined ? {} : { movements: [] }),
  };
}

function debitReceipt(receipt: GiftCardDebitReceipt): Json {
  return { id: receipt.id, left: receipt.balance };
}

function sale(record: Sale): Json {
  return {
    uuid: record.uuid,
    ticket: record.number,
    soldAt: record.date,
    due: record.totals.inclTax,
    invoiced: record.hasInvoice,
  };
}

function invoice(record: Invoice): Json {
  return { id: record.id, invoiceNo: record.number, issued: record.issuedAt };
}

function sav(record: Sav): Json {
  return { uuid: record.uuid, file: record.number, stage: record.status };
}

function savLogEntry(entry: SavLogEntry): Json {
  return { on: entry.at, note: entry.message };
}

function customer(record: Customer): Json {
  return {
    uuid: record.uuid,
    given: record.firstName,
    family: record.lastName,
    ...(record.contact === undefined
      ? {}
      : { mail: record.contact.email, tel: record.contact.phone, zip: record.contact.postalCode }),
  };
}

function credit(record: Credit): Json {
  return {
    id: record.id,
    kind: record.type,
    left: record.remainingAmount,
    card: record.giftCardId,
  };
}

function historyEntry(entry: HistoryEntry): Json {
  return { uuid: entry.uuid, ref: entry.number, on: entry.date };
}

function history(record: CustomerHistory): Json {
  const reshaped: Json = {};
  for (const family of ['sales', 'orders', 'sav', 'credits'] as const) {
    const entries = record[family];
    if (entries !== undefined) reshaped[family] = entries.map(historyEntry);
  }
  return reshaped;
}

const shop = (record: Shop): Json => ({ id: record.id, title: record.name });
const category = (record: Category): Json => ({ id: record.id, title: record.label });
const productType = (record: ProductType): Json => ({ id: record.id, title: record.label });
const characteristic = (record: Characteristic): Json => ({
  id: record.id,
  key: record.code,
  title: record.label,
});
const characteristicValue = (record: CharacteristicValue): Json => ({ value: record.value });

/** The spec's item entry, exactly: the default dialect's `productId` is left out. */
function itemEntry(item: ItemEntry & { productId?: string }): Json {
  const { productId: _productId, ...entry } = item;
  return entry;
}

/** A list of 'not shown' records: `data` and the pagination every list has, nothing more. */
const list =
  <T>(reshape: (record: T) => Json) =>
  (reply: { data: T[]; pagination: unknown }) => ({
    data: reply.data.map(reshape),
    pagination: reply.pagination,
  });

/** The change feed without the optional `productId`: the kiosk must find an item's product alone. */
function changes(reply: { changes: Json[] }): Json {
  return {
    ...reply,
    changes: reply.changes.map(({ productId: _productId, ...change }) => change),
  };
}

const replies: Partial<Record<OperationName, (json: never) => unknown>> = {
  listCatalogChanges: changes,
  ping: (ping: Ping) => ({ revision: ping.version }),
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
  listCategories: list(category),
  listProductTypes: list(productType),
  listCharacteristics: list(characteristic),
  listCharacteristicValues: list(characteristicValue),
  getProductItem: itemEntry,
  listProductItems: list(itemEntry),
  listProductItemsOfProduct: list(itemEntry),
};

export const minimalDialect: Dialect = {
  name: 'minimal',
  query: translateQuery,
  body: translateBody,
  reply: (operation, json) => {
    const reshape = replies[operation] as ((json: unknown) => unknown) | undefined;
    return reshape ? reshape(json) : json;
  },
};
