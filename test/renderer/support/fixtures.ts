import type { Customer } from '../../../shared/api/customers.ts';
import type {
  CatalogStatus,
  GetProductReply,
  SearchHit,
  ShopAvailability,
} from '../../../shared/ipc/catalog.ts';
import type { MessageName, ReplyOf, RequestOf } from '../../../shared/ipc/contract.ts';
import type { IpcResult } from '../../../shared/ipc/errors.ts';
import type {
  DebitView,
  OutboxSummaryReply,
  ServiceGiftCard,
} from '../../../shared/ipc/gift-cards.ts';
import type { PrintJob } from '../../../shared/ipc/printing.ts';
import type { CreditEntry, CustomerEntry, ShopEntry } from '../../../shared/ipc/records.ts';
import {
  type RecordKind,
  defaultProfile,
  statusIn,
  viewOf,
} from '../../../shared/profile/index.ts';
import type {
  KioskSettings,
  KioskSettingsChanges,
  KioskStatus,
  SettingsReply,
} from '../../../shared/ipc/status.ts';

/** Sample records shaped by the contract's types, so a contract change breaks these first. */

/**
 * A service record (the sandbox's shape) as main hands it to the screens: read through the
 * default integration profile, exactly as `electron/kiosk/record-views.ts` does.
 */
export const asView = <K extends RecordKind>(kind: K, raw: unknown) =>
  viewOf(defaultProfile, kind, raw);

export const asCredit = (raw: unknown): CreditEntry => {
  const view = asView('credit', raw);
  return { ...view, isGiftCard: statusIn(defaultProfile.statuses.creditIsGiftCard, view.type) };
};

const asShop = (raw: { readonly id: string }): ShopEntry => ({
  ...asView('shop', raw),
  id: raw.id,
});

export const NOW = '2026-03-14T10:00:00.000Z';

export const shops: ShopEntry[] = [
  { id: 'shop_lyon', name: 'Lyon Part-Dieu', shortName: 'LYON', city: 'Lyon', postalCode: '69003' },
  {
    id: 'shop_paris',
    name: 'Paris Rivoli',
    shortName: 'PARIS',
    city: 'Paris',
    postalCode: '75004',
  },
].map(asShop);

export const status: KioskStatus = {
  connectivity: 'online',
  demo: true,
  host: 'browser',
  apiOrigin: 'http://127.0.0.1:4010',
  versions: { app: '0.1.0', node: '24.21.0', electron: null, chrome: null, api: 'v1' },
  credentials: { configured: true, backend: 'sandbox', writable: false, problem: null },
  startedAt: NOW,
};

export const offlineLimits: KioskSettings['offlineLimits'] = {
  maxOfflineDebitAmount: 150,
  maxPendingAmount: 1000,
  maxPendingAmountPerCard: 300,
  maxPendingCount: 50,
  maxAgeMs: 72 * 3_600_000,
};

export const settings: KioskSettings = {
  locale: 'en',
  shopId: null,
  printer: null,
  paperSize: null,
  apiBaseUrl: null,
  offlineLimits,
  profilePath: null,
  idleReturnSeconds: 90,
  scanMaxGapMs: 40,
  onScreenKeyboard: 'auto',
};

/** getSettings' reply around some settings, as main builds it (on the demo sandbox). */
export function settingsReply(
  overrides: Partial<KioskSettings> = {},
  extra: Partial<Omit<SettingsReply, 'settings'>> = {},
): SettingsReply {
  const current = { ...settings, ...overrides };
  return {
    settings: current,
    adminPinConfigured: true,
    credentials: status.credentials,
    sandboxAvailable: true,
    restartRequired: current.apiBaseUrl !== null,
    profile: {
      name: 'commerce-kiosk sandbox (default dialect)',
      source: 'default',
      path: null,
      error: null,
    },
    ...extra,
  };
}

