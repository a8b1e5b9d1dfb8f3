import { useId, useState } from 'react';
import type { DebitEvidence, DebitView, StaffOutcome } from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';

export interface UnknownOutcomeActionsProps {
  readonly debit: DebitView;
  /** What the kiosk knows of it, once read (`undefined`: not asked for yet). */
  readonly evidence: DebitEvidence | undefined;
  /** Its evidence is being read (the card's balance from the service). */
  readonly loading: boolean;
  readonly busy: boolean;
  onShowEvidence(): void;
  onResolve(outcome: StaffOutcome['outcome'], by: string): void;
}

/**
 * A debit held as "outcome unknown", for the person who decides: the keys it went out under
 * and when, the card's balance before and now (evidence, never proof), then "applied" or "not
 * applied, send again" with who says so. The actions wait for the evidence: nobody decides
 * without having read the card's balance now (or learnt that it could not be read).
 */
export function UnknownOutcomeActions({
  debit,
  evidence,
  loading,
  busy,
  onShowEvidence,
  onResolve,
}: UnknownOutcomeActionsProps) {
  const { t, fmt } = useI18n();
  const [by, setBy] = useState('');
  const nameId = useId();
  const amount = fmt.money(debit.amount);
  const before = debit.outcomeUnknown?.balanceBefore ?? null;
  const now = evidence?.balanceNow ?? null;
  const decidable = evidence !== undefined && by.trim().length > 0 && !busy;

  return (
    <fieldset
      className="unknown-outcome"
      data-testid="unknown-outcome"
      aria-label={t('unknownOutcome.legend', { amount })}
    >
      <legend>{t('unknownOutcome.legend', { amount })}</legend>
      {evidence === undefined ? (
        <button type="button" className="button" disabled={loading} onClick={onShowEvidence}>
          {loading ? t('unknownOutcome.reading') : t('unknownOutcome.show')}
        </button>
      ) : (
        <dl className="unknown-outcome-evidence" data-testid="unknown-outcome-evidence">
          <dt>{t('unknownOutcome.balanceBefore')}</dt>
          <dd data-testid="balance-before">
            {before
              ? t('unknownOutcome.balanceAt', {
                  amount: fmt.money(before.amount),
                  time: fmt.dateTime(before.at),
                })
              : t('unknownOutcome.balanceNeverRead')}
          </dd>
          <dt>{t('unknownOutcome.balanceNow')}</dt>
          <dd data-testid="balance-now">
            {now
              ? t('unknownOutcome.balanceAt', {
                  amount: fmt.money(now.amount),
                  time: fmt.dateTime(now.at),
                })
              : t('unknownOutcome.balanceUnreadable')}
          </dd>
          <dt>{t('unknownOutcome.firstAttempt')}</dt>
          <dd>
            {evidence.firstAttemptAt
              ? fmt.dateTime(evidence.firstAttemptAt)
              : t('unknownOutcome.never')}
          </dd>
          <dt>{t('unknownOutcome.keys')}</dt>
          <dd>
            <ul data-testid="unknown-outcome-keys">
              {evidence.keys.map((key) => (
                <li key={key.key}>
                  {[
                    t('unknownOutcome.key', { key: key.key }),
                    key.firstUsedAt
                      ? t('unknownOutcome.keySent', { time: fmt.dateTime(key.firstUsedAt) })
                      : t('unknownOutcome.keyUnsent'),
                    key.replacedAt &&
                      t('unknownOutcome.keyReplaced', { time: fmt.dateTime(key.replacedAt) }),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      )}
      {evidence !== undefined && (
        <p className="note-warning">{t('unknownOutcome.hint', { amount })}</p>
      )}
      <label htmlFor={nameId}>{t('unknownOutcome.by')}</label>
      <input
        id={nameId}
        type="text"
        autoComplete="off"
        maxLength={64}
        value={by}
        onChange={(event) => setBy(event.target.value)}
      />
      <button
        type="button"
        className="button"
        disabled={!decidable}
        onClick={() => onResolve('applied', by.trim())}
      >
        {t('unknownOutcome.applied')}
      </button>
      <button
        type="button"
        className="button"
        disabled={!decidable}
        onClick={() => onResolve('not_applied', by.trim())}
      >
        {t('unknownOutcome.notApplied')}
      </button>
    </fieldset>
  );
}
