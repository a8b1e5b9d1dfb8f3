import type { LedgerEntry } from '../../sandbox/index.ts';
import type { AcceptedDebit, FinalDebit } from './fleet-kiosk.ts';
import type { FleetPlan } from './plan.ts';

/** What `npm run fleet` reports (and writes as JSON); times in seconds from the run's start. */
export interface FleetReport {
  readonly kiosks: number;
  readonly minutes: number;
  readonly workers: number;
  readonly seed: number;
  readonly limitPerSecond: number;
  readonly outage: { readonly fromS: number; readonly toS: number };
  readonly debits: {
    readonly accepted: number;
    readonly acceptedOffline: number;
    /** Refused by the kiosk before any commit (offline limits): none is expected. */
    readonly refusedLocally: number;
    /** Accepted debits found exactly once in the service's ledger. */
    readonly appliedExactlyOnce: number;
    /** Accepted debits not in the ledger. */
    readonly missing: number;
    /** Ledger entries beyond the first for one key, plus entries for keys no kiosk accepted. */
    readonly duplicates: number;
    /** Accepted debits whose row did not end `applied` in its kiosk. */
    readonly notAppliedLocally: number;
  };
  readonly sync: {
    readonly kiosksBackInSync: number;
    /** From the outage's end to the last kiosk back in sync; null if one never was. */
    readonly secondsUntilAllInSync: number | null;
    readonly medianSeconds: number | null;
  };
  readonly requestRate: {
    readonly peakPerSecond: number;
    /** The busiest second from the outage's end on (requests that met the limiter). */
    readonly peakAfterOutage: number;
    readonly secondsAboveLimitAfterOutage: number;
    /** From the outage's end to the end of the last second above the limit; 0 if none was. */
    readonly overLimitUntilS: number;
    readonly total429: number;
    readonly after429: number;
  };
  readonly wallSeconds: number;
  /** Each second from the run's start: requests the limiter let through, and its 429s. */
  readonly series: readonly {
    readonly t: number;
    readonly admitted: number;
    readonly limited: number;
  }[];
}

export interface FleetObservations {
  readonly t0: number;
  readonly accepted: readonly AcceptedDebit[];
  readonly refusedLocally: number;
  /** Epoch ms at which each kiosk was back in sync after the outage. */
  readonly inSyncAt: readonly number[];
  readonly finals: readonly FinalDebit[];
  readonly ledger: readonly LedgerEntry[];
  readonly rate: readonly {
    readonly second: number;
    readonly admitted: number;
    readonly limited: number;
  }[];
  readonly wallMs: number;
}

const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const round1 = (value: number) => Math.round(value * 10) / 10;

export function fleetReport(plan: FleetPlan, seen: FleetObservations): FleetReport {
  const { settings } = plan;
  const ledgerCount = new Map<string, number>();
  for (const entry of seen.ledger)
    ledgerCount.set(entry.idempotencyKey, (ledgerCount.get(entry.idempotencyKey) ?? 0) + 1);
  const acceptedKeys = new Set(seen.accepted.map((debit) => debit.key));
  let duplicates = 0;
  for (const [key, count] of ledgerCount) duplicates += acceptedKeys.has(key) ? count - 1 : count;
  const appliedExactlyOnce = seen.accepted.filter((debit) => ledgerCount.get(debit.key) === 1);
  const finalState = new Map(seen.finals.map((debit) => [debit.key, debit.state]));

  const outageEnd = seen.t0 + plan.outage.toMs;
  const afterSecond = Math.ceil(outageEnd / 1000);
  const after = seen.rate.filter((entry) => entry.second >= afterSecond);
  const offered = (entry: { admitted: number; limited: number }) => entry.admitted + entry.limited;
  const allInSync = seen.inSyncAt.length === settings.kiosks;
  const t0Second = Math.floor(seen.t0 / 1000);
  return {
    kiosks: settings.kiosks,
    minutes: settings.minutes,
    workers: settings.workers,
    seed: settings.seed,
    limitPerSecond: plan.limitPerSecond,
    outage: { fromS: plan.outage.fromMs / 1000, toS: plan.outage.toMs / 1000 },
    debits: {
      accepted: seen.accepted.length,
      acceptedOffline: seen.accepted.filter((debit) => debit.offline).length,
      refusedLocally: seen.refusedLocally,
      appliedExactlyOnce: appliedExactlyOnce.length,
      missing: seen.accepted.filter((debit) => !ledgerCount.has(debit.key)).length,
      duplicates,
      notAppliedLocally: seen.accepted.filter((debit) => finalState.get(debit.key) !== 'applied')
        .length,
    },
    sync: {
      kiosksBackInSync: seen.inSyncAt.length,
      secondsUntilAllInSync: allInSync
        ? round1((Math.max(...seen.inSyncAt) - outageEnd) / 1000)
        : null,
      medianSeconds:
        seen.inSyncAt.length > 0
          ? round1((median(seen.inSyncAt.map((at) => at - outageEnd)) ?? 0) / 1000)
          : null,
    },
    requestRate: {
      peakPerSecond: Math.max(0, ...seen.rate.map(offered)),
      peakAfterOutage: Math.max(0, ...after.map(offered)),
      secondsAboveLimitAfterOutage: after.filter((entry) => offered(entry) > plan.limitPerSecond)
        .length,
      overLimitUntilS: Math.max(
        0,
        ...after
          .filter((entry) => offered(entry) > plan.limitPerSecond)
          .map((entry) => round1(entry.second + 1 - outageEnd / 1000)),
      ),
      total429: seen.rate.reduce((sum, entry) => sum + entry.limited, 0),
      after429: after.reduce((sum, entry) => sum + entry.limited, 0),
    },
    wallSeconds: round1(seen.wallMs / 1000),
    series: seen.rate.map((entry) => ({
      t: entry.second - t0Second,
      admitted: entry.admitted,
      limited: entry.limited,
    })),
  };
}

/** The report in a few lines, for the terminal. */
export function summaryLines(report: FleetReport): string[] {
  const { debits, sync, requestRate } = report;
  return [
    `fleet: ${report.kiosks} kiosks, ${report.minutes} min, outage ${report.outage.fromS}-${report.outage.toS} s, limit ${report.limitPerSecond} req/s (${report.wallSeconds} s of wall time)`,
    `debits: ${debits.accepted} accepted (${debits.acceptedOffline} offline), ${debits.appliedExactlyOnce} applied exactly once, ${debits.missing} missing, ${debits.duplicates} duplicates, ${debits.refusedLocally} refused locally`,
    `sync: ${sync.kiosksBackInSync}/${report.kiosks} kiosks back in sync, all within ${sync.secondsUntilAllInSync ?? 'never'} s of the outage's end (median ${sync.medianSeconds ?? '-'} s)`,
    `requests: peak ${requestRate.peakPerSecond}/s, after the outage ${requestRate.peakAfterOutage}/s (limit ${report.limitPerSecond}/s, ${requestRate.secondsAboveLimitAfterOutage} s above it); 429s: ${requestRate.total429} (${requestRate.after429} after the outage)`,
  ];
}
