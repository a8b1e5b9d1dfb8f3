import { expect, it } from 'vitest';
import { mayBeStored } from '../../../renderer/stores/debit-outcome.ts';

/**
 * A debit main kept for the service's answer (over an offline limit, its answer not in, perhaps
 * with the service) is neither accepted nor refused: the screen treats it as a lost reply and
 * asks again with the same request id, never offering a new debit. A limit refusal is final.
 */
it('OUTBOX_ANSWER_AWAITED may be stored; OUTBOX_LIMIT_EXCEEDED and the card checks are refusals', () => {
  expect(mayBeStored({ code: 'OUTBOX_ANSWER_AWAITED', message: '' })).toBe(true);
  for (const code of [
    'OUTBOX_LIMIT_EXCEEDED',
    'OUTBOX_OVER_KNOWN_BALANCE',
    'OUTBOX_UNKNOWN_CARD',
  ]) {
    expect(mayBeStored({ code, message: '' })).toBe(false);
  }
});
