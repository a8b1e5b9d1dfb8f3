import { randomUUID } from 'node:crypto';
import type { OutboxDebit } from './debit.ts';
import { OutboxError } from './errors.ts';
import type { Outbox } from './outbox.ts';
import { requestBodyOf } from './request-body.ts';

/**
 * A debit held as "outcome unknown" waits for a person: its earlier attempt may have reached the
 * service and nothing proves whether it was applied (`debit-attempts.ts` holds it). Staff look at
 * what the kiosk knows (keys, times, the card's balance before and now, read from the service:
 * evidence to weigh, never proof the kiosk acts on by itself) and record one of two outcomes,
 * with who and when:
 * - `applied`: the money was taken; the debit is settled `applied` by staff, nothing is sent;
 * - `not_applied`: nothing was taken; that is the positive evidence the outbox needed, so the
 *   debit is sent again: under its own key when its body is still the one the profile writes
 *   (if the service does remember the key and had applied it, it replays that answer instead of
 *   debiting again), under a new key when the service saw that key with another body.
 * The first record stands; the same record again (a retry after a lost reply) is harmless.
 */
export function resolveUnknownOutcome(
  outbox: Outbox,
  id: number,
  input: { readonly outcome: 'applied' | 'not_applied'; readonly by: string },
): OutboxDebit {
  const by = input.by.trim();
  if (by === '' || by.length > 64) {
    throw new OutboxError(
      'OUTBOX_INVALID_DEBIT',
      'by: who records the outcome (1 to 64 characters)',
    );
  }
  const now = outbox.clock.now();
  if (input.outcome === 'applied') {
    const settled = outbox.db.transaction(() => outbox.store.staffApplied(id, by, now));
    if (settled) {
      outbox.events.emit('change', {
        type: 'state-changed',
        debit: settled.debit,
        from: settled.from,
        to: settled.debit.state,
        reason: 'STAFF_APPLIED',
      });
      return settled.debit;
    }
  } else {
    const lifted = outbox.db.transaction(() => {
      const before = outbox.store.get(id);
      const done = outbox.store.staffNotApplied(id, by, now);
      if (!done) return undefined;
      rebuildAfterEvidence(outbox, done, before?.outcomeUnknown?.reason === 'KEY_REUSED');
      return outbox.store.get(id);
    });
    if (lifted) {
      outbox.events.emit('change', {
        type: 'state-changed',
        debit: lifted,
        from: 'pending',
        to: 'pending',
        reason: 'STAFF_NOT_APPLIED',
      });
      return lifted;
    }
  }
  const current = outbox.get(id);
  const recorded = current.staffOutcome;
  if (recorded && recorded.outcome === input.outcome && recorded.by === by) return current;
  throw new OutboxError(
    'OUTBOX_INVALID_STATE',
    recorded
      ? `debit ${id} already has an outcome recorded by ${recorded.by} (${recorded.outcome})`
      : `debit ${id} is ${current.state} and not held as "outcome unknown"; nothing to record`,
  );
}

/**
 * Once evidence says no attempt was applied, the body is written again by the profile in force
 * (a profile changed while the debit was held applies now), under a new key when the body changed
 * after its key went out, or always when the service saw that key with another body
 * (`forceNewKey`). Call inside the transaction that recorded the evidence, or right after it.
 */
export function rebuildAfterEvidence(
  outbox: Outbox,
  debit: OutboxDebit,
  forceNewKey = debit.outcomeUnknown?.reason === 'KEY_REUSED',
): void {
  const requestBody = requestBodyOf(outbox.profile, {
    amount: debit.amountCents / 100,
    currency: 'EUR',
    reference: debit.reference,
    shopId: debit.shopId,
  });
  outbox.store.rebuildBody(debit.id, debit, requestBody, randomUUID, outbox.clock.now(), {
    forceNewKey,
  });
}
