import { Fragment } from 'react';
import type { Customer } from '../../shared/api/customers.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { customerName } from './customer-name.ts';

/** The customer's record. Contact data appears only when the service sent it (its scopes). */
export function CustomerDetail({ customer }: { readonly customer: Customer }) {
  const { t, fmt } = useI18n();
  const shops = useKiosk('availability', (s) => s.shops);
  const shop = shops?.find((candidate) => candidate.id === customer.shopId);
  const contact = customer.contact;
  const contactLines: [string, string][] = contact
    ? (
        [
          [t('customer.email'), contact.email],
          [t('customer.phone'), contact.phone],
          [
            t('customer.address'),
            [contact.address, [contact.postalCode, contact.city].filter(Boolean).join(' ')]
              .filter(Boolean)
              .join(', ') || null,
          ],
        ] as const
      ).filter((line): line is [string, string] => line[1] !== null && line[1] !== '')
    : [];

  return (
    <section
      className="customer-detail"
      aria-labelledby="customer-name"
      data-testid="customer-detail"
    >
      <h2 id="customer-name">{customerName(customer, t)}</h2>
      <dl className="facts">
        <dt>{t('customer.type')}</dt>
        <dd>
          {t(customer.typeCustomer === 'company' ? 'customer.company' : 'customer.individual')}
        </dd>
        {customer.shopId && (
          <>
            <dt>{t('customer.shop')}</dt>
            <dd>{shop?.name ?? customer.shopId}</dd>
          </>
        )}
        <dt>{t('customer.since')}</dt>
        <dd>{fmt.dateTime(customer.createdAt)}</dd>
        {contactLines.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </Fragment>
        ))}
        {customer.internalComments && (
          <>
            <dt>{t('customer.comments')}</dt>
            <dd>{customer.internalComments}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
