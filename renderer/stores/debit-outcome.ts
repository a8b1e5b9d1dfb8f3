import { type IpcError, ipcErrorCodes } from '../../shared/ipc/errors.ts';
import {
  type DebitGiftCardReply,
  type DebitView,
  isOpenDebitState,
} from '../../shared/ipc/gift-cards.ts';
import { TRANSPORT_ERROR } from './call.ts';

/**
 * What staff need to know about a debit, from main's view of it:
 * - `applied`: the service recorded it (its new balance, when known);
 * - `refused`: the service said no (its reason is `debit.lastError`);
 * - `storedOffline`: kept on this kiosk and sent when the service answers again;
 * - `waiting`: sent, the answer has not come yet;
 * - `failed`, `expired`, `cancelled`: over without being applied.
 */
export type DebitOutcome =
  'applied' | 'refused' | 'storedOffline' | 'waiting' | 'failed' | 'expired' | 'cancelled';

export function outcomeOf(
  debit: DebitView,
  delivery: DebitGiftCardReply['delivery'] | null,
): DebitOutcome {
  switch (debit.state) {
    case 'applied':
    case 'refused':
    case 'failed':
    case 'expired':
    case 'cancelled':
      return debit.state;
    case 'pending':
    case 'sending':
      // A debit that met a failure is on the retry path: for the counter it is stored offline.
      return debit.acceptedOffline || delivery === 'stored-offline' || debit.lastError !== null
        ? 'storedOffline'
        : 'waiting';
  }
}

/**
 * Failures after which a debit may be stored all the same: the request may have reached main and
 * only its reply was lost (the transport failed, main failed after the commit or broke the
 * contract in its reply), or main kept a debit over an offline limit whose answer did not come
 * and which may have reached the service (OUTBOX_ANSWER_AWAITED: not accepted, not refused).
 * Every other failure is a refusal: nothing was taken (bad input, an offline limit, the service
 * required while offline).
 */
const lostReplyCodes: ReadonlySet<string> = new Set([
  TRANSPORT_ERROR,
  ipcErrorCodes.transport,
  ipcErrorCodes.internal,
  'OUTBOX_ANSWER_AWAITED',
]);

export function mayBeStored(error: IpcError): boolean {
  return lostReplyCodes.has(error.code);
}

/**
 * Main kept a debit over an offline limit whose answer did not come and whose bytes may have
 * reached the service: held as "outcome unknown" (OVER_OFFLINE_LIMIT) until a person records what
 * became of it. Not an outcome for the screen: like a lost reply, the sale (its request id) is kept
 * and its notice shown on every way back to the card until main gives the recorded outcome.
 */
export function isHeldOverLimit(error: IpcError): boolean {
  return error.code === 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN';
}

/** Main's view of such a debit (an event about it): still open, held for a person. */
export function isHeldOverLimitView(debit: DebitView): boolean {
  return (
    isOpenDebitState(debit.state) &&
    debit.outcomeUnknown?.reason === 'OVER_OFFLINE_LIMIT' &&
    !debit.acceptedOffline
  );
}

/**
 * Withdrawn by main when its wait ended over an offline limit, before any byte of it reached the
 * service: a refusal for the screen (OUTBOX_LIMIT_EXCEEDED, from main's reply), not a cancellation.
 */
export function isWithdrawnView(debit: DebitView): boolean {
  return debit.state === 'cancelled' && debit.lastError?.code === 'OUTBOX_LIMIT_EXCEEDED';
}
