import { callerReferenceOf } from '../../shared/ipc/caller-reference.ts';
import type { DebitView } from '../../shared/ipc/gift-cards.ts';
import type { Translate } from '../i18n/translate.ts';

/**
 * The card as staff know it: its masked number when main has read it. The internal id is never
 * shown, not even its end, which looks like the card's last digits and is not.
 */
export function cardLabel(debit: Pick<DebitView, 'maskedNumber'>, t: Translate): string {
  return debit.maskedNumber ?? t('debit.cardNotRead');
}

/** The sale as staff gave it, said plainly when they gave none. */
export function saleLabel(debit: Pick<DebitView, 'reference'>, t: Translate): string {
  return callerReferenceOf(debit.reference) ?? t('debit.noSaleReference');
}
