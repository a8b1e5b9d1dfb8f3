import openApiDocument from '../../shared/api/openapi.json' with { type: 'json' };
import { type OperationName, operations } from '../../shared/api/operations.ts';
import { creditKinds, customerKinds, giftCardStatuses, savStages } from './alternate.ts';

/**
 * The vendor's contract of the `alternate` dialect (`alternate.openapi.json`): what an
 * integrator receives from a service shaped like it, to import with `kioskctl contract import`.
 * What the spec shows is taken from the project's own document; every 'not shown' record,
 * parameter and the debit body are replaced by the dialect's shapes, and the project's own
 * notes (`x-assumption`, `x-pagination`) are left out, as a vendor's document would not carry them.
 * `node build/write-alternate-openapi.ts` rewrites it; a test fails when it is stale.
 */

type Schema = Record<string, unknown>;

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const text = (description: string, extra: Schema = {}): Schema => ({
  type: 'string',
  description,
  ...extra,
});
const nullableText = (description: string, extra: Schema = {}) =>
  text(description, { nullable: true, ...extra });
const money = (description: string, extra: Schema = {}): Schema => ({
  type: 'number',
  description,
  ...extra,
});
const dateTime = (description: string, extra: Schema = {}) =>
  text(description, { format: 'date-time', ...extra });
const date = (description: string, extra: Schema = {}) =>
  text(description, { format: 'date', ...extra });
const id = (description: string) => text(description, { minLength: 1 });
const arrayOf = (items: Schema, description: string): Schema => ({
  type: 'array',
  description,
  items,
});
const object = (
  description: string,
  properties: Record<string, Schema>,
  required: readonly string[] = Object.keys(properties),
  extra: Schema = {},
): Schema => ({ type: 'object', description, properties, required: [...required], ...extra });

const contact = ref('CustomerContact');

