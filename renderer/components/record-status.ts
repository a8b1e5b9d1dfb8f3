import type { MessageKey } from '../i18n/catalogue.ts';
import type { Translate } from '../i18n/translate.ts';

/**
 * Status words the service is known to use for sales, orders, SAV cases and credits. The status
 * itself is the service's; this only puts it in the chosen language. A status not listed here is
 * shown exactly as the service wrote it.
 */
const statusKeys: Readonly<Record<string, MessageKey>> = {
  completed: 'recordStatus.completed',
  partially_paid: 'recordStatus.partiallyPaid',
  cancelled: 'recordStatus.cancelled',
  pending: 'recordStatus.pending',
  ready_for_pickup: 'recordStatus.readyForPickup',
  in_delivery: 'recordStatus.inDelivery',
  delivered: 'recordStatus.delivered',
  open: 'recordStatus.open',
  diagnosis: 'recordStatus.diagnosis',
  in_repair: 'recordStatus.inRepair',
  waiting_parts: 'recordStatus.waitingParts',
  ready: 'recordStatus.ready',
  closed: 'recordStatus.closed',
  active: 'recordStatus.active',
  inactive: 'recordStatus.inactive',
  used: 'recordStatus.used',
  expired: 'recordStatus.expired',
};

export function recordStatus(status: string, t: Translate): string {
  const key = statusKeys[status];
  return key ? t(key) : status;
}
