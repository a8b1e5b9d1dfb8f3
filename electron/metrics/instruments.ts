import type { Attributes, Meter } from '@opentelemetry/api';

/**
 * The kiosk's metrics, named and described once. Labels are closed sets (states, outcomes,
 * operation names, status classes): never a card, debit, customer or job id, which would make a
 * series per customer (cardinality) and put personal data in the fleet's store.
 */

/** What the kiosk's state reads at each collection (a scrape, an export). */
export interface KioskObservations {
  readonly outbox: () => {
    readonly openCount: number;
    readonly openAmount: number;
    readonly oldestOpenAgeMs: number | null;
    readonly sendingCount: number;
    readonly needingAttention: {
      readonly refused: number;
      readonly failed: number;
      readonly expired: number;
    };
  };
  /** Null while it sends; else the code of why it waits for an administrator. */
  readonly senderPaused: () => string | null;
  /** The code of the last catalogue sync's failure while it is the latest outcome; null: it succeeded. */
  readonly catalogFailing: () => string | null;
  /** Seconds since the service time the mirror reflects; null before its first sync. */
  readonly mirrorAgeSeconds: () => number | null;
  /** Service time minus kiosk time (ms), null before the first reply; and the wall-clock steps seen. */
  readonly clock: () => { readonly offsetMs: number | null; readonly steps: number };
  /**
   * Printers by state (`unreachable` when the print system cannot be asked); none without
   * printing. Called at every collection: the caller answers from a recent reading (a scrape must
   * not be a query to the print system).
   */
  readonly printers?: () => Promise<Readonly<Record<string, number>>>;
}

export type DebitAttemptOutcome = 'applied' | 'refused' | 'failed' | 'retry' | 'held';
export type SyncResult = 'ok' | 'failed';

export interface ApiExchange {
  readonly operationId: string;
  readonly status: number | undefined;
  readonly exchange: number;
  readonly durationMs: number;
}

/** One instrument per figure of the fleet's dashboards, with the kiosk's observations behind the gauges. */
export class KioskInstruments {
  readonly #apiRequests;
  readonly #apiDuration;
  readonly #apiRetries;
  readonly #apiRateLimited;
  readonly #debitsAccepted;
  readonly #debitAttempts;
  readonly #syncs;
  readonly #syncDuration;
  readonly #changesApplied;
  readonly #printJobs;