/** What main does with a change: only the keys given, the limits one by one. */
export function applyChanges(base: KioskSettings, changes: KioskSettingsChanges): KioskSettings {
  const { offlineLimits: limits, ...rest } = changes;
  return {
    ...base,
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    offlineLimits: { ...base.offlineLimits, ...limits },
  };
}

export const catalogStatus: CatalogStatus = {
  ready: true,
  asOf: NOW,
  lastFullSync: null,
  lastWindow: null,
  nextSince: null,
  fullSyncDue: false,
  fullSyncInProgress: null,
  size: {
    products: 200,
    items: 600,
    shops: 2,
    categories: 10,
    characteristics: 5,
    productTypes: 3,
    databaseBytes: 1_000_000,
  },
  access: { mode: 'mirror', missingScopes: [] },
  lastError: null,
  syncing: null,
};

const statuses = [
  'available',
  'out_of_stock',
  'sold',
  'reserved',
  'withdrawn',
  'unsalable',
] as const;

export function item(
  index: number,
  shop: ShopEntry | null,
  status: (typeof statuses)[number] = 'available',
): ShopAvailability['items'][number] {
  return {
    uuid: `item_${index}`,
    code: `IT-${index}`,
    price: { inclTax: 199.99, exclTax: 166.66, currency: 'EUR' },
    promotionPrice: index === 0 ? { inclTax: 149.99, exclTax: 124.99, currency: 'EUR' } : null,
    quantity: 1,
    availability: {
      available: status === 'available',
      status,
      reason: status === 'withdrawn' ? 'recall' : null,
    },
    shop: shop && { id: shop.id, name: shop.name, shortName: shop.shortName, city: shop.city },
    characteristics: [],
    inStockDate: null,
    updatedAt: NOW,
  };
}

export function hit(index: number, overrides: Partial<SearchHit> = {}): SearchHit {
  return {
    uuid: `prod_${index}`,
    name: `Lave-linge ${index}`,
    reference: `LL-${index}`,
    ean: `3760000${String(index).padStart(6, '0')}`,
    category: null,
    displayedOnline: true,
    priceRange: { minInclTax: 399.99, maxInclTax: 449.99, currency: 'EUR' },
    promotionPriceRange: null,
    availableItemsCount: 3,
    stock: { available: true, totalQuantity: 3 },
    mainImage: null,
    shopItems: null,
    availableShops: null,
    ...overrides,
  };
}

/** A product whose items show each of the six statuses, spread over two shops. */
export const productDetail: GetProductReply = {
  source: 'mirror',
  asOf: NOW,
  product: {
    uuid: 'prod_1',
    reference: 'LL-1',
    ean: '3760000000001',
    name: 'Lave-linge 1',
    description: 'Hublot 8 kg',
    displayedOnline: true,
    quantityType: null,
    category: { id: 'cat_1', code: 'LL', label: 'Lave-linge' },
    supplier: null,
    priceRange: { minInclTax: 199.99, maxInclTax: 199.99, currency: 'EUR' },
    promotionPriceRange: { minInclTax: 149.99, maxInclTax: 149.99, currency: 'EUR' },
    availableItemsCount: 2,
    stock: { available: true, totalQuantity: 6 },
    media: [],
    mainImage: null,
    updatedAt: NOW,
    characteristics: [],
  },
  shops: [
    { shop: shops[1]!, items: statuses.slice(3).map((s, i) => item(i + 3, shops[1]!, s)) },
    { shop: shops[0]!, items: statuses.slice(0, 3).map((s, i) => item(i, shops[0]!, s)) },
  ],
};

