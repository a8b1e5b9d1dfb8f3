/**
 * The kiosk's own model of every record the specification leaves 'not shown': the values the
 * kiosk displays or writes, each with the type it must have. The integration profile says where
 * each value lives in the service's reply; this table says what the kiosk does with it. One table
 * drives the profile's schema, the resolver, the IPC views, `kioskctl contract check` and
 * `kioskctl contract import`.
 */

export type ValueType = 'text' | 'money' | 'integer' | 'boolean' | 'date' | 'datetime';

export interface ScalarField {
  readonly type: ValueType;
  /** The kiosk cannot work without it: `contract check` fails when it does not resolve. */
  readonly needed?: true;
  /** Other names a vendor may use, for suggestions and for deriving a profile from a contract. */
  readonly synonyms?: readonly string[];
}

export interface ListField {
  readonly type: 'list';
  /** A key of `recordKinds`. */
  readonly of: string;
  readonly needed?: true;
  readonly synonyms?: readonly string[];
}

export type FieldSpec = ScalarField | ListField;

/** `uuid` or `id` as the spec names the resource's public identifier; `none` for entries. */
export type Identity = 'uuid' | 'id' | 'none';

export interface RecordSpec {
  readonly identity: Identity;
  readonly fields: Readonly<Record<string, FieldSpec>>;
}

// Each helper keeps its literal type, so `RecordViewOf` types a text as string, a money as number.
const text = (synonyms: string[] = [], needed?: true): ScalarField & { readonly type: 'text' } => ({
  type: 'text',
  synonyms,
  ...(needed ? { needed } : {}),
});
const money = (
  synonyms: string[] = [],
  needed?: true,
): ScalarField & { readonly type: 'money' } => ({
  type: 'money',
  synonyms,
  ...(needed ? { needed } : {}),
});
const datetime = (synonyms: string[] = []): ScalarField & { readonly type: 'datetime' } => ({
  type: 'datetime',
  synonyms,
});
const date = (synonyms: string[] = []): ScalarField & { readonly type: 'date' } => ({
  type: 'date',
  synonyms,
});

