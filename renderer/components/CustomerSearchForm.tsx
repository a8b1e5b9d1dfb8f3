import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';
import type { CustomerCriteria } from '../stores/customer-store.ts';
import { Field } from './Field.tsx';

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
  useEffect(() => input.current?.focus(), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (email.trim() === '') return;
    onSearch({ email: email.trim() });
  };

  return (
    <form className="customer-search" onSubmit={submit} aria-label={t('customers.searchForm')}>
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
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="button button-primary" disabled={busy}>
        {t('customers.search')}
      </button>
    </form>
  );
}
