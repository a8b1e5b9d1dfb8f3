import type { CommerceApiClient } from '../api/index.ts';
import type { CatalogSyncService } from '../catalog/index.ts';
import type { Logger } from '../logging/index.ts';
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
      ...(printBackend === undefined
        ? {}
        : {
            printers: async () => {
              try {
                const counts: Record<string, number> = {};
                for (const printer of await printBackend.listPrinters()) {
                  counts[printer.state] = (counts[printer.state] ?? 0) + 1;
                }
                return counts;
              } catch (error) {
                logger.warn('kiosk.metrics.printers_unreadable', { error });
                return { unreachable: 1 };
              }
            },
          }),
    },
    { version: input.build.version, profile: input.build.profile() },
  );

  const unsubscribes = [
    outbox.on((event) => {
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
