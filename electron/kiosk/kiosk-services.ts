import { createRequire } from 'node:module';
import type { Shop } from '../../shared/api/referentials.ts';
import type { EventName, EventPayloadOf } from '../../shared/ipc/contract.ts';
import { ipcErrorCodes } from '../../shared/ipc/errors.ts';
import type { DebitView, KioskSettings } from '../../shared/ipc/index.ts';
import { localeOfTag } from '../../shared/ipc/status.ts';
import { type CommerceApiClient, createApiClient } from '../api/client.ts';
import { CatalogQueries } from '../catalog/availability.ts';
import { readReferential } from '../catalog/referentials.ts';
import { liveTables } from '../catalog/schema.ts';
import { onlineProbeOf } from '../catalog/source.ts';
import { type CatalogSyncOptions, CatalogSyncService } from '../catalog/sync-service.ts';
import { safeMessage, toIpcError } from '../ipc/error-mapping.ts';
import type { KioskEventSource } from '../ipc/event-publisher.ts';
import { IpcFailure } from '../ipc/ipc-failure.ts';
import type { HandlerReply, KioskHandlers } from '../ipc/router.ts';
import { originOf } from '../ipc/sender-check.ts';
import { type Logger, silentLogger } from '../logging/redacting-logger.ts';
import { connectivityOf, createApiGateway, outboxClientRetry } from '../outbox/api-gateway.ts';
import { type OfflineLimits, resolveLimits } from '../outbox/limits.ts';
import { Outbox } from '../outbox/outbox.ts';
import { OutboxSender } from '../outbox/sender.ts';
import type { OutboxDebit } from '../outbox/store.ts';
import { apiDocumentSource } from '../printing/api-document-source.ts';
import { PrintError, type PrintBackend } from '../printing/backend.ts';
import { type PrintingConfig, chooseBackend } from '../printing/choose-backend.ts';
import { DocumentSpool } from '../printing/document.ts';
import type { ElectronPrintHost } from '../printing/electron-backend.ts';
import { previewDocument } from '../printing/preview.ts';
import { PrintQueue } from '../printing/print-queue.ts';
import { type KioskDatabase, openDatabase } from '../storage/database.ts';
import { AdminPin } from './admin-pin.ts';
import type { KioskCredentials } from './credential-store.ts';
import { SettingsStore } from './settings-store.ts';
import { debitView, outboxEventView, printJobView, printerView, senderView } from './views.ts';

export interface KioskServicesOptions {
  /** Where the database, settings and print spool live. */
  readonly dataDir: string;
  /** Where the settings file lives when not in `dataDir` (a demo's throw-away data directory). */
  readonly settingsDir?: string;
  readonly api: {
    readonly baseUrl: string;
    /** The embedded sandbox: the UI shows a 'demo' badge. */
    readonly demo: boolean;
    /**
     * The host can start the embedded sandbox, so setup may choose it (`apiBaseUrl: null`) for
     * the next start. Default: `demo`.
     */
    readonly sandboxAvailable?: boolean;
  };
  readonly credentials: KioskCredentials;
  /** Offline limits of the gift-card outbox. */
  readonly limits?: Partial<OfflineLimits>;
  /** The kiosk's shop: sent with every debit, and the default shop of availability. */
  readonly shopId?: string;
  readonly printing?: PrintingConfig & {
    /** Inside Electron: Chromium printing, for Windows and machines without CUPS. */
    readonly electronHost?: ElectronPrintHost;
    readonly platform?: NodeJS.Platform;
  };
  /** The administrator PIN (4 to 12 digits); without one, settings and credentials are locked. */
  readonly adminPin?: string;
  /** The integrator's default language; else the system's (`systemLocale`). */
  readonly locale?: KioskSettings['locale'];
  /**
   * The system locale tag (`fr-FR`): Electron's `app.getLocale()`, else this process's `Intl`
   * locale. French for a French locale, English otherwise; the settings file has the last word.
   */
  readonly systemLocale?: string;
  readonly host: 'electron' | 'browser';
  readonly versions?: { readonly electron?: string | null; readonly chrome?: string | null };
  readonly logger?: Logger;
  /** Health probe period of the connectivity monitor (default 15 s; 0 disables it). */
  readonly connectivityProbeMs?: number;
  readonly catalog?: Pick<
    CatalogSyncOptions,
    'fullResyncIntervalMs' | 'changeFeedIntervalMs' | 'pageSize'
  >;
}

