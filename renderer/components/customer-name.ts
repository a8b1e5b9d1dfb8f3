import type { Translate } from '../i18n/translate.ts';

/** "First Last", or whichever part exists, or a plain placeholder. */
export function customerName(
  customer: { readonly firstName: string | null; readonly lastName: string | null },
  t: Translate,
): string {
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  return name === '' ? t('customer.noName') : name;
}
