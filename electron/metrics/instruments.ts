import type { Attributes, Meter, ObservableResult } from '@opentelemetry/api';

/**
 * The kiosk's metrics, named and described once. Labels are closed sets (states, outcomes,
 * operation names, status classes): never a card, debit, customer or job id, which would make a
 * series per customer (cardinality) and put personal data in the fleet's store. Names follow
 * OpenTelemetry's conventions (no unit in the name: the Prometheus endpoint adds `_seconds`);
 * each description names its unit, for the scrape's HELP. Counters and gauges start at 0 for
 * every label set known in advance, so that rates and absence alerts see the first event.
 */

/** What the kiosk's state reads at each collection (a scrape, an export). */
export interface KioskObservations {
  readonly outbox: () => {
    readonly openCount: number;
    readonly openAmount: number;
    readonly oldestOpenAgeMs: number | null;
    readonly sendingCount: number;
    readonly attention: {
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

export const debitAttemptOutcomes = ['applied', 'refused', 'failed', 'retry', 'held'] as const;
export type DebitAttemptOutcome = (typeof debitAttemptOutcomes)[number];

/** `2xx`, `4xx`... as `statusClassOf` gives them; 1xx never reaches the client. */
const statusClasses = ['2xx', '3xx', '4xx', '5xx', 'none'] as const;

/** The label values each labelled counter and gauge starts at 0 with (the wiring knows them). */
export interface KnownLabels {
  /** The API's operation ids. */
  readonly operations: readonly string[];
  /** The connectivity a debit can be accepted at. */
  readonly connectivity: readonly string[];
  /** The kinds of a catalogue sync that succeeded. */
  readonly syncKinds: readonly string[];
  /** The states a print job ends in. */
  readonly printOutcomes: readonly string[];
  /** The states of a printer (`unreachable` is added: the print system could not be asked). */
  readonly printerStates: readonly string[];
}
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
    known: KnownLabels,
  ) {
    this.#apiRequests = meter.createCounter('kiosk.api.requests', {
      description:
        'HTTP exchanges with the Commerce API, retries included, by operation and status class',
      unit: '{request}',
    });
    this.#apiDuration = meter.createHistogram('kiosk.api.request.duration', {
      description: 'Duration of one HTTP exchange with the Commerce API, in seconds',
      unit: 's',
      advice: { explicitBucketBoundaries: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30] },
    });
    this.#apiRetries = meter.createCounter('kiosk.api.retries', {
      description:
        'Exchanges with the Commerce API that were a retry of an earlier one, by operation',
      unit: '{request}',
    });
    this.#apiRateLimited = meter.createCounter('kiosk.api.rate_limited', {
      description: 'Answers 429 (rate limited) from the Commerce API, by operation',
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
      description: 'Duration of a catalogue synchronisation, in seconds',
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
        description:
          'Debits in the outbox that are open (pending, sending) or need a person (refused, failed, expired: attention="true"), by state',
        unit: '{debit}',
      })
      .addCallback((result) => {
        const summary = observe.outbox();
        result.observe(summary.openCount - summary.sendingCount, { state: 'pending' });
        result.observe(summary.sendingCount, { state: 'sending' });
        // Each state once: a total beside them would be counted twice by any sum().
        const { refused, failed, expired } = summary.attention;
        for (const [state, count] of Object.entries({ refused, failed, expired })) {
          result.observe(count, { state, attention: true });
        }
      });
    meter
      .createObservableGauge('kiosk.outbox.pending.amount', {
        description: 'Amount of the debits not yet applied, in the currency of its label',
        unit: '{EUR}',
      })
      .addCallback((result) => result.observe(observe.outbox().openAmount, { currency: 'EUR' }));
    meter
      .createObservableGauge('kiosk.outbox.oldest_pending.age', {
        description: 'Age of the oldest debit not yet applied, in seconds (0 when none waits)',
        unit: 's',
      })
      .addCallback((result) => result.observe((observe.outbox().oldestOpenAgeMs ?? 0) / 1000));
    meter
      .createObservableGauge('kiosk.outbox.sender.paused', {
        description:
          'Whether the debit sender waits for an administrator: 1 on the series of the reason in force, 0 on the others and the unlabelled one',
      })
      .addCallback(flagByReason('reason', observe.senderPaused));
    meter
      .createObservableGauge('kiosk.catalog.mirror.age', {
        description:
          'Time since the service time the catalogue mirror reflects, in seconds (absent before its first sync)',
        unit: 's',
      })
      .addCallback((result) => {
        const age = observe.mirrorAgeSeconds();
        if (age !== null) result.observe(age);
      });
    meter
      .createObservableGauge('kiosk.catalog.sync.failing', {
        description:
          'Whether the latest catalogue sync failed: 1 on the series of its code, 0 on the others and the unlabelled one (0 everywhere once one succeeds)',
      })
      .addCallback(flagByReason('code', observe.catalogFailing));
    meter
      .createObservableGauge('kiosk.clock.offset', {
        description:
          "The service's clock minus the kiosk's, from the API's Date headers, in seconds (absent before the first answer)",
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
    const printerStates = [...new Set([...known.printerStates, 'unreachable'])];
    meter
      .createObservableGauge('kiosk.printers', {
        description: 'Printers by state (all 0 on a kiosk without printing)',
        unit: '{printer}',
      })
      .addCallback(async (result) => {
        const counts = printers === undefined ? {} : await printers();
        for (const state of new Set([...printerStates, ...Object.keys(counts)]))
          result.observe(counts[state] ?? 0, { state });
      });

    // The counters' known series, at 0 from the first collection.
    for (const operation of known.operations) {
      for (const status_class of statusClasses)
        this.#apiRequests.add(0, { operation, status_class });
      this.#apiRetries.add(0, { operation });
      this.#apiRateLimited.add(0, { operation });
    }
    for (const connectivity of known.connectivity) this.#debitsAccepted.add(0, { connectivity });
    for (const outcome of debitAttemptOutcomes) this.#debitAttempts.add(0, { outcome });
    for (const kind of known.syncKinds) this.#syncs.add(0, { kind, result: 'ok' });
    this.#changesApplied.add(0);
    for (const outcome of known.printOutcomes) this.#printJobs.add(0, { outcome });
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

/**
 * A 0/1 gauge whose label says why it is 1. The SDK keeps reporting a label set once observed
 * (cumulative), so every reason seen is observed again, at 0 once it no longer holds: else a
 * reason gone would stay at 1 beside the series at 0. Bounded, as codes are a closed set.
 */
function flagByReason(
  label: string,
  reasonNow: () => string | null,
): (result: ObservableResult) => void {
  const seen = new Set<string>();
  return (result) => {
    const reason = reasonNow();
    if (reason !== null && seen.size < 32) seen.add(reason);
    result.observe(0);
    for (const each of seen) result.observe(each === reason ? 1 : 0, { [label]: each });
    if (reason !== null && !seen.has(reason)) result.observe(1, { [label]: reason });
  };
}

/** `2xx`, `4xx`, `5xx`..., or `none` when no answer came (network, timeout). */
function statusClassOf(status: number | undefined): string {
  return status === undefined ? 'none' : `${Math.floor(status / 100)}xx`;
}