/** The kiosk's services behind the IPC router, with their lifecycle. */
export interface KioskServices {
  readonly handlers: KioskHandlers;
  readonly events: KioskEventSource;
  readonly adminGuard: AdminPin;
  /** The origin of the Commerce API in use, for status lines. */
  readonly apiOrigin: string;
  readonly demo: boolean;
  /** The parts, for the hosts and for tests; the renderer never sees them. */
  readonly parts: {
    readonly database: KioskDatabase;
    readonly client: CommerceApiClient;
    readonly outbox: Outbox;
    readonly sender: OutboxSender;
    readonly catalogSync: CatalogSyncService;
    readonly catalogQueries: CatalogQueries;
    readonly printQueue: PrintQueue | undefined;
    readonly settings: SettingsStore;
  };
  /** Starts the background work: connectivity probes, the catalogue sync loop, the sender. */
  start(): void;
  /** Stops everything and closes the database; idempotent. */
  close(): Promise<void>;
}

type Listener = <E extends EventName>(event: E, payload: EventPayloadOf<E>) => void;

const APP_VERSION = readAppVersion();
const MAX_LIVE_SHOPS = 2_000;

function readAppVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    const pkg = require('../../package.json') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

function unavailable(what: string, why: string): IpcFailure {
  return new IpcFailure(
    ipcErrorCodes.serviceUnavailable,
    `${what} is not available on this kiosk: ${safeMessage(why)}`,
  );
}

/**
 * The composition root: one API client, one database, the outbox and its sender, the catalogue
 * mirror, the print queue and the settings, wired together and exposed as one handler per IPC
 * message. Both hosts (Electron and the loopback browser host) build exactly this.
 */
