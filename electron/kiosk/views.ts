import type { OutboxChanged } from '../../shared/ipc/events.ts';
import { isOpenDebitState } from '../../shared/ipc/gift-cards.ts';
import type {
  DayReport,
  DebitView,
  PrintJob,
  PrinterInfo,
  SenderStatus,
} from '../../shared/ipc/index.ts';
import { safeMessage } from '../ipc/index.ts';
import {
  heldReasonOf,
  needsAttention,
  type Outbox,
  type OutboxDebit,
  type OutboxEvent,
  type SenderStatus as OutboxSenderStatus,
} from '../outbox/index.ts';
import type { PrinterInfo as BackendPrinterInfo, PrintJobSnapshot } from '../printing/index.ts';

/**
 * The services' records as the renderer sees them: times as ISO text, `undefined` as `null`
 * (JSON has no undefined), and nothing the screen has no use for (the idempotency key and the
 * raw request body of a debit stay in main).
 */

const iso = (epochMs: number): string => new Date(epochMs).toISOString();
const isoOrNull = (epochMs: number | null): string | null =>
  epochMs === null ? null : iso(epochMs);

const balanceView = (
  balance: { readonly cents: number; readonly at: number } | null,
): { amount: number; at: string } | null =>
  balance === null ? null : { amount: balance.cents / 100, at: iso(balance.at) };

export function debitView(debit: OutboxDebit): DebitView {
  const open = isOpenDebitState(debit.state);
  return {
    id: debit.id,
    giftCardId: debit.giftCardId,
    amount: debit.amount,
    reference: debit.reference,
    policy: debit.policy,
    acceptedOffline: debit.acceptedOffline,
    state: debit.state,
    attempts: debit.attempts,
    createdAt: iso(debit.createdAt),
    updatedAt: iso(debit.updatedAt),
    lastAttemptAt: isoOrNull(debit.lastAttemptAt),
    nextAttemptAt: open ? iso(debit.nextAttemptAt) : null,
    lastError:
      debit.lastErrorCode === null
        ? null
        : { code: debit.lastErrorCode, message: safeMessage(debit.lastErrorMessage ?? '') },
    newBalance: debit.newBalance,
    reply:
      debit.reply === null
        ? null
        : debit.reply.kind === 'receipt'
          ? { kind: 'receipt', receipt: debit.reply.receipt }
          : { kind: 'usage', usage: debit.reply.usage },
    settledAt: isoOrNull(debit.settledAt),
    settledBy: debit.settledBy,
    acknowledged: debit.acknowledgedAt !== null,
    requestId: debit.requestId ?? null,
    needsAttention: needsAttention(debit),
    heldReason: heldReasonOf(debit),
    outcomeUnknown:
      debit.outcomeUnknown === null || !open
        ? null
        : {
            since: iso(debit.outcomeUnknown.since),
            reason: debit.outcomeUnknown.reason,
            balanceBefore: balanceView(debit.balanceBefore),
            balanceNow: balanceView(debit.balanceNow),
          },
    staffOutcome:
      debit.staffOutcome === null
        ? null
        : {
            outcome: debit.staffOutcome.outcome,
            by: debit.staffOutcome.by,
            at: iso(debit.staffOutcome.at),
          },
    staffResolution:
      debit.staffResolution === null
        ? null
        : {
            kind: debit.staffResolution.kind,
            method: debit.staffResolution.method,
            at: iso(debit.staffResolution.at),
          },
  };
}

/** Staff know a card by its masked number: the one last read, when the kiosk has read it. */
export function debitWithCardView(
  debit: OutboxDebit,
  outbox: Pick<Outbox, 'knownCard'>,
): DebitView {
  return {
    ...debitView(debit),
    maskedNumber: outbox.knownCard(debit.giftCardId)?.maskedNumber ?? null,
  };
}

/** Every debit accepted on a local day, as the screen shows it and the printer prints it. */
export function dayReportView(
  outbox: Pick<Outbox, 'acceptedOn' | 'knownCard'>,
  date: string,
): DayReport {
  return {
    date,
    debits: outbox.acceptedOn(date).map((debit) => debitWithCardView(debit, outbox)),
  };
}

/**
 * An outbox event as the screens get it: each debit as `listDebits` shows it (masked number
 * included), so that the screens' lists follow the events without reading them again.
 */
export function outboxEventView(
  event: OutboxEvent,
  outbox: Pick<Outbox, 'knownCard'>,
): OutboxChanged {
  switch (event.type) {
    case 'accepted':
      return {
        type: 'accepted',
        debit: debitWithCardView(event.debit, outbox),
        connectivity: event.connectivity,
      };
    case 'state-changed':
      return {
        type: 'state-changed',
        debit: debitWithCardView(event.debit, outbox),
        from: event.from,
        to: event.to,
        reason: event.reason,
      };
    case 'held':
      return {
        type: 'held',
        debit: debitWithCardView(event.debit, outbox),
        code: event.code,
        message: safeMessage(event.message),
      };
    case 'sender-paused':
      return { type: 'sender-paused', code: event.code, message: safeMessage(event.message) };
    case 'sender-resumed':
      return { type: 'sender-resumed' };
    case 'sender-lease':
      // The owner names the host and the process: of no use to staff.
      return { type: 'sender-lease', held: event.held };
  }
}

export function senderView(status: OutboxSenderStatus): SenderStatus {
  return {
    running: status.running,
    holdsLease: status.holdsLease,
    paused:
      status.paused === null
        ? null
        : { code: status.paused.code, message: safeMessage(status.paused.message) },
    gateUntil: isoOrNull(status.gateUntil),
    inFlight: status.inFlight,
  };
}

export function printJobView(job: PrintJobSnapshot): PrintJob {
  return {
    id: job.id,
    kind: job.kind,
    reference: job.reference,
    documentNumber: job.documentNumber ?? null,
    printer: job.printer ?? null,
    copies: job.copies,
    state: job.state,
    problem: job.problem === undefined ? null : { ...job.problem },
    retries: job.retries,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}

export function printerView(printer: BackendPrinterInfo): PrinterInfo {
  return {
    name: printer.name,
    isDefault: printer.isDefault,
    state: printer.state,
    accepting: printer.accepting,
    reason: printer.reason === undefined ? null : { ...printer.reason },
  };
}
