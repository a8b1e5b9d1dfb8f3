import { UNDECIDED, writePath } from './field-path.ts';
import type { IntegrationProfile } from './integration-profile.ts';

/** The values of one debit, before the profile shapes them into the service's body. */
export interface DebitValues {
  readonly amount: number;
  readonly currency: 'EUR';
  readonly reference: string;
  readonly shopId: string | null;
}

/** The debit body's slots a person must still decide (`"?"` anywhere in a path). */
export function undecidedDebitSlots(profile: IntegrationProfile): string[] {
  return (Object.entries(profile.giftCardDebit.body) as [string, string | null][])
    .filter(([, path]) => path !== null && path.split('.').includes(UNDECIDED))
    .map(([slot]) => `giftCardDebit.body.${slot}`);
}

/** Why a profile is never used for money, or null when its debit body is decided. */
export function debitBodyRefusal(profile: IntegrationProfile): string | null {
  const undecided = undecidedDebitSlots(profile);
  if (undecided.length === 0) return null;
  return `the integration profile "${profile.name}" leaves the debit body undecided ("?" at ${undecided.join(', ')}): no debit is sent with it (reads still work); decide where each value goes, then run kioskctl contract check`;
}

/** A debit body built from a profile that has not decided it: never sent. */
export class DebitBodyUndecided extends Error {
  override readonly name = 'DebitBodyUndecided';
}

/**
 * The debit request body this profile's service takes: each value where the template puts it.
 * A template holding `"?"` is refused (DebitBodyUndecided): its key would be sent as written.
 */
export function debitBodyOf(
  profile: IntegrationProfile,
  values: DebitValues,
): Record<string, unknown> {
  const refusal = debitBodyRefusal(profile);
  if (refusal !== null) throw new DebitBodyUndecided(refusal);
  const template = profile.giftCardDebit.body;
  const body: Record<string, unknown> = {};
  writePath(body, template.amount, values.amount);
  if (template.currency !== null) writePath(body, template.currency, values.currency);
  if (template.reference !== null) writePath(body, template.reference, values.reference);
  if (template.shopId !== null && values.shopId !== null)
    writePath(body, template.shopId, values.shopId);
  return body;
}
