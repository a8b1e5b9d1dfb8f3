import type { AvailabilityStatus } from '../../shared/api/catalog.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';

const labels: Readonly<Record<AvailabilityStatus, MessageKey>> = {
  available: 'availabilityStatus.available',
  out_of_stock: 'availabilityStatus.outOfStock',
  sold: 'availabilityStatus.sold',
  reserved: 'availabilityStatus.reserved',
  withdrawn: 'availabilityStatus.withdrawn',
  unsalable: 'availabilityStatus.unsalable',
};

/** A symbol as well as a colour, so the status reads without telling colours apart. */
const symbols: Readonly<Record<AvailabilityStatus, string>> = {
  available: '✓',
  out_of_stock: '∅',
  sold: '✕',
  reserved: '⏸',
  withdrawn: '⊘',
  unsalable: '⚠',
};

/** The service's availability status of an item, one badge per status value. */
export function AvailabilityBadge({ status }: { readonly status: AvailabilityStatus }) {
  const { t } = useI18n();
  return (
    <span
      className={`badge badge-status badge-${status.replaceAll('_', '-')}`}
      data-status={status}
    >
      <span aria-hidden="true">{symbols[status]}</span> {t(labels[status])}
    </span>
  );
}
