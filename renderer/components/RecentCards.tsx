import type { RecentCard } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * The cards this kiosk read last, by masked number only: a customer back for a second purchase is
 * served in one touch. Nothing else about a card is shown here (no balance, no holder).
 */
export function RecentCards({
  cards,
  onOpen,
}: {
  readonly cards: readonly RecentCard[];
  readonly onOpen: (giftCardId: string) => void;
}) {
  const { t, fmt } = useI18n();
  if (cards.length === 0) return null;
  return (
    <section
      className="recent-cards"
      aria-labelledby="recent-cards-title"
      data-testid="recent-cards"
    >
      <h2 id="recent-cards-title">{t('giftCard.recent')}</h2>
      <ul className="choice-row">
        {cards.map((card) => (
          <li key={card.id}>
            <button
              type="button"
              className="button"
              title={t('giftCard.recentReadAt', { time: fmt.dateTime(card.readAt) })}
              onClick={() => onOpen(card.id)}
            >
              {card.maskedNumber}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
