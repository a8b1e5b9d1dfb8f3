import {
  Ban,
  CircleCheck,
  CirclePause,
  CircleSlash,
  CircleX,
  type LucideIcon,
  TriangleAlert,
} from 'lucide-react';
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

/**
 * An icon as well as a colour, so the status reads without telling colours apart (drawn, not a
 * font's glyph: the kiosk's fonts lack some of them).
 */
const icons: Readonly<Record<AvailabilityStatus, LucideIcon>> = {
  available: CircleCheck,
  out_of_stock: CircleSlash,
  sold: CircleX,
  reserved: CirclePause,
  withdrawn: Ban,
  unsalable: TriangleAlert,
};

/** The service's availability status of an item, one badge per status value. */
export function AvailabilityBadge({ status }: { readonly status: AvailabilityStatus }) {
  const { t } = useI18n();
  const Icon = icons[status];
  return (
    <span
      className={`badge badge-status badge-${status.replaceAll('_', '-')}`}
      data-status={status}
    >
      <Icon aria-hidden="true" size={18} strokeWidth={2.5} /> {t(labels[status])}
    </span>
  );
}
