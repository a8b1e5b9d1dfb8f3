import type { Clock } from '../foundation/index.ts';
import { Outbox } from '../outbox/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { type AttentionReport, attentionReport } from './debits-attention.ts';
import { type LoggedError, loggedErrors } from './log-errors.ts';
import { type MirrorHealth, mirrorHealth } from './mirror-age.ts';
import { type PrinterAccess, type PrinterHealth, printerHealth } from './printer-health.ts';
import { type SenderHealth, senderHealth } from './sender-state.ts';
import {
  type CredentialsHealth,
  type ErrorNote,
  type ServiceAccess,
  type ServiceHealth,
  checkService,
} from './service-check.ts';
import { type Problem, type TroubleClass, byPrecedence, verdictOf } from './trouble.ts';

/**
 * A kiosk's health in one object: what a technician reads first. Everything comes from what is
 * durable in the data directory (outbox, mirror, sender lease) and what this process checks
 * itself (the service, the account, the clock, the printers); nothing is written, no debit is
 * sent. No personal data, no token, no password: ids, amounts, codes and states only.
 */

export interface ProfileInUse {
  readonly name: string;
  readonly source: string;
  readonly path: string | null;
}

export interface HealthReport {
  readonly verdict: TroubleClass | 'healthy';
  /** Kiosk clock, ISO. */
  readonly checkedAt: string;
  /** Most important first: the first one's class is the verdict. */
  readonly problems: readonly Problem[];
  readonly service: ServiceHealth;
  readonly credentials: CredentialsHealth;
  readonly profile: ProfileInUse;
  readonly sender: SenderHealth;
  readonly attention: AttentionReport;
  readonly mirror: MirrorHealth;
  readonly printers: PrinterHealth;
  /** The latest errors recorded by the sync, the outbox, the log and this check, newest first. */
  readonly lastErrors: readonly LastError[];
}

export interface LastError extends ErrorNote {
  readonly source: 'service' | 'catalog' | 'outbox' | 'log';
  /** ISO; null for this check's own (it is now). */
  readonly at: string | null;
}

export interface HealthOptions {
  readonly database: KioskDatabase;
  readonly service: ServiceAccess;
  readonly printing: PrinterAccess;
  readonly profile: ProfileInUse;
  readonly staleAfterMs: number;
  readonly maxClockOffsetMs: number;
  /** The kiosk's log file (`KIOSK_LOG`), whose error lines join the last errors. */
  readonly logFile?: string | undefined;
  readonly clock?: Clock;
}

const LAST_ERRORS = 5;

export async function collectHealth(options: HealthOptions): Promise<HealthReport> {
  const kioskNow = () => options.clock?.now() ?? Date.now();
  const outbox = new Outbox({
    db: options.database,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  // The service and the printers are asked at once: each may take a timeout.
  const [service, printing, logged] = await Promise.all([
    checkService(options.service, options.maxClockOffsetMs),
    printerHealth(options.printing),
    options.logFile === undefined ? [] : loggedErrors(options.logFile, LAST_ERRORS),
  ]);
  const now = kioskNow();
  const sender = senderHealth(outbox, now, service.credentials.state === 'rejected');
  const attention = attentionReport(outbox);
  const mirror = mirrorHealth(
    options.database,
    { serviceNow: service.serviceNow, kioskNow: now },
    options.staleAfterMs,
  );
  const problems = byPrecedence([
    ...service.problems,
    ...sender.problems,
    ...attention.problems,
    ...mirror.problems,
    ...printing.problems,
  ]);
  return {
    verdict: verdictOf(problems),
    checkedAt: new Date(now).toISOString(),
    problems,
    service: service.service,
    credentials: service.credentials,
    profile: options.profile,
    sender: sender.sender,
    attention: attention.attention,
    mirror: mirror.mirror,
    printers: printing.printers,
    lastErrors: lastErrors(outbox, service.service, mirror.mirror, logged),
  };
}

function lastErrors(
  outbox: Outbox,
  service: ServiceHealth,
  mirror: MirrorHealth,
  logged: readonly LoggedError[],
): LastError[] {
  const dated: LastError[] = logged.map((line) => ({
    source: 'log',
    code: line.code ?? line.event,
    message: line.code === null ? '' : line.event,
    at: line.at,
  }));
  if (mirror.lastError !== null) dated.push({ source: 'catalog', ...mirror.lastError });
  for (const debit of outbox.recent(50)) {
    if (debit.lastErrorCode === null || debit.lastAttemptAt === null) continue;
    dated.push({
      source: 'outbox',
      code: debit.lastErrorCode,
      message: `debit ${debit.id} (${debit.state}): ${debit.lastErrorMessage ?? ''}`.trim(),
      at: new Date(debit.lastAttemptAt).toISOString(),
    });
  }
  dated.sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''));
  const now: LastError[] =
    service.error === null || service.connectivity === 'not-configured'
      ? []
      : [{ source: 'service', ...service.error, at: null }];
  return [...now, ...dated].slice(0, LAST_ERRORS);
}
