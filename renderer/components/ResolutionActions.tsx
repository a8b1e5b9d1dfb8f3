import { useId, useState } from 'react';
import {
  collectionMethods,
  type CollectionMethod,
  type DebitView,
} from '../../shared/ipc/gift-cards.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';

/**
 * What staff record about a debit refused, failed or expired once the customer left: collected
 * another way (and how), or could not collect. The alert and the list of debits offer the same
 * actions, so no such debit is put away without saying what became of the money.
 *
 * No method is chosen beforehand: a preselected one would be recorded by a tap on "Collected
 * another way" that never said how, and the record is what the books are reconciled with.
 *
 * `nameWithAmount`: where several debits are listed, each button's name says which one it is for.
 */
export function ResolutionActions({
  debit,
  nameWithAmount = false,
}: {
  readonly debit: DebitView;
  readonly nameWithAmount?: boolean;
}) {
  const { t, fmt } = useI18n();
  const busy = useKiosk('outbox', (s) => s.busy);
  const { outbox } = useStores();
  const [method, setMethod] = useState<CollectionMethod | null>(null);
  // The same debit can be in the alert and in the list at once: each group its own radios.
  const group = useId();
  const hint = useId();
  const amount = fmt.money(debit.amount);
  return (
    <fieldset className="attention-actions" disabled={busy}>
      <legend>{t('attention.method')}</legend>
      <div className="resolution-methods">
        {collectionMethods.map((choice) => (
          <label key={choice} className="resolution-method">
            <input
              type="radio"
              name={group}
              value={choice}
              checked={method === choice}
              onChange={() => setMethod(choice)}
            />
            {t(`attention.method.${choice}`)}
          </label>
        ))}
      </div>
      <button
        type="button"
        className="button"
        disabled={method === null}
        aria-describedby={method === null ? hint : undefined}
        aria-label={nameWithAmount ? t('attention.collectedOf', { amount }) : undefined}
        onClick={() => {
          if (method !== null)
            void outbox.getState().resolve(debit.id, { kind: 'collected_other_way', method });
        }}
      >
        {t('attention.collected')}
      </button>
      <button
        type="button"
        className="button"
        aria-label={nameWithAmount ? t('attention.notCollectedOf', { amount }) : undefined}
        onClick={() => void outbox.getState().resolve(debit.id, { kind: 'could_not_collect' })}
      >
        {t('attention.notCollected')}
      </button>
      {method === null && (
        <p id={hint} className="hint">
          {t('attention.chooseMethod')}
        </p>
      )}
    </fieldset>
  );
}
