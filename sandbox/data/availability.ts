import type { z } from 'zod';
import type { Availability, AvailabilityStatus } from '../../shared/api/catalog.ts';
import type { Random } from './random.ts';

/**
 * An item's availability as the service computes it. One rule everywhere (seed, activity, tests):
 * an item is available only when its status is `available` and it has a known, positive quantity;
 * every other status carries a reason staff can read at the kiosk.
 */

type UnavailableStatus = Exclude<AvailabilityStatus, 'available'>;
type AvailabilityValue = z.infer<typeof Availability>;

const reasons: Record<UnavailableStatus, readonly string[]> = {
  out_of_stock: [
    'Rupture de stock en magasin',
    'En attente de réapprovisionnement fournisseur',
    'Rupture chez le fabricant, date de retour inconnue',
  ],
  sold: ['Vendu : dernier exemplaire du magasin', 'Vendu, en attente de retrait par le client'],
  reserved: [
    'Réservé pour un client (retrait sous 48 h)',
    'Réservé pour une commande en ligne',
    'Mis de côté à la demande d’un vendeur',
  ],
  withdrawn: [
    'Retiré de la vente : rappel fabricant',
    'Retiré de la vente : fin de série',
    'Retiré de la vente : contrôle qualité en cours',
  ],
  unsalable: [
    'Invendable : carton endommagé',
    'Invendable : appareil rayé lors de la livraison',
    'Invendable : pièce manquante',
  ],
};

/**
 * There are only a few dozen distinct availabilities, so they are shared (and frozen, so that
 * sharing cannot leak an edit): a 100k catalogue holds ~370k items. Change an item's
 * availability by assigning a new value, never by editing it.
 */
const availableNow: AvailabilityValue = Object.freeze({
  available: true,
  status: 'available',
  reason: null,
});
const availableButEmpty: AvailabilityValue = Object.freeze({
  available: false,
  status: 'available',
  reason: null,
});
const unavailable = new Map<AvailabilityStatus, Map<string | null, AvailabilityValue>>();

export function availabilityOf(
  status: AvailabilityStatus,
  quantity: number | null,
  reason: string | null,
): AvailabilityValue {
  if (status === 'available')
    return quantity !== null && quantity > 0 ? availableNow : availableButEmpty;
  let byReason = unavailable.get(status);
  if (byReason === undefined) {
    byReason = new Map();
    unavailable.set(status, byReason);
  }
  let value = byReason.get(reason);
  if (value === undefined) {
    value = Object.freeze({ available: false, status, reason });
    byReason.set(reason, value);
  }
  return value;
}

/** A plausible quantity and availability for an item put in `status`. */
export function stockInStatus(
  random: Random,
  status: AvailabilityStatus,
): { quantity: number | null; availability: z.infer<typeof Availability> } {
  let quantity: number | null;
  switch (status) {
    case 'available':
      quantity = random.weighted([
        [random.int(1, 3), 5],
        [random.int(4, 12), 3],
        [random.int(13, 40), 1],
      ]);
      break;
    case 'out_of_stock':
    case 'sold':
      quantity = 0;
      break;
    case 'reserved':
    case 'unsalable':
      quantity = random.int(1, 2);
      break;
    case 'withdrawn':
      // The service does not always know what is left of a recalled series.
      quantity = random.chance(0.5) ? null : random.int(0, 5);
      break;
  }
  const reason = status === 'available' ? null : random.pick(reasons[status]);
  return { quantity, availability: availabilityOf(status, quantity, reason) };
}
