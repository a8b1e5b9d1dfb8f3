import {
  debitBodyOf,
  type DebitValues,
  type IntegrationProfile,
} from '../../shared/profile/index.ts';

/**
 * A debit's request body as the outbox stores it: the one place it is serialised. The gateway
 * sends the stored text itself (`JsonText`), so what went out under a key is what the row holds,
 * byte for byte, on every attempt; a new text is stored only by a rebuild, under a key that never
 * went out with another.
 */
export function requestBodyOf(profile: IntegrationProfile, values: DebitValues): string {
  return JSON.stringify(debitBodyOf(profile, values));
}
