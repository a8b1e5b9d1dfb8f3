import { useState, type FormEvent } from 'react';
import type { CustomerEntry } from '../../shared/ipc/records.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import {
  secondCriteria,
  type CustomerCriteria,
  type SecondCriterion,
} from '../stores/customer-store.ts';
import { CriterionField } from './CriterionField.tsx';
import { criterionLabels } from './criterion-labels.ts';
import { customerName } from './customer-name.ts';

/**
 * Whether a detail can tell the matches apart: they differ in it, or the list does not show it
 * for some of them (the customer can still state it).
 */
function tellsApart(matches: readonly CustomerEntry[], criterion: SecondCriterion): boolean {
  const values = matches.map((match) => match[criterion]?.trim().toLocaleLowerCase() ?? null);
  return values.includes(null) || new Set(values).size > 1;
}

/**
 * Several customers match the details given so far: they are listed so staff see why, but none
 * can be opened from here. The customer states another detail and the search runs again with all
 * of them; only a single match opens a record. A detail that matches none of them leaves the list
 * and the question as they were, with the detail typed, to check and correct.
 */
export function CustomerMatches({
  matches,
  more,
  criteria,
  mismatch = null,
  busy,
  onConfirm,
}: {
  readonly matches: readonly CustomerEntry[];
  readonly more: boolean;
  readonly criteria: CustomerCriteria;
  /** The detail just given matched none of them: said, and asked again. */
  readonly mismatch?: SecondCriterion | null;
  readonly busy: boolean;
  readonly onConfirm: (criterion: SecondCriterion, value: string) => void;
}) {
  const { t, fmt } = useI18n();
  const used = secondCriteria.filter((name) => criteria[name]);
  const unused = secondCriteria.filter((name) => !criteria[name]);
  // Asking for a detail every match shares cannot tell them apart (two Moreaus: not the last name).
  const telling = unused.filter((name) => tellsApart(matches, name));
  const options = telling.length > 0 ? telling : unused.length > 0 ? unused : secondCriteria;
  const [criterion, setCriterion] = useState<SecondCriterion>(options[0] ?? 'firstName');
  const [value, setValue] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() !== '') onConfirm(criterion, value.trim());
  };

  return (
    <section
      className="customer-matches"
      aria-labelledby="matches-title"
      data-testid="customer-matches"
    >
      <h2 id="matches-title">{t('customers.severalTitle')}</h2>
      <p role="alert" className="notice notice-warning">
        {t('customers.several', { count: fmt.integer(matches.length) })}
      </p>
      <ul className="match-list" aria-label={t('customers.matchList')}>
        {matches.map((customer) => (
          <li key={customer.id} className="match" data-testid="customer-match">
            <span className="match-name">{customerName(customer, t)}</span>
            {(customer.postalCode ?? customer.city) !== null && (
              <span className="match-contact">
                {[customer.postalCode, customer.city].filter(Boolean).join(' ')}
              </span>
            )}
          </li>
        ))}
      </ul>
      {more && <p>{t('customers.more')}</p>}
      <form noValidate onSubmit={submit} aria-label={t('customers.confirmTitle')}>
        {mismatch !== null && (
          <p className="notice notice-warning" role="alert" data-testid="confirm-mismatch">
            {t('customers.mismatch', { criterion: t(criterionLabels[mismatch]) })}
          </p>
        )}
        <CriterionField
          legend={t('customers.confirmTitle')}
          options={options}
          criterion={criterion}
          value={value}
          onCriterion={setCriterion}
          onValue={setValue}
        />
        {used.length > 0 && (
          <p className="hint">
            {t('customers.alreadyUsed', {
              criteria: used.map((name) => t(criterionLabels[name])).join(', '),
            })}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={busy}>
          {t('customers.confirm')}
        </button>
      </form>
    </section>
  );
}
