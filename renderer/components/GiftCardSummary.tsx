import type { GiftCardLookup } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { OtherFields } from './OtherFields.tsx';
import { recordStatus } from './record-status.ts';

/**
 * Whether staff may debit this card, by the integration profile's statuses (main decided it); a
 * status the kiosk does not know blocks nothing.
 */
export function cardAllowsDebit(card: GiftCardLookup): boolean {
  return card.debitable !== false;
}

/**
 * The card as the service shows it: masked number only, and the balance it computed. Offline,
 * the kiosk's last read of it and when, or that it never read it (a risk staff must see first).
 */
export function GiftCardSummary({
  card,
  waitingAmount = 0,
}: {
  readonly card: GiftCardLookup;
  /** EUR of this card's debits not yet confirmed by the service. */
  readonly waitingAmount?: number;
}) {
  const { t, fmt } = useI18n();
  const cached = card.source === 'cache' ? card : null;
  // Read live, a missing value is one the integration profile did not find in the reply.
  const unknown = t(cached ? 'giftCard.unknownValue' : 'record.notProvided');
  return (
    <section className="gift-card" aria-labelledby="gift-card-number" data-testid="gift-card">
      <h2 id="gift-card-number">
        {card.maskedNumber === null
          ? t('giftCard.neverRead')
          : t('giftCard.masked', { masked: card.maskedNumber })}
      </h2>
      {cached?.asOf && (
        <p role="status" data-testid="gift-card-as-of">
          {t('giftCard.asOf', { time: fmt.dateTime(cached.asOf) })}
        </p>
      )}
      {cached && cached.asOf === null && (
        <p role="alert" className="notice notice-warning" data-testid="gift-card-unknown-risk">
          {t('giftCard.unknownCardRisk')}
        </p>
      )}
      <dl className="facts">
        <dt>{t('giftCard.balance')}</dt>
        <dd className="balance" data-testid="gift-card-balance">
          {card.balance === null ? unknown : fmt.money(card.balance)}
        </dd>
        {card.balance !== null && waitingAmount > 0 && (
          // In the value column, under the balance: the label/value rows below keep their places.
          <dd className="fact-note" data-testid="gift-card-after-waiting">
            {t('giftCard.afterWaiting', {
              amount: fmt.money(Math.max(0, card.balance - waitingAmount)),
            })}
          </dd>
        )}
        <dt>{t('giftCard.status')}</dt>
        <dd>{card.status === null ? unknown : recordStatus(card.status, t)}</dd>
        {card.expiresOn && (
          <>
            <dt>{t('giftCard.expires')}</dt>
            <dd>{fmt.date(card.expiresOn)}</dd>
          </>
        )}
      </dl>
      {card.source === 'service' && <OtherFields fields={card.otherFields} />}
    </section>
  );
}
