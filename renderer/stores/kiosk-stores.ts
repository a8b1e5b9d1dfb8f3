import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { Locale } from '../i18n/locale.ts';
import { createAvailabilityStore, type AvailabilityStore } from './availability-store.ts';
import { createCatalogStatusStore, type CatalogStatusStore } from './catalog-status-store.ts';
import { createConnectivityStore, type ConnectivityStore } from './connectivity-store.ts';
import { createCustomerStore, type CustomerStore } from './customer-store.ts';
import { createDocumentStore, type DocumentStore } from './document-store.ts';
import { createGiftCardStore, type GiftCardStore } from './gift-card-store.ts';
import { createLocaleStore, type LocaleStore } from './locale-store.ts';
import { createNavigationStore, type NavigationStore } from './navigation-store.ts';
import { createOutboxStore, type OutboxStore } from './outbox-store.ts';
import { createPrinterStore, type PrinterStore } from './printer-store.ts';
import { createSetupStore, type SetupStore } from './setup-store.ts';

/** One store per concern; screens read the ones they need through the React context. */
export interface KioskStores {
  readonly locale: LocaleStore;
  readonly navigation: NavigationStore;
  readonly connectivity: ConnectivityStore;
  readonly catalogStatus: CatalogStatusStore;
  readonly outbox: OutboxStore;
  readonly printers: PrinterStore;
  readonly availability: AvailabilityStore;
  readonly customers: CustomerStore;
  readonly giftCard: GiftCardStore;
  readonly documents: DocumentStore;
  readonly setup: SetupStore;
}

export function createKioskStores(api: KioskApi, locale: Locale): KioskStores {
  const printers = createPrinterStore(api);
  const connectivity = createConnectivityStore(api);
  return {
    locale: createLocaleStore(locale),
    navigation: createNavigationStore(),
    connectivity,
    catalogStatus: createCatalogStatusStore(api),
    outbox: createOutboxStore(api),
    printers,
    availability: createAvailabilityStore(api),
    customers: createCustomerStore(api),
    giftCard: createGiftCardStore(api, () => connectivity.getState().connectivity),
    documents: createDocumentStore(
      api,
      (job) => printers.getState().applyJob(job),
      (jobId) => printers.getState().jobs[jobId],
    ),
    setup: createSetupStore(api),
  };
}

export interface StartOptions {
  /** Printers have no events: their state is read again this often. */
  readonly printerPollMs?: number;
  /** The catalogue's as-of time and the outbox ages, as a safety net beside the events. */
  readonly statusPollMs?: number;
  /**
   * The status bar's first reads wait for this (the app passes "the first screen is drawn, and
   * the page is idle"): each reply is checked on the page's one thread, and read in the middle
   * of the first render they would hold the products back for what the status bar shows a
   * moment later anyway.
   */
  readonly statusAfter?: Promise<unknown>;
}

/**
 * Wires main's events into the stores and reads the first state. Returns the function that
 * undoes it all (listeners, timers): the app calls it on unmount, tests after each case.
 */
export function startKioskStores(
  api: KioskApi,
  stores: KioskStores,
  { printerPollMs = 10_000, statusPollMs = 60_000, statusAfter }: StartOptions = {},
): () => void {
  const stops = [
    api.onConnectivityChanged((event) => {
      stores.connectivity.getState().applyEvent(event);
      if (event.to !== 'offline' && event.from === 'offline') {
        // Back online: what was computed while away may have moved.
        void stores.outbox.getState().refresh();
        void stores.catalogStatus.getState().load();
      }
    }),
    api.onOutboxChanged((event) => {
      stores.outbox.getState().applyEvent(event);
      stores.giftCard.getState().applyEvent(event);
    }),
    api.onSyncProgress((event) => stores.catalogStatus.getState().applyEvent(event)),
    api.onPrintJobChanged((job) => {
      stores.printers.getState().applyJob(job);
      // A job that ends or is held up says something about its printer: the status bar must not
      // keep saying "ready" until the next poll.
      const finished =
        job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled';
      if (finished || job.problem !== null) void stores.printers.getState().load();
    }),
    stores.setup.subscribe((state, previous) => {
      const now = state.settings?.settings;
      const before = previous.settings?.settings;
      if (!now || now === before) return;
      // Credentials configured but no service chosen: the kiosk opens on setup, which says why.
      if (!before && state.settings?.credentials.problem?.code === 'API_BASE_URL_REQUIRED')
        stores.navigation.getState().go('setup');
      // At start-up the kiosk's language is the setting's (main's default is the system
      // language); later, a saved change. A staff switch in the status bar lasts until then.
      if (!before || now.locale !== before.locale) stores.locale.getState().setLocale(now.locale);
      if (now.shopId !== before?.shopId)
        stores.availability.getState().applyDefaultShop(now.shopId);
      if (before && now.printer !== before.printer) void stores.printers.getState().load();
      // The outbox applied the new limits at once; its summary shows them.
      if (before && JSON.stringify(now.offlineLimits) !== JSON.stringify(before.offlineLimits)) {
        void stores.outbox.getState().refresh();
      }
    }),
  ];

  void (async () => {
    // The first screen's data first: the kiosk's shop decides the first search, and the
    // browser host's few connections must not be taken by the status bar's requests before it.
    // The shop list is only the picker's: a slow one (asked of the service while the mirror has
    // none) must not hold the products back.
    void stores.availability.getState().loadShops();
    await stores.setup.getState().load();
    // Without a kiosk shop (or settings) the list starts on every shop.
    if (stores.availability.getState().meta === null && !stores.availability.getState().searching) {
      void stores.availability.getState().search();
    }
    await statusAfter;
    void stores.connectivity.getState().load();
    void stores.catalogStatus.getState().load();
    void stores.outbox.getState().refresh();
    void stores.printers.getState().load();
    void stores.printers.getState().loadJobs();
  })();

  const timers = [
    setInterval(() => void stores.printers.getState().load(), printerPollMs),
    setInterval(() => {
      void stores.catalogStatus.getState().load();
      void stores.outbox.getState().refresh();
    }, statusPollMs),
  ];

  return () => {
    for (const stop of stops) stop();
    for (const timer of timers) clearInterval(timer);
    // The gift-card screen's questions about debits whose outcome it has not shown yet.
    stores.giftCard.getState().dispose();
  };
}
