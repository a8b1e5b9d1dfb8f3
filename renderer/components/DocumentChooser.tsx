import { useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';
import { Field } from './Field.tsx';

/**
 * For a document not reached from a customer: the number printed on the receipt (sale, invoice
 * or SAV case), or the service's identifier; main works out which it is.
 */
export function DocumentChooser({ onFind }: { readonly onFind: (number: string) => void }) {
  const { t } = useI18n();
  const [number, setNumber] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (number.trim() !== '') onFind(number.trim());
  };
  return (
    <form className="document-chooser" onSubmit={submit} aria-label={t('documents.chooseForm')}>
      <Field label={t('documents.number')} grow>
        {(id) => (
          <input
            id={id}
            className="input"
            autoComplete="off"
            value={number}
            onChange={(event) => setNumber(event.target.value)}
          />
        )}
      </Field>
      <button
        type="submit"
        className="button button-primary"
        data-primary-action
        disabled={number.trim() === ''}
      >
        {t('documents.open')}
      </button>
    </form>
  );
}
