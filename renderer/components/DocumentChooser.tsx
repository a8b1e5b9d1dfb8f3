import { useId, useState, type FormEvent } from 'react';
import type { DocumentKind } from '../../shared/ipc/printing.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { documentKindKeys } from './document-kind.ts';

const kinds: readonly DocumentKind[] = ['invoice', 'sav-slip'];

/** For a document not reached from a customer: its kind and the sale or SAV identifier. */
export function DocumentChooser({ onOpen }: { readonly onOpen: (document: DocumentRef) => void }) {
  const { t } = useI18n();
  const id = useId();
  const [kind, setKind] = useState<DocumentKind>('invoice');
  const [reference, setReference] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reference.trim() !== '') onOpen({ kind, reference: reference.trim(), number: null });
  };
  return (
    <form className="document-chooser" onSubmit={submit} aria-label={t('documents.chooseForm')}>
      <div className="choice-row" role="group" aria-label={t('documents.kind')}>
        {kinds.map((option) => (
          <button
            key={option}
            type="button"
            className="button choice"
            aria-pressed={option === kind}
            onClick={() => setKind(option)}
          >
            {t(documentKindKeys[option])}
          </button>
        ))}
      </div>
      <div className="field field-grow">
        <label htmlFor={id} className="field-label">
          {t(kind === 'invoice' ? 'documents.saleId' : 'documents.savId')}
        </label>
        <input
          id={id}
          className="input"
          autoComplete="off"
          value={reference}
          onChange={(event) => setReference(event.target.value)}
        />
      </div>
      <button type="submit" className="button button-primary" disabled={reference.trim() === ''}>
        {t('documents.open')}
      </button>
    </form>
  );
}
