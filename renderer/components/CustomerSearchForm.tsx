import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';
import type { CustomerCriteria, SecondCriterion } from '../stores/customer-store.ts';
import { criterionLabels } from './criterion-labels.ts';
import { Field } from './Field.tsx';

/** Something, an @, something with a dot: the service decides the rest (an exact match). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Problem = 'email' | 'empty' | null;

/**
 * The e-mail address and each other detail the service searches by (`criteria`, from the
 * integration profile), every one given combined, each an exact match. The e-mail check applies
 * to the e-mail field alone: a name or a phone number is not refused for not being an address.
 * When several customers match, the screen lists them and asks for one more detail
 * (`CustomerMatches`); it never picks one. After no match what was typed stays, so staff can check
 * it with the customer; the first field takes the focus, ready.
 */
export function CustomerSearchForm({
  busy,
  criteria,
  initial = {},
  onSearch,
}: {
  readonly busy: boolean;
  /** The details besides the e-mail address the service searches by. */
  readonly criteria: readonly SecondCriterion[];
  readonly initial?: CustomerCriteria;
  readonly onSearch: (criteria: CustomerCriteria) => void;
}) {
  const { t } = useI18n();
  const [values, setValues] = useState<CustomerCriteria>(initial);
  const email = useRef<HTMLInputElement>(null);
  const errorId = useId();
  useEffect(() => email.current?.focus(), []);

  const [problem, setProblem] = useState<Problem>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const given: Record<string, string> = {};
    for (const name of ['email', ...criteria] as const) {
      const value = values[name]?.trim();
      if (value) given[name] = value;
    }
    if (given['email'] !== undefined && !EMAIL.test(given['email'])) {
      setProblem('email');
      email.current?.focus();
      return;
    }
    if (Object.keys(given).length === 0) {
      setProblem('empty');
      email.current?.focus();
      return;
    }
    setProblem(null);
    onSearch(given);
  };
  const change = (name: 'email' | SecondCriterion, value: string) => {
    setValues((before) => ({ ...before, [name]: value }));
    setProblem(null);
  };

  return (
    // The browser's own bubble would speak its language, not the kiosk's: the form says it.
    <form
      className="customer-search"
      noValidate
      onSubmit={submit}
      aria-label={t('customers.searchForm')}
    >
      <p className="hint">{t(criteria.length > 0 ? 'customers.whyAny' : 'customers.why')}</p>
      <div className="customer-criteria">
        <Field label={t('customers.email')}>
          {(id) => (
            <input
              ref={email}
              id={id}
              className="input"
              type="email"
              autoComplete="off"
              aria-invalid={problem === 'email'}
              aria-describedby={problem === 'email' ? errorId : undefined}
              value={values.email ?? ''}
              onChange={(event) => change('email', event.target.value)}
            />
          )}
        </Field>
        {criteria.map((name) => (
          <Field key={name} label={t(criterionLabels[name])}>
            {(id) => (
              <input
                id={id}
                className="input"
                autoComplete="off"
                inputMode={name === 'phone' || name === 'postalCode' ? 'tel' : 'text'}
                value={values[name] ?? ''}
                onChange={(event) => change(name, event.target.value)}
              />
            )}
          </Field>
        ))}
      </div>
      {problem !== null && (
        <p id={errorId} className="note-warning" role="alert">
          {t(problem === 'email' ? 'customers.emailInvalid' : 'customers.nothingGiven')}
        </p>
      )}
      <button type="submit" className="button button-primary" data-primary-action disabled={busy}>
        {t('customers.search')}
      </button>
    </form>
  );
}
