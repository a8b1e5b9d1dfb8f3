import type { RecentCard } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import type { UnshownDebit } from '../stores/gift-card-store.ts';

/**
 * Debits confirmed on other cards whose outcome this screen has not shown yet (staff moved on to
 * another card, or the page was reloaded): one touch opens the card and its debit's notice. Until
 * then, that card is never offered a new debit.
 */
export function UnshownDebits({
  debits,
  recentCards,
  onOpen,
}: {
  readonly debits: readonly UnshownDebit[];
  readonly recentCards: readonly RecentCard[];
  readonly onOpen: (giftCardId: string) => void;
}) {
  const { t, fmt } = useI18n();
  if (debits.length === 0) return null;
  const cardOf = (giftCardId: string) =>
    recentCards.find((card) => card.id === giftCardId && card.maskedNumber !== '')?.maskedNumber ??
    `…${giftCardId.slice(-4)}`;
  return (
    <section
      className="notice notice-warning"
      aria-labelledby="unshown-debits-title"
      data-testid="unshown-debits"
    >
      <h2 id="unshown-debits-title" className="notice-title">
        {t('giftCard.unshown.title')}
      </h2>
      <p className="notice-detail">{t('giftCard.unshown.detail')}</p>
      <ul className="choice-row">
        {debits.map((debit) => (
          <li key={debit.giftCardId}>
            <button type="button" className="button" onClick={() => onOpen(debit.giftCardId)}>
              {t('giftCard.unshown.open', {
                amount: fmt.money(debit.amount),
                card: cardOf(debit.giftCardId),
              })}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
