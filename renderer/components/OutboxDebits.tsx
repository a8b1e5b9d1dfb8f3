import type { DebitView } from '../../shared/ipc/gift-cards.ts';
import { refusalKeys } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { isCancellable } from '../stores/outbox-store.ts';
import { useStores } from '../stores/stores-context.tsx';
import { cardLabel } from './debit-labels.ts';
import { debitStateKeys } from './debit-state-labels.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { ResolutionActions } from './ResolutionActions.tsx';
import { UnknownOutcomeActions } from './UnknownOutcomeActions.tsx';

/**
 * Debits the service has not confirmed, and those that ended badly and need a person: each with
 * its state. 'Send now' asks main to try at once; a debit never sent can still be withdrawn; one
 * that ended badly leaves the list only once staff say what became of the money.
 */
export function OutboxDebits() {
  const { t, fmt } = useI18n();
  const { outbox } = useStores();
  const open = useKiosk('outbox', (s) => s.open);
  const attention = useKiosk('outbox', (s) => s.attention);
  const busy = useKiosk('outbox', (s) => s.busy);
  const error = useKiosk('outbox', (s) => s.error);
  const evidence = useKiosk('outbox', (s) => s.evidence);
  const evidenceLoading = useKiosk('outbox', (s) => s.evidenceLoading);

  const row = (debit: DebitView) => {
    const amount = fmt.money(debit.amount);
    const reason = debit.lastError ? refusalKeys()[debit.lastError.code] : undefined;
    return (
      <li key={debit.id} className="debit-row" data-testid="pending-debit" data-state={debit.state}>
        <span className="debit-amount">{amount}</span>
        <span className="badge">{t(debitStateKeys[debit.state])}</span>
        <span className="debit-facts">
          {[
            t('pending.card', { card: cardLabel(debit, t) }),
            t('pending.taken', { time: fmt.dateTime(debit.createdAt) }),
            debit.attempts > 0 && t('pending.attempts', { count: fmt.integer(debit.attempts) }),
            debit.nextAttemptAt && t('pending.next', { time: fmt.dateTime(debit.nextAttemptAt) }),
            reason && t(reason),
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
        {debit.heldReason && (
          <div className="note-warning debit-held" data-testid="held-reason">
            {t(
              debit.heldReason.code === 'DEBIT_OUTCOME_UNKNOWN'
                ? 'pending.heldUnknown'
                : debit.heldReason.code === 'DEBIT_SCOPE_MISSING'
                  ? 'pending.heldScope'
                  : 'pending.heldRequest',
            )}
            <details>
              <summary>{t('pending.heldDetail')}</summary>
              {debit.heldReason.message}
            </details>
          </div>
        )}
        {debit.heldReason?.code === 'DEBIT_OUTCOME_UNKNOWN' && (
          <UnknownOutcomeActions
            debit={debit}
            evidence={evidence[debit.id]}
            loading={evidenceLoading === debit.id}
            busy={busy}
            onShowEvidence={() => void outbox.getState().loadEvidence(debit.id)}
            onResolve={(outcome, by) =>
              void outbox.getState().resolveUnknown(debit.id, outcome, by)
            }
          />
        )}
        {isCancellable(debit) && (
          <button
            type="button"
            className="button"
            disabled={busy}
            aria-label={t('pending.cancelOf', { amount })}
            onClick={() => void outbox.getState().cancel(debit.id)}
          >
            {t('pending.cancel')}
          </button>
        )}
        {(debit.state === 'refused' || debit.state === 'failed' || debit.state === 'expired') && (
          <ResolutionActions debit={debit} nameWithAmount />
        )}
      </li>
    );
  };

  return (
    <section
      className="pending-debits"
      aria-labelledby="pending-title"
      data-testid="pending-debits"
    >
      <div className="section-head">
        <h2 id="pending-title">{t('pending.title')}</h2>
        <button
          type="button"
          className="button"
          disabled={busy || open.length === 0}
          onClick={() => void outbox.getState().sendNow()}
        >
          {t('pending.sendNow')}
        </button>
      </div>
      {error && <ErrorNotice error={error} />}
      {open.length === 0 && attention.length === 0 ? (
        <p>{t('pending.empty')}</p>
      ) : (
        <ul className="debit-list">
          {attention.map(row)}
          {open.map(row)}
        </ul>
      )}
    </section>
  );
}
