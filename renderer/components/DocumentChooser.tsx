import { useState, type FormEvent } from 'react';
import type { ServiceDocumentKind } from '../../shared/ipc/printing.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { ChoiceRow } from './ChoiceRow.tsx';
import { documentKindKeys } from './document-kind.ts';
import { Field } from './Field.tsx';

const kinds: readonly ServiceDocumentKind[] = ['invoice', 'sav-slip'];

/** For a document not reached from a customer: its kind and the sale or SAV identifier. */
export function DocumentChooser({ onOpen }: { readonly onOpen: (document: DocumentRef) => void }) {
  const { t } = useI18n();
  const [kind, setKind] = useState<ServiceDocumentKind>('invoice');
  const [reference, setReference] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (reference.trim() !== '') onOpen({ kind, reference: reference.trim(), number: null });
  };
  return (
    <form className="document-chooser" onSubmit={submit} aria-label={t('documents.chooseForm')}>
      <ChoiceRow
        label={t('documents.kind')}
        options={kinds}
        value={kind}
        onChoose={setKind}
        labelOf={(option) => t(documentKindKeys[option])}
      />
      <Field label={t(kind === 'invoice' ? 'documents.saleId' : 'documents.savId')} grow>
        {(id) => (
          <input
            id={id}
            className="input"
            autoComplete="off"
            value={reference}
            onChange={(event) => setReference(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button button-primary" disabled={reference.trim() === ''}>
        {t('documents.open')}
      </button>
    </form>
  );
}
