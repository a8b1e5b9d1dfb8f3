import {
  DEFAULT_IDLE_RETURN_SECONDS,
  DEFAULT_SCAN_MAX_GAP_MS,
  type KioskSettings,
  type KioskStatus,
  localeOfTag,
} from '../../shared/ipc/status.ts';
import { ProfileInForce } from '../profile/index.ts';
import { type CommerceApiClient, type ExchangeEvent, createApiClient } from '../api/index.ts';
import {
  CatalogQueries,
  type CatalogSyncOptions,
  CatalogSyncService,
  onlineProbeOf,
} from '../catalog/index.ts';
import { type KioskEventSource, type KioskHandlers, originOf } from '../ipc/index.ts';
import { type Logger, createRedactingLogger, silentLogger, teeLogger } from '../logging/index.ts';
import {
  type KioskTelemetry,
  openKioskTelemetry,
  resolveMetricsSettings,
} from '../metrics/index.ts';
import {
  createOutboxService,
  type OfflineLimits,
  type Outbox,
  outboxClientRetry,
  type OutboxSender,
  recordUsageCheck,
  resolveLimits,
  type SenderOptions,
} from '../outbox/index.ts';
import type { PrintQueue } from '../printing/index.ts';
import { type KioskDatabase, openDatabase } from '../storage/index.ts';
import { kioskSchema } from '../schema.ts';
import { AdminPin } from './admin-pin.ts';
import type { KioskCredentials } from './credential-store.ts';
import { connectKioskEvents } from './events.ts';
import { catalogHandlers } from './handlers/catalog.ts';
import { customerHandlers } from './handlers/customers.ts';
import { debitOutcomeHandlers } from './handlers/debit-outcomes.ts';
import { giftCardHandlers } from './handlers/gift-cards.ts';
import { documentHandlers } from './handlers/documents.ts';
import { printingHandlers } from './handlers/printing.ts';
import { salesHandlers } from './handlers/sales.ts';
import { settingsHandlers } from './handlers/settings.ts';
import { APP_VERSION, statusHandlers } from './handlers/status.ts';
import { connectKioskMetrics } from './kiosk-metrics.ts';
import { type KioskPrintingOptions, openKioskPrinting } from './kiosk-printing.ts';
import { SettingsStore } from './settings-store.ts';
import { dayReportView } from './views.ts';

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
  readonly printing?: KioskPrintingOptions;
  /** The administrator PIN (4 to 12 digits); without one, settings and credentials are locked. */
  readonly adminPin?: string;
  /** The integrator's default language; else the system's (`systemLocale`). */
  readonly locale?: KioskSettings['locale'];
  /**
   * The system locale tag (`fr-FR`): Electron's `app.getLocale()`, else this process's `Intl`
   * locale. French for a French locale, English otherwise; the settings file has the last word.
   */
  readonly systemLocale?: string;
  readonly host: KioskStatus['host'];
  readonly versions?: { readonly electron?: string | null; readonly chrome?: string | null };
  readonly logger?: Logger;
  /** Health probe period of the connectivity monitor (default 15 s; 0 disables it). */
  readonly connectivityProbeMs?: number;
  /**
   * The deployment's integration profile file (KIOSK_API_PROFILE): wins over the one saved in
   * setup; neither: the default, the sandbox's shapes.
   */
  readonly profileFile?: string;
  readonly catalog?: Pick<
    CatalogSyncOptions,
    'fullResyncIntervalMs' | 'changeFeedIntervalMs' | 'pageSize'
  >;
  /**
   * The deployment's environment, for what it may set over the settings file: metrics and logs
   * to the fleet's monitoring (KIOSK_METRICS_PORT, KIOSK_OTLP_ENDPOINT...). Default: none.
   */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  /**
   * After an outage the outbox's waiting debits go at a random moment of this window (default
   * 4 s), so a fleet back from the same outage does not come back in one second.
   */
  readonly backOnlineWindowMs?: number;
  /**
   * The outbox sender's retry schedule after a failed attempt (full-jitter backoff from 1 s up
   * to 5 min, Retry-After honoured, a retry budget); the defaults suit a store.
   */
  readonly outboxRetry?: SenderOptions['retry'];
}

/** The kiosk's services behind the IPC router, with their lifecycle. */
export interface KioskServices {
  readonly handlers: KioskHandlers;
  readonly events: KioskEventSource;
  readonly adminGuard: AdminPin;
  /** The origin of the Commerce API in use, for status lines. */
  readonly apiOrigin: string;
  readonly demo: boolean;
  /** Starts the background work: connectivity probes, the catalogue sync loop, the sender. */
  start(): void;
  /** Stops everything and closes the database; idempotent. */
  close(): Promise<void>;
}

/**
 * The services with their parts (database, client, outbox, sync...): for this package's own
 * hosts and tests. The public entry point returns `KioskServices`, which leaves them out.
 */
export interface WiredKioskServices extends KioskServices {
  /** The renderer never sees them. */
  readonly parts: {
    readonly database: KioskDatabase;
    readonly client: CommerceApiClient;
    readonly outbox: Outbox;
    readonly sender: OutboxSender;
    readonly catalogSync: CatalogSyncService;
    readonly catalogQueries: CatalogQueries;
    readonly printQueue: PrintQueue | undefined;
    readonly settings: SettingsStore;
    /** The metrics' meter and ways out (a loopback Prometheus endpoint, OTLP). */
    readonly telemetry: KioskTelemetry;
  };
}

/**
 * The composition root: one API client, one database, the outbox and its sender, the catalogue
 * mirror, printing and the settings, built, connected, started and stopped together. Each area's
 * IPC messages are answered by its handlers (`handlers/`), given only the services they use.
 * Both hosts (Electron and the loopback browser host) build exactly this.
 */