  constructor(
    meter: Meter,
    observe: KioskObservations,
    /** The profile is read at each collection: an administrator may switch it in setup. */
    build: { readonly version: string; readonly profile: () => string },
  ) {
    this.#apiRequests = meter.createCounter('kiosk.api.requests', {
      description: 'HTTP exchanges with the Commerce API, retries included',
      unit: '{request}',
    });
    this.#apiDuration = meter.createHistogram('kiosk.api.request.duration', {
      description: 'Duration of one HTTP exchange with the Commerce API',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] },
    });
    this.#apiRetries = meter.createCounter('kiosk.api.retries', {
      description: 'Exchanges that were a retry of an earlier one',
      unit: '{request}',
    });
    this.#apiRateLimited = meter.createCounter('kiosk.api.rate_limited', {
      description: 'Answers 429 (rate limited) from the Commerce API',
      unit: '{request}',
    });
    this.#debitsAccepted = meter.createCounter('kiosk.outbox.debits.accepted', {
      description: 'Gift-card debits accepted into the outbox, by connectivity at the time',
      unit: '{debit}',
    });
    this.#debitAttempts = meter.createCounter('kiosk.outbox.attempts', {
      description: 'Debit attempts that ended, by outcome',
      unit: '{attempt}',
    });
    this.#syncs = meter.createCounter('kiosk.catalog.syncs', {
      description: 'Catalogue synchronisations that ended, by kind and result',
      unit: '{sync}',
    });
    this.#syncDuration = meter.createHistogram('kiosk.catalog.sync.duration', {
      description: 'Duration of a catalogue synchronisation',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600] },
    });
    this.#changesApplied = meter.createCounter('kiosk.catalog.changes.applied', {
      description: 'Catalogue changes applied to the mirror from the change feed',
      unit: '{change}',
    });
    this.#printJobs = meter.createCounter('kiosk.print.jobs', {
      description: 'Print jobs that ended, by outcome',
      unit: '{job}',
    });

    meter
      .createObservableGauge('kiosk.outbox.debits', {
        description: 'Debits in the outbox that are open or need a person, by state',
        unit: '{debit}',
      })
      .addCallback((result) => {
        const summary = observe.outbox();
        result.observe(summary.openCount - summary.sendingCount, { state: 'pending' });
        result.observe(summary.sendingCount, { state: 'sending' });
        for (const [state, count] of Object.entries(summary.needingAttention)) {
          result.observe(count, { state, attention: true });
        }
      });
    meter
      .createObservableGauge('kiosk.outbox.pending.amount', {
        description: 'Amount of the debits not yet applied',
        unit: '{EUR}',
      })
      .addCallback((result) => result.observe(observe.outbox().openAmount, { currency: 'EUR' }));
    meter
      .createObservableGauge('kiosk.outbox.oldest_pending.age', {
        description: 'Age of the oldest debit not yet applied (0 when none waits)',
        unit: 's',
      })
      .addCallback((result) => result.observe((observe.outbox().oldestOpenAgeMs ?? 0) / 1000));
    meter
      .createObservableGauge('kiosk.outbox.sender.paused', {
        description: '1 while the debit sender waits for an administrator, with the reason',
        unit: '1',
      })
      .addCallback((result) => {
        const reason = observe.senderPaused();
        result.observe(reason === null ? 0 : 1, reason === null ? {} : { reason });
      });
    meter
      .createObservableGauge('kiosk.catalog.mirror.age', {
        description: 'Time since the service time the catalogue mirror reflects',
        unit: 's',
      })
      .addCallback((result) => {
        const age = observe.mirrorAgeSeconds();
        if (age !== null) result.observe(age);
      });
    meter
      .createObservableGauge('kiosk.catalog.sync.failing', {
        description: '1 while the latest catalogue sync failed, with its code; 0 once one succeeds',
        unit: '1',
      })
      .addCallback((result) => {
        const code = observe.catalogFailing();
        result.observe(code === null ? 0 : 1, code === null ? {} : { code });
      });
    meter
      .createObservableGauge('kiosk.clock.offset', {
        description: "The service's clock minus the kiosk's, from the API's Date headers",
        unit: 's',
      })
      .addCallback((result) => {
        const { offsetMs } = observe.clock();
        if (offsetMs !== null) result.observe(offsetMs / 1000);
      });
    meter
      .createObservableCounter('kiosk.clock.steps', {
        description: "Steps of the kiosk's wall clock seen since the start",
        unit: '{step}',
      })
      .addCallback((result) => result.observe(observe.clock().steps));
    // The SDK keeps reporting an attribute set once observed (cumulative): a profile switched
    // away from is observed at 0, so that the series at 1 is the profile in force.
    const profilesSeen = new Set<string>();
    meter
      .createObservableGauge('kiosk.build.info', {
        description:
          'The build and the integration profile in force, as attributes: 1 for the profile in force, 0 for one switched away from',
        unit: '1',
      })
      .addCallback((result) => {
        const inForce = build.profile();
        if (profilesSeen.size < 32) profilesSeen.add(inForce);
        for (const profile of profilesSeen) {
          result.observe(profile === inForce ? 1 : 0, { version: build.version, profile });
        }
        if (!profilesSeen.has(inForce))
          result.observe(1, { version: build.version, profile: inForce });
      });
    const printers = observe.printers;
    if (printers !== undefined) {
      meter
        .createObservableGauge('kiosk.printers', {
          description: 'Printers by state',
          unit: '{printer}',
        })
        .addCallback(async (result) => {
          for (const [state, count] of Object.entries(await printers()))
            result.observe(count, { state });
        });
    }
  }

  apiExchange(event: ApiExchange): void {
    const operation = { operation: event.operationId };
    this.#apiRequests.add(1, { ...operation, status_class: statusClassOf(event.status) });
    this.#apiDuration.record(event.durationMs / 1000, operation);
    if (event.exchange > 1) this.#apiRetries.add(1, operation);
    if (event.status === 429) this.#apiRateLimited.add(1, operation);
  }

  debitAccepted(connectivity: string): void {
    this.#debitsAccepted.add(1, { connectivity });
  }

  debitAttempt(outcome: DebitAttemptOutcome): void {
    this.#debitAttempts.add(1, { outcome });
  }

  catalogSynced(kind: string, durationMs: number, changes: number): void {
    this.#syncEnded({ kind, result: 'ok' }, durationMs);
    if (changes > 0) this.#changesApplied.add(changes);
  }

  catalogSyncFailed(code: string, durationMs: number): void {
    // Which kind the run would have been is not known once it failed.
    this.#syncEnded({ result: 'failed', code }, durationMs);
  }

  printJobEnded(outcome: string): void {
    this.#printJobs.add(1, { outcome });
  }

  #syncEnded(attributes: Attributes, durationMs: number): void {
    this.#syncs.add(1, attributes);
    this.#syncDuration.record(durationMs / 1000, attributes);
  }
}

/** `2xx`, `4xx`, `5xx`..., or `none` when no answer came (network, timeout). */
function statusClassOf(status: number | undefined): string {
  return status === undefined ? 'none' : `${Math.floor(status / 100)}xx`;
}