const schemas: Record<string, Schema> = {
  Ping: object('API status.', { apiVersion: text('Version of the V1 API, e.g. 1.0.0.') }),

  GiftCardMovement: object('A movement on the card.', {
    id: id('Movement identifier.'),
    value: money('Amount debited, EUR.'),
    when: dateTime('When the movement was recorded.'),
    memo: nullableText('Free text given by the client with the debit.'),
    saleId: nullableText('Sale the movement paid, if any.'),
  }),
  GiftCard: object(
    'A gift card. The card number is never returned, only its masked PAN.',
    {
      id: id('Gift card identifier.'),
      pan: text('Masked card number.'),
      status: text('Card state.', { enum: Object.values(giftCardStatuses) }),
      funds: object('Amounts of the card, EUR, computed by the service.', {
        initial: money('Amount loaded at sale.'),
        remaining: money('Amount left to spend.'),
      }),
      currency: text('ISO 4217 currency.', { enum: ['EUR'] }),
      validUntil: date('Last day the card can be used.', { nullable: true }),
      createdAt: dateTime('Card creation.'),
      customer: object(
        'Holder (include=customer).',
        {
          uuid: id('Customer uuid.'),
          firstName: nullableText('First name.'),
          lastName: nullableText('Last name.'),
        },
        ['uuid', 'firstName', 'lastName'],
        { nullable: true },
      ),
      origin: object('Where the card was sold (include=origin).', {
        saleId: nullableText('Sale.'),
        shopId: nullableText('Shop.'),
        soldAt: dateTime('Sale time.'),
      }),
      movements: arrayOf(ref('GiftCardMovement'), 'Debits of the card (include=usages).'),
      invoice: object(
        'Invoice of the card sale (include=invoice).',
        { id: id('Invoice.'), number: text('Invoice number.'), saleId: id('Sale.') },
        ['id', 'number', 'saleId'],
        { nullable: true },
      ),
    },
    ['id', 'pan', 'status', 'funds', 'currency', 'validUntil', 'createdAt'],
  ),
  GiftCardDebit: object(
    'A debit request. Amounts are EUR; no currency is taken.',
    {
      debit: object('What to debit.', {
        value: money('Amount to debit, EUR, two decimals at most.', {
          minimum: 0,
          exclusiveMinimum: true,
          maximum: 100000,
        }),
      }),
      memo: text('Free text kept with the movement (letters, digits, spaces, . : / # - _).', {
        minLength: 1,
        maxLength: 64,
      }),
      storeId: id('Shop where the card is used.'),
    },
    ['debit'],
    { additionalProperties: false },
  ),
  GiftCardDebitReceipt: object('The recorded debit.', {
    id: id('Movement identifier.'),
    remaining: money('Amount left on the card after the debit.'),
    when: dateTime('When the debit was recorded.'),
    memo: nullableText('The memo sent with the debit.'),
  }),

  SaleItem: object('A line of the sale.', {
    name: text('Article name.'),
    sku: nullableText('Article reference.'),
    productId: nullableText('Product.'),
    itemId: nullableText('Physical item.'),
    qty: { type: 'integer', description: 'Quantity.' },
    unitPrice: money('Unit price incl. VAT.'),
    lineTotal: money('Line total incl. VAT.'),
  }),
  SalePayment: object('A credit used to pay the sale.', {
    cardId: id('The credit: a gift card or a credit note.'),
    kind: text('What the credit is.', { enum: ['GIFT_CARD', 'CREDIT_NOTE'] }),
    value: money('Amount paid with it, EUR.'),
  }),
  CustomerSummary: object(
    'Customer of the record; contact details need customers:pii:read.',
    {
      uuid: id('Customer uuid.'),
      firstName: nullableText('First name.'),
      lastName: nullableText('Last name.'),
      contactDetails: contact,
    },
    ['uuid', 'firstName', 'lastName'],
    { nullable: true },
  ),
  Sale: object(
    'A sale.',
    {
      uuid: id('Sale uuid.'),
      reference: text('Receipt reference.'),
      date: dateTime('Sale time.'),
      shopId: nullableText('Shop.'),
      customer: ref('CustomerSummary'),
      items: arrayOf(ref('SaleItem'), 'Lines.'),
      grandTotal: money('Total incl. VAT, EUR.'),
      currency: text('ISO 4217 currency.', { enum: ['EUR'] }),
      amountPaid: money('Amount paid so far.'),
      remainingToPay: money('Amount still due.'),
      paidWith: arrayOf(ref('SalePayment'), 'Credits used to pay (customer-credits:read).'),
    },
    [
      'uuid',
      'reference',
      'date',
      'shopId',
      'customer',
      'items',
      'grandTotal',
      'currency',
      'amountPaid',
      'remainingToPay',
    ],
  ),
  Invoice: object('Invoice metadata.', {
    id: id('Invoice identifier.'),
    saleId: id('Sale.'),
    invoiceNumber: text('Invoice number.'),
    issuedAt: dateTime('Issue time.'),
    totalInclTax: money('Total incl. VAT, EUR.'),
    currency: text('ISO 4217 currency.', { enum: ['EUR'] }),
    fileName: text('PDF file name.'),
    contentType: text('PDF media type.', { enum: ['application/pdf'] }),
  }),
  Sav: object(
    'An after-sales case.',
    {
      uuid: id('Case uuid.'),
      caseNumber: text('Case number.'),
      stage: text('Where the case stands.', { enum: Object.values(savStages) }),
      customer: ref('CustomerSummary'),
      saleId: nullableText('Sale of the article.'),
      shopId: nullableText('Shop.'),
      item: object('The article.', {
        label: text('Article name.'),
        reference: nullableText('Article reference.'),
        serialNumber: nullableText('Serial number.'),
      }),
      issue: text('Reported problem.'),
      createdAt: dateTime('Opening time.'),
      updatedAt: dateTime('Last change.'),
      deposits: arrayOf(ref('SavDeposit'), 'Deposits (customer-credits:read).'),
    },
    [
      'uuid',
      'caseNumber',
      'stage',
      'customer',
      'saleId',
      'shopId',
      'item',
      'issue',
      'createdAt',
      'updatedAt',
    ],
  ),
  SavLogEntry: object('A public step of the case.', {
    when: dateTime('Time of the step.'),
    stage: text('Stage reached.', { enum: Object.values(savStages) }),
    text: text('Public message.'),
  }),
  Customer: object(
    'A customer.',
    {
      uuid: id('Customer uuid.'),
      kind: text('Customer kind.', { enum: Object.values(customerKinds) }),
      firstName: nullableText('First name.'),
      lastName: nullableText('Last name.'),
      shopId: nullableText('Home shop.'),
      billingDifferentAddress: { type: 'boolean', description: 'Billing address differs.' },
      communication: text('Preferred channel.', { enum: ['none', 'email', 'sms', 'post'] }),
      phoneCommunication: { type: 'boolean', description: 'Accepts phone contact.' },
      emailCommunication: { type: 'boolean', description: 'Accepts e-mail contact.' },
      personalInformations: { type: 'boolean', description: 'Consents to data use.' },
      registeredAt: dateTime('Registration time.'),
      updatedAt: dateTime('Last change.'),
      contactDetails: contact,
      internalComments: nullableText('Internal comments (internal-comments:read).'),
    },
    [
      'uuid',
      'kind',
      'firstName',
      'lastName',
      'shopId',
      'billingDifferentAddress',
      'communication',
      'phoneCommunication',
      'emailCommunication',
      'personalInformations',
      'registeredAt',
      'updatedAt',
    ],
  ),
  Credit: object('A credit held by the customer.', {
    id: id('Credit identifier.'),
    kind: text('Credit kind.', { enum: Object.values(creditKinds) }),
    label: text('Label.'),
    initialAmount: money('Initial amount, EUR.'),
    currency: text('ISO 4217 currency.', { enum: ['EUR'] }),
    status: text('Credit state.', { enum: ['active', 'used', 'expired', 'cancelled'] }),
    createdAt: dateTime('Creation time.'),
    expiresOn: date('Expiry date.', { nullable: true }),
    balance: money('Amount left, EUR.'),
    cardId: nullableText('Gift card, for a gift-card credit.'),
  }),
  HistoryEntry: object('A record of the history.', {
    uuid: id('Record uuid.'),
    reference: text('Reference.'),
    date: dateTime('Date.'),
    status: text('State.'),
    shopId: nullableText('Shop.'),
    currency: text('ISO 4217 currency.', { enum: ['EUR'] }),
    grandTotal: money('Total incl. VAT, EUR.', { nullable: true }),
  }),
  Shop: object('A shop.', {
    id: id('Shop identifier.'),
    label: text('Shop name.'),
    shortName: nullableText('Short name.'),
    city: nullableText('City.'),
  }),
  Category: object('A category.', {
    id: id('Category identifier.'),
    code: nullableText('Code.'),
    name: nullableText('Name.'),
    parentId: nullableText('Parent category.'),
  }),
  ProductType: object('A product type.', {
    id: id('Product type identifier.'),
    code: nullableText('Code.'),
    name: nullableText('Name.'),
  }),
  Characteristic: object('A characteristic.', {
    id: id('Characteristic identifier.'),
    code: text('Code.'),
    name: text('Name.'),
    source: text('Where it applies.', { enum: ['product', 'item'] }),
  }),
};