export async function createKioskServices(
  options: KioskServicesOptions,
): Promise<WiredKioskServices> {
  const hostLogger = options.logger ?? silentLogger;
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
      profilePath: null,
      idleReturnSeconds: DEFAULT_IDLE_RETURN_SECONDS,
      scanMaxGapMs: DEFAULT_SCAN_MAX_GAP_MS,
      onScreenKeyboard: 'auto',
    },
    hostLogger,
  );
  const telemetry = await openKioskTelemetry(
    resolveMetricsSettings(settings.current.telemetry, options.environment ?? {}),
    { storeId: settings.current.shopId, version: APP_VERSION },
    hostLogger,
  );
  const otlpSink = telemetry.logSink;
  // The collector gets the same redacted records as the kiosk's own log.
  const logger =
    otlpSink === null
      ? hostLogger
      : teeLogger(hostLogger, createRedactingLogger({ sink: (line) => otlpSink.write(line) }));
  if (telemetry.prometheusUrl !== null) {
    logger.info('kiosk.metrics.endpoint', { url: telemetry.prometheusUrl });
  }
  const adminGuard = new AdminPin({
    pin: options.adminPin,
    lockoutDir: options.settingsDir ?? options.dataDir,
    logger,
  });

  const database = openDatabase({ dataDir: options.dataDir, schema: kioskSchema });
  // Set once the services the metrics observe exist; the client reports from its first call.
  const exchanges: { record?: (event: ExchangeEvent) => void } = {};
  const client = createApiClient({
    onExchange: (event) => exchanges.record?.(event),
    baseUrl: options.api.baseUrl,
    credentials: options.credentials.provider,
    logger,
    // One attempt per debit call: the outbox sender owns the retries of gift-card debits, and
    // the debit is the client's only idempotent write, so the UI's reads keep their retries.
    retry: outboxClientRetry,
  });
  // Read afresh by every reader of a 'not shown' record: an administrator may switch it.
  const profiles = new ProfileInForce({
    environmentPath: options.profileFile,
    settingsPath: settings.current.profilePath,
    logger,
  });
  const currentProfile = profiles.current;
  // The limits and the shop in force are the settings' (an administrator's, else the defaults).
  // The outbox, its sender, its archiver (settled debits past the limits' `settledRetentionMs`
  // leave the live table) and, back online after an outage, what waited goes within seconds, at
  // this kiosk's moment: wired as the tests and the fleet simulation wire them.
  const outboxService = createOutboxService({
    db: database,
    client,
    limits: settings.current.offlineLimits,
    ...(settings.current.shopId === null ? {} : { shopId: settings.current.shopId }),
    onListenerError: (error) => logger.error('kiosk.outbox.listener_failed', { error }),
    profile: currentProfile,
    logger,
    ...(options.outboxRetry === undefined ? {} : { sender: { retry: options.outboxRetry } }),
    ...(options.backOnlineWindowMs === undefined
      ? {}
      : { backOnline: { windowMs: options.backOnlineWindowMs } }),
  });
  const { outbox, sender } = outboxService;
  const catalogSync = new CatalogSyncService({
    database,
    source: client,
    logger,
    profile: currentProfile,
    ...options.catalog,
  });
  const catalogQueries = new CatalogQueries({
    database,
    source: client,
    online: onlineProbeOf(client),
  });
  const printing = await openKioskPrinting(client, options.printing, logger, currentProfile);

  const events = connectKioskEvents({
    client,
    outbox,
    catalogSync,
    printQueue: printing.queue,
    logger,
  });
  const metrics = connectKioskMetrics({
    telemetry,
    client,
    outbox,
    sender,
    catalogSync,
    printQueue: printing.queue,
    printBackend: printing.backend,
    build: { version: APP_VERSION, profile: () => currentProfile().name },
    logger,
  });
  exchanges.record = metrics.recordExchange;

  const handlers: KioskHandlers = {
    ...catalogHandlers({
      catalogQueries,
      catalogSync,
      database,
      client,
      logger,
      profile: currentProfile,
    }),
    ...customerHandlers({ client, outbox, profile: currentProfile }),
    ...salesHandlers({ client, profile: currentProfile }),
    ...documentHandlers({ client, profile: currentProfile }),
    ...giftCardHandlers({ client, outbox, sender }),
    ...debitOutcomeHandlers({ client, outbox, sender }),
    ...printingHandlers({
      printing,
      settings,
      dayReport: (date) => dayReportView(outbox, date),
    }),
    ...statusHandlers({
      client,
      credentials: options.credentials.store,
      sender,
      run: {
        demo: options.api.demo,
        host: options.host,
        apiOrigin,
        versions: options.versions,
        startedAt,
      },
    }),
    ...settingsHandlers({
      settings,
      adminGuard,
      credentials: options.credentials.store,
      client,
      outbox,
      sender,
      runningApiBaseUrl,
      sandboxAvailable,
      logger,
      profiles,
      recordUsageCheck: (profile, report) =>
        recordUsageCheck(outbox.store, profile, report, Date.now()),
    }),
  };

  let closing: Promise<void> | undefined;
  return {
    handlers,
    events: events.source,
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
      printQueue: printing.queue,
      settings,
      telemetry,
    },
    start() {
      const probeMs = options.connectivityProbeMs ?? 15_000;
      if (probeMs > 0) client.connectivity.start(probeMs);
      void client.connectivity.check();
      catalogSync.start();
      outboxService.start();
    },
    close() {
      closing ??= (async () => {
        events.close();
        metrics.close();
        await Promise.allSettled([catalogSync.stop(), outboxService.stop(), printing.close()]);
        client.close();
        database.close();
        await telemetry.close();
      })();
      return closing;
    },
  };
}
