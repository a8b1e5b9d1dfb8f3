import type { MessageName, RequestOf } from '../../../shared/ipc/contract.ts';

/**
 * One valid request per message (the ids are the sandbox's demo records). The type makes a new
 * message without a sample a compile error, so the property tests always cover every channel.
 */
export const validRequests: { readonly [N in MessageName]: RequestOf<N> } = {
  searchProducts: { text: 'glacons', limit: 5 },
  getProduct: { productId: 'prod_e656b8f34cdb2579' },
  listShops: {},
  getSyncStatus: {},
  syncNow: { full: false },
  searchCustomers: { email: 'famille.moreau@example.com', lastName: 'Moreau' },
  getCustomer: { customerId: 'customer_d7fec614-a393-43e6-9a5e-219599816ba6' },
  getCustomerHistory: { customerId: 'customer_d7fec614-a393-43e6-9a5e-219599816ba6' },
  listCustomerCredits: { customerId: 'customer_d7fec614-a393-43e6-9a5e-219599816ba6' },
  getSale: { saleId: 'sale_18bdd0dd-0fcb-486f-bc29-d12bc3013fc1' },
  getInvoice: { saleId: 'sale_18bdd0dd-0fcb-486f-bc29-d12bc3013fc1' },
  getSav: { savId: 'sav_59fbe45d-07bc-451b-9353-6350decefec2' },
  getSavLog: { savId: 'sav_59fbe45d-07bc-451b-9353-6350decefec2' },
  getGiftCard: { giftCardId: 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81' },
  listRecentCards: { limit: 5 },
  debitGiftCard: {
    requestId: '5f0c1f2e-8a3b-4c6d-9e7f-0a1b2c3d4e5f',
    giftCardId: 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81',
    amount: 1.5,
    policy: 'prefer_online',
  },
  listDebits: { view: 'open' },
  sendOutboxNow: {},
  cancelDebit: { debitId: 1 },
  acknowledgeDebit: { debitId: 1 },
  resolveDebit: { debitId: 1, resolution: { kind: 'collected_other_way', method: 'cash' } },
  getDayReport: { date: '2026-11-23' },
  getOutboxSummary: {},
  listPrinters: {},
  printInvoice: {
    requestId: '7d3e9a41-2b6c-4f80-9a1d-3c5e7f9b1d20',
    saleId: 'sale_18bdd0dd-0fcb-486f-bc29-d12bc3013fc1',
  },
  printSavSlip: {
    requestId: '0e8b5c2a-6d4f-4a19-8b7e-2f1a3c5d7e90',
    savId: 'sav_59fbe45d-07bc-451b-9353-6350decefec2',
  },
  printDayReport: {
    requestId: '4a6c8e0f-1b3d-4f5a-9c7e-8d0f2b4a6c81',
    date: '2026-11-23',
    labels: {
      locale: 'en-IE',
      title: 'End-of-day report: gift-card debits',
      empty: 'No debit that day.',
      offline: 'taken offline',
      unresolved: 'Not resolved',
      states: {
        pending: 'Waiting',
        sending: 'Sending',
        applied: 'Applied',
        refused: 'Refused',
        failed: 'Failed',
        expired: 'Expired',
        cancelled: 'Cancelled',
      },
      resolutions: {
        collected_other_way: 'Collected another way',
        could_not_collect: 'Could not collect',
      },
      methods: { cash: 'Cash', card: 'Bank card', other: 'Other' },
    },
  },
  getPrintJob: { jobId: '0b9c6c39-7f0e-4a43-9a43-0f1f3f0c2a11' },
  listPrintJobs: {},
  cancelPrintJob: { jobId: '0b9c6c39-7f0e-4a43-9a43-0f1f3f0c2a11' },
  previewDocument: { kind: 'invoice', reference: 'sale_18bdd0dd-0fcb-486f-bc29-d12bc3013fc1' },
  getStatus: {},
  checkConnectivity: {},
  getSettings: {},
  updateSettings: {
    adminPin: '1234',
    changes: {
      locale: 'en',
      apiBaseUrl: 'https://commerce.example.com/api',
      offlineLimits: { maxOfflineDebitAmount: 80, maxPendingCount: 20 },
    },
  },
  setCredentials: { adminPin: '1234', email: 'kiosk@example.com', password: 'secret' },
  testConnection: {},
  checkAdminPin: { pin: '1234' },
  checkContract: {},
};
