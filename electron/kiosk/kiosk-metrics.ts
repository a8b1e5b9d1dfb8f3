import { operations } from '../../shared/api/operations.ts';
import { SyncKind } from '../../shared/ipc/catalog.ts';
import { OutboxConnectivity } from '../../shared/ipc/gift-cards.ts';
import { PrinterState } from '../../shared/ipc/printing.ts';
import type { CommerceApiClient } from '../api/index.ts';
import type { CatalogSyncService } from '../catalog/index.ts';
import { type Logger, createRateLimitedLogger } from '../logging/index.ts';
import {
  type DebitAttemptOutcome,
  KioskInstruments,
  type KioskTelemetry,
} from '../metrics/index.ts';
import type { Outbox, OutboxSender } from '../outbox/index.ts';
import type { PrintBackend, PrintQueue } from '../printing/index.ts';

export interface KioskMetricsInput {
  readonly telemetry: KioskTelemetry;
  readonly client: CommerceApiClient;
  readonly outbox: Outbox;
  readonly sender: OutboxSender;
  readonly catalogSync: CatalogSyncService;
  readonly printQueue: PrintQueue | undefined;
  readonly printBackend: PrintBackend | undefined;
  readonly build: { readonly version: string; readonly profile: () => string };
  readonly logger: Logger;
  /** How long a reading of the printers serves the collections, and how often a failure is logged. */
  readonly printerStates?: PrinterStatesOptions;
}

export interface PrinterStatesOptions {
  /** Default 30 s: a scraper every 15 s asks the print system at most every other scrape. */
  readonly maxAgeMs?: number;
  /** Default 10 min: one line when the print system cannot be asked, then one count per period. */
  readonly logPeriodMs?: number;
}

export const PRINTER_STATES_MAX_AGE_MS = 30_000;
export const PRINTER_FAILURE_LOG_PERIOD_MS = 10 * 60_000;

/**
 * The printers by state, as the metrics read them: one query to the print system (CUPS) serves
 * every collection for `maxAgeMs`, and collections that arrive while it runs share it, so local
 * scrapers in a loop cost the print system one query per period, not one each. A print system
 * that cannot be asked is logged once per `logPeriodMs`, then as a count of the failures since.
 */
export function cachedPrinterStates(
  backend: PrintBackend,
  logger: Logger,
  options: PrinterStatesOptions = {},
): { read: () => Promise<Readonly<Record<string, number>>>; close(): void } {
  const maxAgeMs = options.maxAgeMs ?? PRINTER_STATES_MAX_AGE_MS;
  const failures = createRateLimitedLogger(logger, {
    perWindow: 1,
    windowMs: options.logPeriodMs ?? PRINTER_FAILURE_LOG_PERIOD_MS,
  });
  let last: { readonly at: number; readonly counts: Readonly<Record<string, number>> } | undefined;
  let reading: Promise<Readonly<Record<string, number>>> | undefined;
  const query = async (): Promise<Readonly<Record<string, number>>> => {
    let counts: Record<string, number>;
    try {
      counts = {};
      for (const printer of await backend.listPrinters()) {
        counts[printer.state] = (counts[printer.state] ?? 0) + 1;
      }
    } catch (error) {
      failures.warn('kiosk.metrics.printers_unreadable', { error });
      counts = { unreachable: 1 };
    }
    last = { at: Date.now(), counts };
    return counts;
  };
  return {
    read() {
      if (last !== undefined && Date.now() - last.at < maxAgeMs)
        return Promise.resolve(last.counts);
      reading ??= query().finally(() => (reading = undefined));
      return reading;
    },
    close: () => failures.flush(),
  };
}

export interface KioskMetrics {
  /** What the API client reports after every exchange. */
  readonly recordExchange: KioskInstruments['apiExchange'];
  /** Stops listening to the services (the telemetry itself is closed by its owner). */
  close(): void;
}

/** Held debits wait for an administrator: counted apart from ordinary retries. */
const HELD_CODES = new Set(['DEBIT_REQUEST_REFUSED', 'DEBIT_SCOPE_MISSING']);

/** The services' events and states, as the fleet's metrics. Wiring only. */
export function connectKioskMetrics(input: KioskMetricsInput): KioskMetrics {
  const { client, outbox, sender, catalogSync, printQueue, printBackend, logger } = input;
  const printers =
    printBackend === undefined
      ? undefined
      : cachedPrinterStates(printBackend, logger, input.printerStates);
  const instruments = new KioskInstruments(
    input.telemetry.meter,
    {
      outbox: () => outbox.summary(),
      senderPaused: () => sender.status.paused?.code ?? null,
      catalogFailing: () => catalogSync.status().lastError?.code ?? null,
      mirrorAgeSeconds: () => {
        const asOf = catalogSync.status().asOf;
        return asOf === null ? null : Math.max(0, (Date.now() - Date.parse(asOf)) / 1000);
      },
      clock: () => ({
        offsetMs: client.serviceClock.status().offsetMs,
        steps: client.serviceClock.stepCount,
      }),
      ...(printers === undefined ? {} : { printers: printers.read }),
    },
    { version: input.build.version, profile: input.build.profile },
    {
      operations: Object.keys(operations),
      connectivity: OutboxConnectivity.options,
      syncKinds: SyncKind.options,
      // The states PrintQueue's 'job-finished' ends a job in.
      printOutcomes: ['completed', 'failed', 'cancelled'],
      printerStates: PrinterState.options,
    },
  );

  const unsubscribes = [
    outbox.events.on('change', (event) => {
      if (event.type === 'accepted') instruments.debitAccepted(event.connectivity);
      if (event.type === 'state-changed' && event.from === 'sending') {
        instruments.debitAttempt(attemptOutcomeOf(event.to, event.reason));
      }
    }),
    catalogSync.events.on('synced', (outcome) =>
      instruments.catalogSynced(outcome.kind, outcome.durationMs, outcome.window?.changes ?? 0),
    ),
    catalogSync.events.on('failed', (failure) =>
      instruments.catalogSyncFailed(failure.code, failure.durationMs),
    ),
    ...(printQueue === undefined
      ? []
      : [printQueue.events.on('job-finished', (job) => instruments.printJobEnded(job.state))]),
  ];
  return {
    recordExchange: (event) => instruments.apiExchange(event),
    close() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      printers?.close();
    },
  };
}

function attemptOutcomeOf(to: string, reason: string): DebitAttemptOutcome {
  switch (to) {
    case 'applied':
    case 'refused':
    case 'failed':
      return to;
    default:
      return HELD_CODES.has(reason) ? 'held' : 'retry';
  }
}
