import type { Shop } from '../../shared/api/referentials.ts';
import type { Sav } from '../../shared/api/sav.ts';

/**
 * Wording shared by the sandbox's documents. They imitate the French chain's own paperwork, so
 * they are in French only (the kiosk's i18n catalogue is for the kiosk's screens, not for
 * documents the service produces).
 */

export const CHAIN_NAME = 'Maison Électro';

const savStatusLabels: Record<Sav['status'], string> = {
  open: 'Ouvert',
  diagnosis: 'Diagnostic en cours',
  waiting_parts: 'En attente de pièces',
  in_repair: 'En réparation',
  ready: 'Prêt à retirer',
  closed: 'Clôturé',
  cancelled: 'Annulé',
};

export function savStatusLabel(status: Sav['status']): string {
  return savStatusLabels[status];
}

const saleStatusLabels: Record<string, string> = {
  completed: 'réglée',
  partially_paid: 'partiellement réglée',
  cancelled: 'annulée',
};

/** Sale statuses are free strings: unknown ones are printed as they are. */
export function saleStatusLabel(status: string): string {
  return saleStatusLabels[status] ?? status;
}

/** The shop block of a document's header. */
export function shopLines(shop: Shop | undefined): string[] {
  if (shop === undefined) return ['Magasin non précisé'];
  const town = [shop.postalCode, shop.city].filter((part) => part !== null).join(' ');
  return [`Magasin ${shop.name}`, ...(town === '' ? [] : [town])];
}
