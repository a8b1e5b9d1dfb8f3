import type { GiftCard } from '../../shared/api/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { recordStatus } from './record-status.ts';

/** The card as the service shows it: masked number only, and the balance it computed. */
export function GiftCardSummary({ card }: { readonly card: GiftCard }) {
  const { t, fmt } = useI18n();
  return (
    <section className="gift-card" aria-labelledby="gift-card-number" data-testid="gift-card">
      <h2 id="gift-card-number">{t('giftCard.masked', { masked: card.maskedNumber })}</h2>
      <dl className="facts">
        <dt>{t('giftCard.balance')}</dt>
        <dd className="balance" data-testid="gift-card-balance">
          {fmt.money(card.balance)}
        </dd>
        <dt>{t('giftCard.status')}</dt>
        <dd>{recordStatus(card.status, t)}</dd>
        {card.expiresOn && (
          <>
            <dt>{t('giftCard.expires')}</dt>
            <dd>{fmt.date(card.expiresOn)}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
