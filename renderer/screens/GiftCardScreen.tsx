import { useEffect, useId, useRef, type FormEvent } from 'react';
import { MAX_DEBIT_REFERENCE_LENGTH } from '../../shared/ipc/gift-cards.ts';
import { AmountField } from '../components/AmountField.tsx';
import { DebitAwaitingOutcome } from '../components/DebitAwaitingOutcome.tsx';
import { DebitMayBeStored } from '../components/DebitMayBeStored.tsx';
import { DebitOutcomePanel } from '../components/DebitOutcomePanel.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { cardAllowsDebit, GiftCardSummary } from '../components/GiftCardSummary.tsx';
import { OutboxDebits } from '../components/OutboxDebits.tsx';
import { RecentCards } from '../components/RecentCards.tsx';
import { recordStatus } from '../components/record-status.ts';
import { UnshownDebits } from '../components/UnshownDebits.tsx';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { amountValue } from '../input/amount-entry.ts';
import { useStores } from '../stores/stores-context.tsx';
import { Busy } from '../components/Busy.tsx';

export function GiftCardScreen() {
  const { t, fmt } = useI18n();
  const { giftCard } = useStores();
  const cardFieldId = useId();
  const referenceId = useId();
  const cardId = useKiosk('giftCard', (s) => s.cardId);
  const card = useKiosk('giftCard', (s) => s.card);
  const looking = useKiosk('giftCard', (s) => s.looking);
  const cardField = useRef<HTMLInputElement>(null);
  const amountField = useRef<HTMLInputElement>(null);
  const wasLooking = useRef(looking);
  const lookupError = useKiosk('giftCard', (s) => s.lookupError);
  const amount = useKiosk('giftCard', (s) => s.amount);
  const reference = useKiosk('giftCard', (s) => s.reference);
  const debiting = useKiosk('giftCard', (s) => s.debiting);
  const debit = useKiosk('giftCard', (s) => s.debit);
  const delivery = useKiosk('giftCard', (s) => s.delivery);
  const debitError = useKiosk('giftCard', (s) => s.debitError);
  const confirmation = useKiosk('giftCard', (s) => s.confirmation);
  const lostReply = useKiosk('giftCard', (s) => s.lostReply);
  const replayed = useKiosk('giftCard', (s) => s.replayed);
  const recentCards = useKiosk('giftCard', (s) => s.recentCards);
  const unshown = useKiosk('giftCard', (s) => s.unshown);
  const openDebits = useKiosk('outbox', (s) => s.open);
  const connectivity = useKiosk('connectivity', (s) => s.connectivity);
  const { outbox } = useStores();
  // What the service has not confirmed yet is not in the balance it computed.
  const waitingAmount = card
    ? openDebits
        .filter((open) => open.giftCardId === card.id)
        .reduce((sum, open) => sum + Math.round(open.amount * 100), 0) / 100
    : 0;
  const blockedStatus = card && !cardAllowsDebit(card) ? card.status : null;
  const value = amountValue(amount);
  // What the kiosk knows is left: a debit over it is refused whatever the connectivity, so it is
  // not offered (issue 37, 5: Débiter was enabled for 20 € on a card known at 4,50 €).
  const knownLeft =
    card?.balance === null || card === null ? null : Math.max(0, card.balance - waitingAmount);
  const overBalance = value !== null && knownLeft !== null && value > knownLeft + 0.001;
  const blockedId = `${referenceId}-blocked`;
  // One sale, one debit: until the outcome of the debit confirmed on this card is on screen, its
  // notice is what staff get, however they reached the card; the form only while it is first sent.
  const offersDebit =
    card !== null && (confirmation === null || (debiting && !lostReply && debit === null));
  const elsewhere = unshown.filter((other) => other.giftCardId !== confirmation?.giftCardId);

  useEffect(() => {
    void giftCard.getState().loadRecentCards();
  }, [giftCard]);

  // A look-up that found a card hands the focus to the amount: digits typed or tapped next are
  // the amount, never the card number (a scan is caught before any field and replaces the card).
  // Found none, the code is selected, so the next scan or typing replaces it.
  useEffect(() => {
    if (wasLooking.current && !looking) {
      if (card !== null && amountField.current) amountField.current.focus();
      else cardField.current?.select();
    }
    wasLooking.current = looking;
  }, [looking, card]);

  // Back online, a card shown from the kiosk's last read is read again (issue 37, 7).
  const cachedCard = card?.source === 'cache';
  useEffect(() => {
    if (connectivity === 'online' && cachedCard) giftCard.getState().refreshCard();
  }, [connectivity, cachedCard, giftCard]);

  // An outcome on screen: main may have taken a refusal as seen, so the alerts are read again.
  const outcomeShown = debit === null ? null : `${debit.id}:${debit.state}`;
  useEffect(() => {
    if (outcomeShown !== null) void outbox.getState().refresh();
  }, [outcomeShown, outbox]);

  const lookup = (event: FormEvent) => {
    event.preventDefault();
    void giftCard.getState().lookup();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void giftCard.getState().submitDebit();
  };

  return (
    <section className="screen gift-card-screen" aria-labelledby="gift-card-title">
      <h1 id="gift-card-title">{t('giftCard.title')}</h1>
      <div className="gift-card-columns">
        <div className="gift-card-main">
          <form className="card-lookup" onSubmit={lookup} aria-label={t('giftCard.lookupForm')}>
            <div className="field field-grow">
              <label htmlFor={cardFieldId} className="field-label">
                {t('giftCard.cardId')}
              </label>
              <input
                id={cardFieldId}
                ref={cardField}
                className="input"
                autoComplete="off"
                // A scanner types the code and presses Enter (the form's submit): ready for it.
                autoFocus
                aria-describedby={`${cardFieldId}-hint`}
                value={cardId}
                onChange={(event) => giftCard.getState().setCardId(event.target.value)}
              />
              <p id={`${cardFieldId}-hint`} className="hint">
                {t('giftCard.cardIdHint')}
              </p>
            </div>
            <button
              type="submit"
              className="button button-primary"
              disabled={looking || cardId.trim() === ''}
            >
              {t('giftCard.lookup')}
            </button>
            {card && (
              <button type="button" className="button" onClick={() => giftCard.getState().clear()}>
                {t('giftCard.next')}
              </button>
            )}
          </form>
          <RecentCards
            cards={recentCards}
            onOpen={(giftCardId) => void giftCard.getState().openCard(giftCardId)}
          />
          {looking && <Busy>{t('common.loading')}</Busy>}
          {lookupError && <ErrorNotice error={lookupError} />}
          {card && <GiftCardSummary card={card} waitingAmount={waitingAmount} />}
          <UnshownDebits
            debits={elsewhere}
            recentCards={recentCards}
            onOpen={(giftCardId) => void giftCard.getState().openCard(giftCardId)}
          />
        </div>
        <div className="gift-card-action" data-keyboard-avoid>
          {offersDebit && (
            <form className="debit-form" onSubmit={submit} aria-label={t('giftCard.debitForm')}>
              <AmountField
                label={t('giftCard.amount')}
                value={amount}
                inputRef={amountField}
                disabled={debiting}
                onChange={(next) => giftCard.getState().setAmount(next)}
              />
              <div className="field">
                <label htmlFor={referenceId} className="field-label">
                  {t('giftCard.reference')}
                </label>
                <input
                  id={referenceId}
                  className="input"
                  autoComplete="off"
                  maxLength={MAX_DEBIT_REFERENCE_LENGTH}
                  value={reference}
                  onChange={(event) =>
                    // The outbox accepts these characters only; others would be refused after the fact.
                    giftCard
                      .getState()
                      .setReference(event.target.value.replace(/[^\w .:/#-]/gu, ''))
                  }
                />
              </div>
              <button
                type="submit"
                className="button button-primary button-large"
                data-primary-action
                disabled={debiting || value === null || blockedStatus !== null || overBalance}
                aria-describedby={blockedStatus === null && !overBalance ? undefined : blockedId}
              >
                {value === null
                  ? t('giftCard.debit')
                  : t('giftCard.debitAmount', { amount: fmt.money(value) })}
              </button>
              {blockedStatus !== null && (
                <p id={blockedId} className="notice notice-warning" data-testid="debit-blocked">
                  {t('giftCard.notDebitable', { status: recordStatus(blockedStatus, t) })}
                </p>
              )}
              {blockedStatus === null && overBalance && knownLeft !== null && (
                <p
                  id={blockedId}
                  className="notice notice-warning"
                  data-testid="debit-over-balance"
                >
                  {t('giftCard.overBalance', { balance: fmt.money(knownLeft) })}
                </p>
              )}
              {debiting && <Busy>{t('giftCard.debiting')}</Busy>}
            </form>
          )}
          {/* Beside Débiter, whatever the outcome, and read out as it comes (issue 37, 3). */}
          <div
            className="debit-outcome-region"
            aria-live="polite"
            data-testid="debit-outcome-region"
          >
            {lostReply && confirmation && (
              <DebitMayBeStored
                confirmation={confirmation}
                checking={debiting}
                onCheck={() => void giftCard.getState().checkDebit()}
              />
            )}
            {debit && <DebitOutcomePanel debit={debit} delivery={delivery} />}
            {confirmation && debit && (
              <DebitAwaitingOutcome
                checking={debiting}
                onCheck={() => void giftCard.getState().checkDebit()}
              />
            )}
            {debit && replayed && <p data-testid="debit-replayed">{t('giftCard.replayed')}</p>}
            {debitError && <ErrorNotice error={debitError} />}
          </div>
        </div>
      </div>
      <OutboxDebits />
    </section>
  );
}