export function customer(
  uuid: string,
  firstName: string,
  lastName: string,
  contact = true,
): CustomerEntry {
  const raw: Customer = {
    uuid,
    typeCustomer: 'individual',
    firstName,
    lastName,
    shopId: 'shop_lyon',
    billingDifferentAddress: false,
    communication: 'email',
    phoneCommunication: false,
    emailCommunication: true,
    personalInformations: false,
    createdAt: '2019-05-01T09:00:00.000Z',
    updatedAt: NOW,
    ...(contact
      ? {
          contact: {
            email: 'famille.moreau@example.com',
            phone: '+33 6 12 34 56 78',
            address: '3 rue Crébillon',
            postalCode: '44000',
            city: 'Nantes',
          },
        }
      : {}),
  };
  return { ...asView('customer', raw), id: uuid, isCompany: false };
}

/** A card as main hands it to the screen: read through the integration profile. */
export function serviceCard(overrides: Partial<ServiceGiftCard> = {}): ServiceGiftCard {
  return {
    source: 'service',
    id: 'gift_card_1',
    maskedNumber: '**** **** **** 4821',
    status: 'active',
    balance: 114.5,
    currency: 'EUR',
    expiresOn: '2027-01-31',
    usages: null,
    otherFields: [
      { name: 'initialAmount', value: 150 },
      { name: 'createdAt', value: '2025-01-31T10:00:00.000Z' },
    ],
    debitable: true,
    ...overrides,
  };
}

export const giftCard = serviceCard();

export function debit(overrides: Partial<DebitView> = {}): DebitView {
  return {
    id: 1,
    giftCardId: giftCard.id,
    amount: 20,
    reference: 'kiosk',
    policy: 'prefer_online',
    acceptedOffline: false,
    state: 'pending',
    attempts: 0,
    createdAt: NOW,
    updatedAt: NOW,
    lastAttemptAt: null,
    nextAttemptAt: NOW,
    lastError: null,
    newBalance: null,
    reply: null,
    settledAt: null,
    settledBy: null,
    acknowledged: false,
    requestId: null,
    ...overrides,
  };
}

export const outboxSummary: OutboxSummaryReply = {
  openCount: 0,
  openAmount: 0,
  oldestOpenAgeMs: null,
  sendingCount: 0,
  attention: { refused: 0, failed: 0, expired: 0, total: 0 },
  sender: { running: true, holdsLease: true, paused: null, gateUntil: null, inFlight: 0 },
  limits: offlineLimits,
};

export function printJob(overrides: Partial<PrintJob> = {}): PrintJob {
  return {
    id: 'job-1',
    kind: 'invoice',
    reference: 'sale_1',
    documentNumber: 'F-2026-0001',
    printer: 'kiosk-pdf',
    copies: 1,
    state: 'queued',
    problem: null,
    retries: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

/** A 1×1 PNG: the preview only has to be an image. */
export const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

type Replies = { [N in MessageName]: (request: RequestOf<N>) => IpcResult<ReplyOf<N>> };
const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });

export const defaultReplies: Replies = {
  searchProducts: () => ok({ source: 'mirror', asOf: NOW, hits: [hit(1), hit(2)] }),
  getProduct: () => ok(productDetail),
  listShops: () => ok({ source: 'mirror', shops }),
  getSyncStatus: () => ok(catalogStatus),
  syncNow: () => ok({ started: true, joined: false }),
  customerSearchCriteria: () => ok({ criteria: ['lastName', 'firstName', 'phone', 'postalCode'] }),
  searchCustomers: () => ok({ data: [], hasNextPage: false }),
  getCustomer: (request) => ok(customer(request.customerId, 'Hélène', 'Lefèvre')),
  getCustomerHistory: (request) =>
    ok(
      asView('customerHistory', {
        customerId: request.customerId,
        sales: [],
        sav: [],
        orders: [],
        credits: [],
      }),
    ),
  listCustomerCredits: () => ok({ data: [], hasNextPage: false }),
  getSale: () => ({ ok: false, error: { code: 'TEST_NOT_STUBBED', message: 'getSale' } }),
  findDocument: () => ok({ found: 'none', complete: true }),
  getInvoice: () => ({ ok: false, error: { code: 'TEST_NOT_STUBBED', message: 'getInvoice' } }),
  getSav: () => ({ ok: false, error: { code: 'TEST_NOT_STUBBED', message: 'getSav' } }),
  getSavLog: () => ok({ data: [], hasNextPage: false }),
  getGiftCard: () => ok(giftCard),
  listRecentCards: () => ok({ cards: [] }),
  debitGiftCard: (request) =>
    ok({
      debit: debit({ amount: request.amount, state: 'applied', newBalance: 94.5 }),
      delivery: 'send-now',
      connectivity: 'online',
      settled: true,
      replayed: false,
    }),
  listDebits: () => ok({ debits: [] }),
  sendOutboxNow: () => ok({ sender: outboxSummary.sender }),
  cancelDebit: (request) => ok(debit({ id: request.debitId, state: 'cancelled' })),
  acknowledgeDebit: (request) =>
    ok(debit({ id: request.debitId, state: 'refused', acknowledged: true })),
  resolveDebit: (request) =>
    ok(
      debit({
        id: request.debitId,
        state: 'refused',
        acknowledged: true,
        needsAttention: false,
        staffResolution: {
          kind: request.resolution.kind,
          method:
            request.resolution.kind === 'collected_other_way' ? request.resolution.method : null,
          at: '2026-11-23T18:00:00.000Z',
        },
      }),
    ),
  getDebitEvidence: (request) =>
    ok({
      debit: debit({ id: request.debitId }),
      keys: [],
      firstAttemptAt: null,
      balanceNow: null,
    }),
  resolveUnknownDebit: (request) =>
    ok(
      debit({
        id: request.debitId,
        state: request.outcome === 'applied' ? 'applied' : 'pending',
        staffOutcome: { outcome: request.outcome, by: request.by, at: '2026-11-23T18:00:00.000Z' },
      }),
    ),
  getDayReport: (request) => ok({ date: request.date, debits: [] }),
  getOutboxSummary: () => ok(outboxSummary),
  listPrinters: () =>
    ok({
      backend: 'cups',
      printers: [
        { name: 'kiosk-pdf', isDefault: true, state: 'idle', accepting: true, reason: null },
        { name: 'back-office', isDefault: false, state: 'stopped', accepting: false, reason: null },
      ],
      defaultPrinter: 'kiosk-pdf',
    }),
  printInvoice: (request) => ok(printJob({ reference: request.saleId })),
  printSavSlip: (request) => ok(printJob({ kind: 'sav-slip', reference: request.savId })),
  printDayReport: (request) => ok(printJob({ kind: 'day-report', reference: request.date })),
  getPrintJob: () => ok(printJob()),
  listPrintJobs: () => ok({ jobs: [] }),
  cancelPrintJob: () => ok(printJob({ state: 'cancelled' })),
  previewDocument: (request) =>
    ok({
      kind: request.kind,
      reference: request.reference,
      documentNumber: 'F-2026-0001',
      pdfBase64: 'JVBERi0=',
      firstPagePngBase64: PNG_1PX,
      pngUnavailable: null,
    }),
  getStatus: () => ok(status),
  checkConnectivity: () => ok({ connectivity: 'online' }),
  getSettings: () => ok(settingsReply()),
  updateSettings: (request) => ok(settingsReply(applyChanges(settings, request.changes))),
  setCredentials: () =>
    ok({ credentials: { configured: true, backend: 'keytar', writable: true, problem: null } }),
  testConnection: () =>
    ok({ ok: true, expiresAt: NOW, scopes: ['products:read'], apiVersion: '1.0.0', error: null }),
  checkAdminPin: (request) => ok({ valid: request.pin === '1234' }),
  checkContract: () =>
    ok({
      profileName: 'test',
      checkedAt: NOW,
      ok: true,
      operations: [],
      missingNeeded: [],
      notChecked: [],
      refused: [],
      debitBodyUndecided: [],
    }),
};
