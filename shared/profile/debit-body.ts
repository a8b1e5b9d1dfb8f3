import { writePath } from './field-path.ts';
import type { IntegrationProfile } from './integration-profile.ts';

/** The values of one debit, before the profile shapes them into the service's body. */
export interface DebitValues {
  readonly amount: number;
  readonly currency: 'EUR';
  readonly reference: string;
  readonly shopId: string | null;
}

/** The debit request body this profile's service takes: each value where the template puts it. */
export function debitBodyOf(
  profile: IntegrationProfile,
  values: DebitValues,
): Record<string, unknown> {
  const template = profile.giftCardDebit.body;
  const body: Record<string, unknown> = {};
  writePath(body, template.amount, values.amount);
  if (template.currency !== null) writePath(body, template.currency, values.currency);
  if (template.reference !== null) writePath(body, template.reference, values.reference);
  if (template.shopId !== null && values.shopId !== null)
    writePath(body, template.shopId, values.shopId);
  return body;
}
