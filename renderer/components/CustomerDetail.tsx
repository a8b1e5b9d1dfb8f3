import { Fragment } from 'react';
import type { CustomerEntry } from '../../shared/ipc/records.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { customerName } from './customer-name.ts';
import { OtherFields } from './OtherFields.tsx';
import { shopLabel } from './ShopPicker.tsx';

/** The customer's record. Contact data appears only when the service sent it (its scopes). */
export function CustomerDetail({ customer }: { readonly customer: CustomerEntry }) {
  const { t, fmt } = useI18n();
  const shops = useKiosk('availability', (s) => s.shops);
  const shop = shops?.find((candidate) => candidate.id === customer.shopId);
  const notProvided = t('record.notProvided');
  // Contact data comes only with the account's personal-data scope: absent, it is left out.
  const contactLines = (
    [
      [t('customer.email'), customer.email],
      [t('customer.phone'), customer.phone],
      [
        t('customer.address'),
        [customer.address, [customer.postalCode, customer.city].filter(Boolean).join(' ')]
          .filter(Boolean)
          .join(', ') || null,
      ],
    ] as const
  ).filter((line): line is [string, string] => line[1] !== null && line[1] !== '');

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
          {customer.isCompany === null
            ? (customer.customerType ?? notProvided)
            : t(customer.isCompany ? 'customer.company' : 'customer.individual')}
        </dd>
        {customer.shopId && (
          <>
            <dt>{t('customer.shop')}</dt>
            <dd>{shop ? shopLabel(shop) : customer.shopId}</dd>
          </>
        )}
        <dt>{t('customer.since')}</dt>
        <dd>{customer.createdAt === null ? notProvided : fmt.dateTime(customer.createdAt)}</dd>
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
      <OtherFields fields={customer.otherFields} />
    </section>
  );
}