export async function createKioskServices(options: KioskServicesOptions): Promise<KioskServices> {
  const logger = options.logger ?? silentLogger;
  const startedAt = new Date().toISOString();
  const apiOrigin = originOf(options.api.baseUrl);
  if (apiOrigin === undefined) throw new RangeError('the API base URL is not a valid URL');

  // What this run uses: the base URL an administrator saves in setup is read by the host when
  // the kiosk starts, so a saved one that differs from it waits for the next start.
  const runningApiBaseUrl = options.api.demo ? null : options.api.baseUrl;
  const sandboxAvailable = options.api.sandboxAvailable ?? options.api.demo;
  const settings = SettingsStore.open(
    options.settingsDir ?? options.dataDir,
    {
      locale:
        options.locale ??
        localeOfTag(options.systemLocale ?? Intl.DateTimeFormat().resolvedOptions().locale),
      shopId: options.shopId ?? null,
      printer: options.printing?.printer ?? null,
      paperSize: options.printing?.media ?? null,
      apiBaseUrl: runningApiBaseUrl,
      offlineLimits: resolveLimits(options.limits),
    },
    logger,
  );
  const adminGuard = new AdminPin({ pin: options.adminPin });

  const database = openDatabase({ dataDir: options.dataDir });
  const client = createApiClient({
    baseUrl: options.api.baseUrl,
    credentials: options.credentials.provider,
    logger,
    // One attempt per debit call: the outbox sender owns the retries of gift-card debits, and
    // the debit is the client's only idempotent write, so the UI's reads keep their retries.
    retry: outboxClientRetry,
  });
  // The limits and the shop in force are the settings' (an administrator's, else the defaults).
  const outbox = new Outbox({
    db: database,
    connectivity: connectivityOf(client),
    limits: settings.current.offlineLimits,
    ...(settings.current.shopId === null ? {} : { shopId: settings.current.shopId }),
    onListenerError: (error) => logger.error('kiosk.outbox.listener_failed', { error }),
  });
  const sender = new OutboxSender({ outbox, gateway: createApiGateway(client), logger });
  const catalogSync = new CatalogSyncService({
    database,
    source: client,
    logger,
    ...options.catalog,
  });
  const catalogQueries = new CatalogQueries({
    database,
    source: client,
    online: onlineProbeOf(client),
  });

  // Printing: the document source and spool always work (previews); a print backend may not
  // exist on this machine (no CUPS tools outside Electron), which only disables printing.
  const documents = apiDocumentSource(client);
  const spool = await DocumentSpool.create();
  let backend: PrintBackend | undefined;
  let printingProblem = 'no print backend';
  try {
    const choice = await chooseBackend({
      config: options.printing ?? {},
      platform: options.printing?.platform ?? process.platform,
      electronHost: options.printing?.electronHost,
    });
    backend = choice.backend;
    logger.info('kiosk.printing.backend', { backend: backend.name, why: choice.why });
  } catch (error) {
    printingProblem = error instanceof Error ? error.message : String(error);
    logger.warn('kiosk.printing.unavailable', { error });
  }
  const printQueue =
    backend === undefined ? undefined : new PrintQueue({ backend, source: documents, spool });

  // ---- events ----
  const listeners = new Set<Listener>();
  const emit: Listener = (event, payload) => {
    for (const listener of [...listeners]) {
      try {
        listener(event, payload);
      } catch (error) {
        logger.warn('kiosk.event_listener_failed', { event, error });
      }
    }
  };
  const unsubscribes: (() => void)[] = [
    client.connectivity.on('change', (change) => {
      emit('connectivityChanged', { ...change });
      // Back online: what waited in the outbox goes now rather than at its next backoff tick.
      if (change.to === 'online') sender.wake();
    }),
    outbox.on((event) => emit('outboxChanged', outboxEventView(event))),
    catalogSync.events.on('progress', (progress) =>
      emit('syncProgress', { type: 'progress', progress: { ...progress } }),
    ),
    catalogSync.events.on('synced', (outcome) =>
      emit('syncProgress', {
        type: 'synced',
        kind: outcome.kind,
        products: outcome.fullSync?.products ?? null,
        changes: outcome.window?.changes ?? null,
        at: new Date().toISOString(),
      }),
    ),
    catalogSync.events.on('failed', (failure) =>
      emit('syncProgress', {
        type: 'failed',
        code: failure.code,
        message: safeMessage(failure.message),
        ...(failure.missingScopes === undefined
          ? {}
          : { missingScopes: [...failure.missingScopes] }),
      }),
    ),
  ];
  if (printQueue !== undefined) {
    unsubscribes.push(
      printQueue.events.on('job-changed', (job) => emit('printJobChanged', printJobView(job))),
    );
  }

  const needPrinting = (): PrintQueue => {
    if (printQueue === undefined) throw unavailable('printing', printingProblem);
    return printQueue;
  };

  const debitsOf = (view: 'open' | 'attention' | 'recent', limit: number): OutboxDebit[] => {
    switch (view) {
      case 'open':
        return [...outbox.list({ state: 'pending' }), ...outbox.list({ state: 'sending' })]
          .sort((a, b) => a.id - b.id)
          .slice(0, limit);
      case 'attention':
        return (['refused', 'failed', 'expired'] as const)
          .flatMap((state) => outbox.list({ state }))
          .filter((debit) => debit.acknowledgedAt === null)
          .sort((a, b) => a.id - b.id)
          .slice(0, limit);
      case 'recent': {
        const summary = outbox.store.db.connection
          .prepare('SELECT max(id) AS last FROM outbox_debits')
          .get() as { last: number | null };
        const afterId = Math.max(0, (summary.last ?? 0) - limit);
        return outbox.list({ afterId, limit }).reverse();
      }
    }
  };

  const shops = async (): Promise<{ source: 'mirror' | 'live'; shops: readonly Shop[] }> => {
    if (catalogQueries.ready) {
      const rows = readReferential(database.connection, liveTables, 'shops');
      if (rows.length > 0) return { source: 'mirror', shops: rows };
    }
    const live: Shop[] = [];
    for await (const shop of client.items('listShops', { query: { limit: 500 } })) {
      live.push(shop);
      if (live.length >= MAX_LIVE_SHOPS) break;
    }
    return { source: 'live', shops: live };
  };

  const settingsReply = async (): Promise<HandlerReply<'getSettings'>> => ({
    settings: settings.current,
    adminPinConfigured: adminGuard.configured,
    credentials: await options.credentials.store.status(),
    sandboxAvailable,
    restartRequired: settings.current.apiBaseUrl !== runningApiBaseUrl,
  });

  const handlers: KioskHandlers = {
    // ---- catalogue and availability ----
    searchProducts: (request) => catalogQueries.search(request),
    getProduct: (request) =>
      catalogQueries.product(request.productId, { shopId: request.shopId, fresh: request.fresh }),
    listShops: () => shops(),
    getSyncStatus: () => catalogSync.status(),
    syncNow: (request) => {
      const joined = catalogSync.status().syncing !== null;
      // Runs in the background: its progress and its end (or failure) are syncProgress events.
      catalogSync.sync({ full: request.full ?? false }).catch((error: unknown) => {
        logger.info('kiosk.catalog.sync_failed', { code: toIpcError(error).code });
      });
      return { started: true, joined };
    },

    // ---- customers ----
    searchCustomers: (request) =>
      client.searchCustomers({
        query: {
          email: request.email,
          matchMode: 'exact',
          ...(request.lastName === undefined ? {} : { lastName: request.lastName }),
          ...(request.firstName === undefined ? {} : { firstName: request.firstName }),
          ...(request.phone === undefined ? {} : { phone: request.phone }),
          ...(request.postalCode === undefined ? {} : { postalCode: request.postalCode }),
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      }),
    getCustomer: (request) =>
      client.getCustomer({
        params: { customerId: request.customerId },
        query: request.includeContact ? { include: 'contact' } : {},
      }),
    getCustomerHistory: (request) =>
      client.getCustomerHistory({
        params: { customerId: request.customerId },
        query: request.families === undefined ? {} : { include: request.families.join(',') },
      }),
    listCustomerCredits: (request) =>
      client.listCustomerCredits({
        params: { customerId: request.customerId },
        query: {
          ...(request.types === undefined ? {} : { types: request.types.join(',') }),
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      }),

    // ---- sales, invoices, SAV ----
    getSale: (request) => client.getSale({ params: { saleId: request.saleId } }),
    getInvoice: (request) => client.getSaleInvoice({ params: { saleId: request.saleId } }),
    getSav: (request) => client.getSav({ params: { savId: request.savId } }),
    getSavLog: (request) =>
      client.getSavLog({
        params: { savId: request.savId },
        query: {
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      }),

    // ---- gift cards and the outbox ----
    getGiftCard: (request) =>
      client.getGiftCard({
        params: { giftCardId: request.giftCardId },
        query: request.include === undefined ? {} : { include: request.include.join(',') },
      }),
    debitGiftCard: async (request) => {
      const accepted = outbox.enqueue({
        giftCardId: request.giftCardId,
        amount: request.amount,
        policy: request.policy,
        ...(request.reference === undefined ? {} : { reference: request.reference }),
      });
      sender.wake();
      let debit: DebitView = debitView(accepted.debit);
      let settled = false;
      if (request.waitMs !== undefined && request.waitMs > 0) {
        const outcome = await outbox.waitForOutcome(accepted.debit.id, request.waitMs);
        debit = debitView(outcome.debit);
        settled = outcome.settled;
      }
      return { debit, delivery: accepted.delivery, connectivity: accepted.connectivity, settled };
    },
    listDebits: (request) => ({
      debits: debitsOf(request.view, request.limit ?? 50).map(debitView),
    }),
    sendOutboxNow: () => {
      sender.wake();
      return { sender: senderView(sender.status) };
    },
    cancelDebit: (request) => debitView(outbox.cancel(request.debitId)),
    acknowledgeDebit: (request) => debitView(outbox.acknowledge(request.debitId)),
    getOutboxSummary: () => ({
      ...outbox.summary(),
      sender: senderView(sender.status),
      limits: { ...outbox.limits },
    }),

    // ---- printing ----
    listPrinters: async () => {
      if (backend === undefined) return { backend: null, printers: [], defaultPrinter: null };
      const printers = await backend.listPrinters();
      const fallback = settings.current.printer ?? (await backend.defaultPrinter()) ?? null;
      return {
        backend: backend.name,
        printers: printers.map(printerView),
        defaultPrinter: fallback,
      };
    },
    printInvoice: (request) =>
      printJobView(
        needPrinting().enqueue({
          kind: 'invoice',
          reference: request.saleId,
          printer: request.printer ?? settings.current.printer ?? undefined,
          copies: request.copies,
          media: settings.current.paperSize ?? undefined,
        }),
      ),
    printSavSlip: (request) =>
      printJobView(
        needPrinting().enqueue({
          kind: 'sav-slip',
          reference: request.savId,
          printer: request.printer ?? settings.current.printer ?? undefined,
          copies: request.copies,
          media: settings.current.paperSize ?? undefined,
        }),
      ),
    getPrintJob: (request) => {
      const job = needPrinting().get(request.jobId);
      if (job === undefined) throw new PrintError('job_unknown', 'There is no such print job.');
      return printJobView(job);
    },
    listPrintJobs: () => ({
      jobs: printQueue === undefined ? [] : printQueue.list().map(printJobView),
    }),
    cancelPrintJob: async (request) => printJobView(await needPrinting().cancel(request.jobId)),
    previewDocument: async (request) => {
      const preview = await previewDocument(request.kind, request.reference, {
        source: documents,
        spool,
        firstPagePng: request.firstPagePng ?? false,
      });
      return {
        kind: preview.kind,
        reference: preview.reference,
        documentNumber: preview.documentNumber ?? null,
        pdfBase64: Buffer.from(preview.pdf).toString('base64'),
        firstPagePngBase64:
          preview.firstPagePng === undefined
            ? null
            : Buffer.from(preview.firstPagePng).toString('base64'),
        pngUnavailable:
          preview.pngUnavailable === undefined ? null : safeMessage(preview.pngUnavailable),
      };
    },

    // ---- status ----
    getStatus: async () => ({
      connectivity: client.connectivity.state,
      demo: options.api.demo,
      host: options.host,
      apiOrigin,
      versions: {
        app: APP_VERSION,
        node: process.versions.node,
        electron: options.versions?.electron ?? null,
        chrome: options.versions?.chrome ?? null,
        api: 'v1',
      },
      credentials: await options.credentials.store.status(),
      startedAt,
    }),
    checkConnectivity: async () => ({ connectivity: await client.connectivity.check() }),

    // ---- settings and setup ----
    getSettings: () => settingsReply(),
    updateSettings: async (request) => {
      const { changes } = request;
      if (changes.apiBaseUrl === null && !sandboxAvailable) {
        throw new IpcFailure(
          ipcErrorCodes.invalidRequest,
          'this kiosk has no embedded demo sandbox: give the Commerce API base URL',
          { issues: [{ path: 'changes.apiBaseUrl', message: 'no embedded demo sandbox' }] },
        );
      }
      await settings.update(changes);
      // Live: the next debit is checked against the new limits and carries the new shop.
      if (changes.offlineLimits !== undefined) outbox.setLimits(settings.current.offlineLimits);
      if (changes.shopId !== undefined) outbox.setShopId(settings.current.shopId ?? undefined);
      if (changes.apiBaseUrl !== undefined) {
        logger.info('kiosk.settings.api_base_url_saved', {
          restartRequired: settings.current.apiBaseUrl !== runningApiBaseUrl,
        });
      }
      return settingsReply();
    },
    setCredentials: async (request) => {
      await options.credentials.store.write({ email: request.email, password: request.password });
      // A token of the previous account must not outlive it: issue one with the new account now.
      // Refused credentials are not this message's failure; testConnection reports them.
      await client.authenticate().catch((error: unknown) => {
        logger.info('kiosk.credentials.first_auth_failed', { code: toIpcError(error).code });
      });
      sender.resume();
      return { credentials: await options.credentials.store.status() };
    },
    testConnection: async () => {
      try {
        const session = await client.authenticate();
        const ping = await client.ping();
        return {
          ok: true,
          expiresAt: session.expiresAt,
          scopes: session.scopes === null ? null : [...session.scopes],
          apiVersion: ping.version,
          error: null,
        };
      } catch (error) {
        const { code, message } = toIpcError(error);
        return {
          ok: false,
          expiresAt: null,
          scopes: null,
          apiVersion: null,
          error: { code, message },
        };
      }
    },
    checkAdminPin: (request) => ({ valid: adminGuard.check(request.pin) }),
  };

  let closing: Promise<void> | undefined;
  return {
    handlers,
    events: {
      subscribe(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
    adminGuard,
    apiOrigin,
    demo: options.api.demo,
    parts: {
      database,
      client,
      outbox,
      sender,
      catalogSync,
      catalogQueries,
      printQueue,
      settings,
    },
    start() {
      const probeMs = options.connectivityProbeMs ?? 15_000;
      if (probeMs > 0) client.connectivity.start(probeMs);
      void client.connectivity.check();
      catalogSync.start();
      sender.start();
    },
    close() {
      closing ??= (async () => {
        for (const unsubscribe of unsubscribes) unsubscribe();
        listeners.clear();
        await Promise.allSettled([catalogSync.stop(), sender.stop(), printQueue?.close()]);
        await backend?.dispose?.().catch(() => undefined);
        await spool.dispose().catch(() => undefined);
        client.close();
        database.close();
      })();
      return closing;
    },
  };
}