/** Components of the project's document the dialect has no use for. */
const dropped = ['GiftCardUsage', 'SaleLine', 'Totals'];

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

const pageNumber: Parameter = {
  name: 'pageNumber',
  in: 'query',
  required: false,
  description: 'Page to return, from 1.',
  schema: { type: 'integer', minimum: 1, default: 1 },
};
const pageSize: Parameter = {
  name: 'pageSize',
  in: 'query',
  required: false,
  description: 'Records per page, 1 to 500.',
  schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
};
const stage: Parameter = {
  name: 'stage',
  in: 'query',
  required: false,
  description: 'Only cases at this stage.',
  schema: { type: 'string', enum: Object.values(savStages) },
};

const unpaged = new Set<OperationName>(['searchCustomers', 'getSavLog']);
const productItemRoutes = new Set<OperationName>(['listProductItems', 'listProductItemsOfProduct']);

/** The dialect's query parameters of one operation, from the project's. */
function parametersOf(name: OperationName, parameters: readonly Parameter[]): Parameter[] {
  // Only the lists whose parameters the spec does not show: products and the catalogue keep theirs.
  if (operations[name].pagination !== 'list') return [...parameters];
  const paged = !unpaged.has(name);
  return parameters.flatMap((parameter): Parameter[] => {
    if (parameter.in !== 'query') return [parameter];
    if (parameter.name === 'page') return paged ? [pageNumber] : [];
    if (parameter.name === 'limit') return paged ? [pageSize] : [];
    if (parameter.name === 'availableOnly' && productItemRoutes.has(name)) return [];
    if (parameter.name === 'status' && name === 'listSav') return [stage];
    return [parameter];
  });
}

/** Every member named `x-assumption` or `x-pagination` left out, at every depth. */
function withoutProjectNotes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutProjectNotes);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'x-assumption' && key !== 'x-pagination')
      .map(([key, value]) => [key, withoutProjectNotes(value)]),
  );
}

type Document = {
  info: Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
  paths: Record<string, Record<string, { operationId: OperationName; parameters?: Parameter[] }>>;
};

export function buildAlternateOpenApiDocument(): unknown {
  // A copy of the committed contract document (shared/api/openapi.json): the imported module is
  // shared by every importer, and what follows rewrites the document in place.
  const document = withoutProjectNotes(
    structuredClone(openApiDocument as unknown as Document),
  ) as Document;
  document.info = {
    title: 'Commerce External API V1',
    version: '1.0.0',
    license: { name: 'Proprietary' },
    description:
      'Commerce External API V1, the reference contract. Clients follow this document on any difference with the written specification.',
  };
  for (const name of dropped) delete document.components.schemas[name];
  Object.assign(document.components.schemas, schemas);
  for (const methods of Object.values(document.paths)) {
    for (const operation of Object.values(methods)) {
      if (operation.parameters) {
        operation.parameters = parametersOf(operation.operationId, operation.parameters);
        if (operation.parameters.length === 0) delete operation.parameters;
      }
    }
  }
  return document;
}

/** The committed file's text: two-space JSON and a final newline. */
export function alternateOpenApiText(): string {
  return `${JSON.stringify(buildAlternateOpenApiDocument(), null, 2)}\n`;
}
