import { useId, useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';
import {
  secondCriteria,
  type CustomerCriteria,
  type SecondCriterion,
} from '../stores/customer-store.ts';
import { CriterionField } from './CriterionField.tsx';

/**
 * The exact e-mail address and one more detail the customer states: the kiosk's search needs
 * both, so nobody can browse customers from one guessable value.
 */
export function CustomerSearchForm({
  busy,
  onSearch,
}: {
  readonly busy: boolean;
  readonly onSearch: (criteria: CustomerCriteria) => void;
}) {
  const { t } = useI18n();
  const emailId = useId();
  const [email, setEmail] = useState('');
  const [criterion, setCriterion] = useState<SecondCriterion>('lastName');
  const [value, setValue] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '' || value.trim() === '') return;
    onSearch({ email: email.trim(), [criterion]: value.trim() });
  };

  return (
    <form className="customer-search" onSubmit={submit} aria-label={t('customers.searchForm')}>
      <p className="hint">{t('customers.why')}</p>
      <div className="field">
        <label htmlFor={emailId} className="field-label">
          {t('customers.email')}
        </label>
        <input
          id={emailId}
          className="input"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </div>
      <CriterionField
        legend={t('customers.second')}
        options={secondCriteria}
        criterion={criterion}
        value={value}
        onCriterion={setCriterion}
        onValue={setValue}
      />
      <button type="submit" className="button button-primary" disabled={busy}>
        {t('customers.search')}
      </button>
    </form>
  );
}