export const recordKinds = {
  /** The body of `GET /v1/ping`. */
  ping: {
    identity: 'none',
    fields: { version: text(['apiVersion', 'v1Version', 'release'], true) },
  },
  giftCard: {
    identity: 'id',
    fields: {
      maskedNumber: text(['masked', 'number', 'cardNumber', 'pan', 'last4']),
      status: text(['state', 'cardStatus', 'lifecycle'], true),
      balance: money(['remaining', 'remainingAmount', 'available', 'amountLeft', 'solde'], true),
      currency: text(['currencyCode', 'devise']),
      expiresOn: date(['expiry', 'expiration', 'expirationDate', 'validUntil', 'expiresAt']),
      usages: {
        type: 'list',
        of: 'giftCardUsage',
        synonyms: ['debits', 'transactions', 'movements', 'history'],
      },
    },
  },
  giftCardUsage: {
    identity: 'none',
    fields: {
      reference: text(
        ['memo', 'comment', 'label', 'note', 'externalReference', 'clientReference'],
        true,
      ),
      amount: money(['value', 'sum', 'debited']),
      at: datetime(['date', 'createdAt', 'occurredAt', 'timestamp', 'when']),
    },
  },
  debitReceipt: {
    identity: 'none',
    fields: {
      // The service's identifier of the debit (its usage): where it lives is not shown, so it is
      // read through the profile like any other value (the field `id` when the profile is silent).
      id: text(['uuid', 'usageId', 'transactionId', 'debitId', 'movementId']),
      balance: money(['remaining', 'remainingAmount', 'available', 'balanceAfter', 'newBalance']),
    },
  },
  sale: {
    identity: 'uuid',
    fields: {
      number: text(['reference', 'saleNumber', 'receiptNumber', 'ticket', 'code'], true),
      date: datetime(['createdAt', 'soldAt', 'at', 'saleDate']),
      status: text(['state']),
      shopId: text(['storeId', 'shop', 'store']),
      total: money(['totalInclTax', 'amount', 'grandTotal', 'totalAmount', 'inclTax']),
      amountPaid: money(['paid', 'paidAmount', 'settled']),
      remainingToPay: money(['due', 'balanceDue', 'outstanding', 'remaining']),
      hasInvoice: { type: 'boolean', synonyms: ['invoiced', 'invoiceAvailable'] },
      lines: { type: 'list', of: 'saleLine', synonyms: ['items', 'rows', 'articles', 'details'] },
      credits: {
        type: 'list',
        of: 'saleCredit',
        synonyms: ['creditsUsed', 'paidWith', 'payments', 'tenders'],
      },
    },
  },
  saleCredit: {
    identity: 'none',
    fields: {
      type: text(['kind', 'creditType', 'category']),
      amount: money(['value', 'amountUsed', 'used']),
      giftCardId: text(['creditId', 'cardId', 'giftCard', 'card']),
    },
  },
  saleLine: {
    identity: 'none',
    fields: {
      label: text(['name', 'designation', 'description', 'title']),
      quantity: { type: 'integer', synonyms: ['qty', 'count', 'units'] },
      total: money(['totalInclTax', 'amount', 'lineTotal']),
    },
  },
  invoice: {
    identity: 'id',
    fields: {
      number: text(['reference', 'invoiceNumber', 'code'], true),
      issuedAt: datetime(['date', 'createdAt', 'issueDate']),
      total: money(['totalInclTax', 'amount', 'grandTotal']),
    },
  },
  sav: {
    identity: 'uuid',
    fields: {
      number: text(['reference', 'caseNumber', 'ticket', 'code'], true),
      status: text(['state', 'stage']),
      createdAt: datetime(['openedAt', 'date', 'created']),
      itemLabel: text(['product', 'article', 'device', 'item']),
      issue: text(['problem', 'description', 'fault', 'complaint']),
    },
  },
  savLogEntry: {
    identity: 'none',
    fields: {
      at: datetime(['date', 'createdAt', 'timestamp', 'when']),
      status: text(['state', 'stage', 'step']),
      message: text(['text', 'comment', 'note', 'description', 'label']),
    },
  },
  customer: {
    identity: 'uuid',
    fields: {
      firstName: text(['givenName', 'forename', 'prenom']),
      lastName: text(['familyName', 'surname', 'name', 'nom']),
      customerType: text(['typeCustomer', 'type', 'kind', 'category']),
      shopId: text(['storeId', 'shop', 'homeShop']),
      createdAt: datetime(['since', 'registeredAt', 'created']),
      email: text(['mail', 'emailAddress']),
      phone: text(['telephone', 'mobile', 'phoneNumber']),
      address: text(['street', 'addressLine', 'line1']),
      postalCode: text(['zip', 'zipCode', 'postcode']),
      city: text(['town', 'locality']),
      internalComments: text(['comments', 'notes', 'internalNote']),
    },
  },
  credit: {
    identity: 'id',
    fields: {
      type: text(['kind', 'creditType', 'category']),
      label: text(['name', 'title', 'description']),
      remainingAmount: money(['balance', 'remaining', 'available', 'amountLeft']),
      status: text(['state']),
      expiresOn: date(['expiry', 'expiration', 'expirationDate', 'validUntil']),
      giftCardId: text(['cardId', 'giftCard', 'card']),
    },
  },
  customerHistory: {
    identity: 'none',
    fields: {
      sales: { type: 'list', of: 'historyEntry', synonyms: ['purchases', 'tickets'] },
      orders: { type: 'list', of: 'historyEntry', synonyms: ['orderList'] },
      sav: { type: 'list', of: 'historyEntry', synonyms: ['afterSales', 'repairs', 'cases'] },
      credits: { type: 'list', of: 'historyEntry', synonyms: ['creditNotes', 'vouchers'] },
    },
  },
  historyEntry: {
    identity: 'uuid',
    fields: {
      number: text(['reference', 'code', 'ticket']),
      date: datetime(['createdAt', 'at', 'openedAt']),
      status: text(['state', 'stage']),
      total: money(['totalInclTax', 'amount', 'grandTotal']),
    },
  },
  shop: {
    identity: 'id',
    fields: {
      name: text(['label', 'title', 'storeName'], true),
      shortName: text(['code', 'abbreviation']),
      city: text(['town', 'locality']),
    },
  },
  category: {
    identity: 'id',
    fields: {
      code: text(['key']),
      label: text(['name', 'title']),
      parentId: text(['parent', 'parentCategoryId']),
    },
  },
  productType: {
    identity: 'id',
    fields: { code: text(['key']), label: text(['name', 'title']) },
  },
  characteristic: {
    identity: 'id',
    fields: {
      code: text(['key']),
      label: text(['name', 'title']),
      source: text(['origin', 'scope']),
    },
  },
} as const satisfies Record<string, RecordSpec>;

export type RecordKind = keyof typeof recordKinds;
export const recordKindNames = Object.keys(recordKinds) as RecordKind[];

/** The names of a record kind's fields. */
export type FieldName<K extends RecordKind> = keyof (typeof recordKinds)[K]['fields'] & string;
