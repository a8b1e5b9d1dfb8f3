import { Lease } from '../storage/index.ts';
import { heldReasonOf, localHolderAlive, type Outbox, SENDER_LEASE } from '../outbox/index.ts';
import { formatDuration } from './duration.ts';
import { count, euros, sumOf } from './wording.ts';
import type { Problem } from './trouble.ts';

/**
 * The live sender's state, read from what is durable: this process cannot see the kiosk's
 * memory. A held debit (a 400 or 403 on it, kept pending) is what pauses the live sender; the
 * sender lease says whether a kiosk is running to send at all.
 */

export interface HeldDebit {
  readonly id: number;
  readonly amount: number;
  readonly code: string;
  readonly message: string;
  /** When the service refused it (ISO, kiosk clock). */
  readonly since: string | null;
}

export interface SenderHealth {
  /**
   * `paused`: debits held for an administrator, or the account rejected; `running`: a kiosk
   * holds the sender lease; `stopped`: debits wait and no process sends them; `idle`: nothing
   * to send and no kiosk running.
   */
  readonly state: 'paused' | 'running' | 'stopped' | 'idle';
  /** The live holder of the sender lease (`host:pid:random`), null when none. */
  readonly leaseHolder: { readonly owner: string; readonly expiresAt: string } | null;
  readonly pending: {
    readonly count: number;
    /** EUR. */
    readonly amount: number;
    readonly oldestAgeMs: number | null;
  };
  readonly held: readonly HeldDebit[];
}

export function senderHealth(
  outbox: Outbox,
  now: number,
  credentialsRejected: boolean,
): { sender: SenderHealth; problems: Problem[] } {
  const holder = new Lease(outbox.db, {
    name: SENDER_LEASE,
    owner: 'kioskctl-status',
    ttlMs: 1,
    now: () => now,
  }).holder();
  const live =
    holder !== undefined && holder.expiresAt > now && localHolderAlive(holder.owner) !== false
      ? { owner: holder.owner, expiresAt: new Date(holder.expiresAt).toISOString() }
      : null;
  const summary = outbox.summary();
  const held = outbox.list({ state: 'pending' }).flatMap((debit): HeldDebit[] => {
    const reason = heldReasonOf(debit);
    if (reason === null) return [];
    const at = debit.lastAttemptAt;
    return [
      {
        id: debit.id,
        amount: debit.amount,
        code: reason.code,
        message: reason.message,
        since: at === null ? null : new Date(at).toISOString(),
      },
    ];
  });
  const waiting = summary.openCount;
  const state =
    held.length > 0 || credentialsRejected
      ? 'paused'
      : live !== null
        ? 'running'
        : waiting > 0
          ? 'stopped'
          : 'idle';
  const sender: SenderHealth = {
    state,
    leaseHolder: live,
    pending: {
      count: waiting,
      amount: summary.openAmount,
      oldestAgeMs: summary.oldestOpenAgeMs,
    },
    held,
  };
  const problems: Problem[] = [];
  if (held.length > 0) {
    const codes = [...new Set(held.map((debit) => debit.code))].join(', ');
    problems.push({
      class: 'sender-paused',
      code: 'SENDER_PAUSED',
      message: `${count(held.length, 'debit')} of ${euros(sumOf(held))} held for an administrator (${codes}): the kiosk sends no debit until then`,
      next: 'DEBIT_REQUEST_REFUSED: fix the integration profile (kioskctl contract check); DEBIT_SCOPE_MISSING: grant the account gift-cards:write; then "kioskctl outbox resume" (or resume in the kiosk\'s setup). Details: kioskctl outbox list --state pending',
    });
  } else if (state === 'stopped') {
    const age = summary.oldestOpenAgeMs;
    problems.push({
      class: 'sender-paused',
      code: 'SENDER_NOT_RUNNING',
      message: `${count(waiting, 'debit')} of ${euros(summary.openAmount)} wait${age === null ? '' : ` (oldest ${formatDuration(age)})`} and no kiosk is running to send them`,
      next: 'start the kiosk app, or send them from here: kioskctl outbox drain',
    });
  }
  return { sender, problems };
}
