import type { MessageKey } from '../i18n/catalogue.ts';
import type { SecondCriterion } from '../stores/customer-store.ts';

export const criterionLabels: Readonly<Record<SecondCriterion, MessageKey>> = {
  lastName: 'criterion.lastName',
  firstName: 'criterion.firstName',
  phone: 'criterion.phone',
  postalCode: 'criterion.postalCode',
};
