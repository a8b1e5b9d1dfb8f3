import type { Customer } from '../../shared/api/customers.ts';
import type { Translate } from '../i18n/translate.ts';

/** "First Last", or whichever part exists, or a plain placeholder. */
export function customerName(
  customer: Pick<Customer, 'firstName' | 'lastName'>,
  t: Translate,
): string {
  const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ');
  return name === '' ? t('customer.noName') : name;
}
