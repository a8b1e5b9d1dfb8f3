import type { Check } from './invariants.ts';
import { TIMELINE_LIMIT, type SeedRun } from './seed-run.ts';

/**
 * What the torture run reports: a line of counts per seed, the totals that prove the run
 * tortured something, and for a failing seed everything needed to understand it without running
 * it again.
 */

/** What a seed went through, counted; the run's totals add these up. */
export interface Counts {
  readonly debits: number;
  readonly rows: number;
  readonly kills: number;
  readonly lostReplies: number;
  readonly childRuns: number;
  readonly pauses: number;
  readonly faultsArmed: number;
  readonly faultsFired: number;
  readonly applied: number;
  readonly refused: number;
  readonly failed: number;
  /** Expired, never applied (on evidence). */
  readonly expired: number;
  /** Held as "outcome unknown" at the end, or waiting behind such a debit of its card. */
  readonly held: number;
  /** Seeds that played an `OutcomeCase` (empty usages, profile changes, clock jumps...). */
  readonly outcomeCases: number;
  readonly unacknowledgedRows: number;
}

const countNames = [
  'debits',
  'rows',
  'kills',
  'lostReplies',
  'childRuns',
  'pauses',
  'faultsArmed',
  'faultsFired',
  'applied',
  'refused',
  'failed',
  'expired',
  'held',
  'outcomeCases',
  'unacknowledgedRows',
] as const satisfies readonly (keyof Counts)[];

export interface SeedReport extends Counts {
  readonly seed: number;
  readonly ok: boolean;
  readonly problems: readonly string[];
  /** For a failing seed: its scenario, rows, the service's ledger and what each child did. */
  readonly detail?: string;
  readonly revoked: boolean;
  readonly ms: number;
}

export interface TortureReport {
  readonly runs: number;
  readonly baseSeed: number;
  readonly failedSeeds: readonly number[];
  readonly totals: Counts & { readonly revocations: number };
  readonly reports: readonly SeedReport[];
  readonly ms: number;
}

/** The report of a seed once its round is over and its invariants are checked. */
export function seedReport(
  run: SeedRun,
  roundKills: readonly number[],
  check: Check,
  faultsFired: number,
): SeedReport {
  const ok = run.problems.length === 0;
  return {
    seed: run.seed,
    ok,
    problems: run.problems,
    ...(ok ? {} : { detail: describeFailure(run, roundKills, check) }),
    debits: run.scenario.plan.length,
    rows: check.rows.length,
    kills: run.kills,
    lostReplies: run.lostReplies,
    childRuns: run.childRuns,
    pauses: run.pauses,
    faultsArmed: run.armed.length,
    faultsFired,
    applied: check.applied,
    refused: check.refused,
    failed: check.failed,
    expired: check.expired,
    held: check.held,
    outcomeCases: run.scenario.outcome ? 1 : 0,
    unacknowledgedRows: check.unacknowledged,
    revoked: run.scenario.revoke !== undefined,
    ms: Math.round(performance.now() - run.started),
  };
}

/** A seed whose round broke in the harness itself: nothing was checked. */
export function harnessFailure(seed: number, error: unknown): SeedReport {
  return {
    seed,
    ok: false,
    problems: [
      `the harness failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    ],
    ...(Object.fromEntries(countNames.map((name) => [name, 0])) as Record<keyof Counts, 0>),
    revoked: false,
    ms: 0,
  };
}

/** Everything needed to understand a failing seed without running it again. */
export function describeFailure(run: SeedRun, kills: readonly number[], check: Check): string {
  const { scenario } = run;
  const lines = [
    `scenario: ${JSON.stringify({
      plan: scenario.plan,
      faults: scenario.faults,
      revoke: scenario.revoke ?? null,
      tokenExpiryAtMs: scenario.tokenExpiryAtMs ?? null,
      concurrency: scenario.concurrency,
      outcome: scenario.outcome ?? null,
      roundKillsMs: kills,
    })}`,
    `acknowledged (${run.acked.size}): ${JSON.stringify([...run.acked.values()])}`,
    `rows (${check.rows.length}):`,
    ...check.rows.map(
      (row) =>
        `  ${JSON.stringify({
          id: row.id,
          key: row.idempotency_key,
          requestId: row.request_id,
          card: row.gift_card_id,
          body: row.request_body,
          reference: row.reference,
          state: row.state,
          attempts: row.attempts,
          error: row.last_error_code,
          held: row.outcome_unknown_since !== null,
          acknowledged: run.acked.has(row.idempotency_key),
        })}`,
    ),
    `service ledger (${check.ledger.length}):`,
    ...check.ledger.map(
      (entry) =>
        `  ${JSON.stringify({
          key: entry.idempotencyKey,
          card: entry.giftCardId,
          amount: entry.amount,
          reference: entry.reference,
          balanceAfter: entry.balanceAfter,
          at: entry.at,
        })}`,
    ),
    `timeline (ms since the seed started${run.timeline.length >= TIMELINE_LIMIT ? `, first ${TIMELINE_LIMIT} events` : ''}):`,
    ...run.timeline.map((line) => `  ${line}`),
  ];
  return lines.join('\n');
}

/** The whole run: every seed's report and the totals. */
export function tortureReport(
  baseSeed: number,
  reports: readonly SeedReport[],
  ms: number,
): TortureReport {
  const totals = Object.fromEntries(
    countNames.map((name) => [name, reports.reduce((sum, report) => sum + report[name], 0)]),
  ) as Record<keyof Counts, number>;
  return {
    runs: reports.length,
    baseSeed,
    failedSeeds: reports
      .filter((entry) => !entry.ok)
      .map((entry) => entry.seed)
      .sort((a, b) => a - b),
    totals: { ...totals, revocations: reports.filter((r) => r.revoked).length },
    reports,
    ms,
  };
}

/** The run's last line: what was tortured, and which seeds failed. */
export function summaryLine(report: TortureReport, runs: number, batch: number): string {
  const t = report.totals;
  return (
    `outbox torture: ${report.runs} runs (seeds ${report.baseSeed}..${report.baseSeed + runs - 1}, rounds of ${batch}), ` +
    `${t.debits} debits planned, ${t.rows} rows (${t.unacknowledgedRows} committed but never acknowledged), ` +
    `${t.applied} applied, ${t.refused} refused, ${t.failed} failed, ${t.expired} expired, ${t.held} held as unknown ` +
    `(${t.outcomeCases} seeds with empty or unverified usages, profile changes or clock jumps); ` +
    `${t.lostReplies} replies lost and sent again; ` +
    `${t.kills} SIGKILLs, ${t.childRuns} child runs, ` +
    `${t.revocations} revocations (${t.pauses} pauses), ${t.faultsArmed} faults armed (${t.faultsFired} fired); ` +
    `${report.failedSeeds.length} failed seeds${report.failedSeeds.length ? ` [${report.failedSeeds.join(', ')}]` : ''}; ${(report.ms / 1000).toFixed(1)} s`
  );
}
