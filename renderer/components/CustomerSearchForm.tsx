import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';
import type { CustomerCriteria } from '../stores/customer-store.ts';
import { Field } from './Field.tsx';

/** Something, an @, something with a dot: the service decides the rest (an exact match). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The exact e-mail address, alone. When several customers share it, the screen lists them and
 * asks for one more detail (`CustomerMatches`); it never picks one. After no match the address
 * stays as typed, so staff can check it with the customer; the field takes the focus, ready.
 */
export function CustomerSearchForm({
  busy,
  initialEmail = '',
  onSearch,
}: {
  readonly busy: boolean;
  readonly initialEmail?: string;
  readonly onSearch: (criteria: CustomerCriteria) => void;
}) {
  const { t } = useI18n();
  const [email, setEmail] = useState(initialEmail);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  useEffect(() => input.current?.focus(), []);

  const [invalid, setInvalid] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!EMAIL.test(email.trim())) {
      setInvalid(true);
      input.current?.focus();
      return;
    }
    setInvalid(false);
    onSearch({ email: email.trim() });
  };

  return (
    // The browser's own bubble would speak its language, not the kiosk's: the form says it.
    <form
      className="customer-search"
      noValidate
      onSubmit={submit}
      aria-label={t('customers.searchForm')}
    >
      <p className="hint">{t('customers.why')}</p>
      <Field label={t('customers.email')}>
        {(id) => (
          <input
            ref={input}
            id={id}
            className="input"
            type="email"
            autoComplete="off"
            required
            aria-invalid={invalid}
            aria-describedby={invalid ? errorId : undefined}
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setInvalid(false);
            }}
          />
        )}
      </Field>
      {invalid && (
        <p id={errorId} className="note-warning" role="alert">
          {t('customers.emailInvalid')}
        </p>
      )}
      <button type="submit" className="button button-primary" data-primary-action disabled={busy}>
        {t('customers.search')}
      </button>
    </form>
  );
}
