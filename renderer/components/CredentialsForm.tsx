import { useId, useState, type FormEvent } from 'react';
import type { CredentialStatus } from '../../shared/ipc/status.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * Write-only: the integration account goes to main once and is never read back. The fields
 * empty themselves after a successful save.
 */
export function CredentialsForm({
  status,
  saving,
  onSave,
}: {
  readonly status: CredentialStatus | null;
  readonly saving: boolean;
  readonly onSave: (email: string, password: string) => Promise<boolean>;
}) {
  const { t } = useI18n();
  const emailId = useId();
  const passwordId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (await onSave(email.trim(), password)) {
      setEmail('');
      setPassword('');
    }
  };
  return (
    <form
      noValidate
      className="setup-section"
      onSubmit={(event) => void submit(event)}
      aria-labelledby="credentials-title"
    >
      <h2 id="credentials-title">{t('setup.credentials')}</h2>
      <p data-testid="credentials-status">
        {status === null
          ? t('common.loading')
          : status.configured
            ? t('setup.credentialsStored', { backend: status.backend ?? '—' })
            : t('setup.credentialsMissing')}
      </p>
      {status?.problem && (
        <p className="note-warning">
          {t('setup.credentialsProblem', { code: status.problem.code })}
        </p>
      )}
      {/* Provisioned (a fleet's file, the demo's sandbox): shown as it is, nothing to edit here. */}
      {status?.writable === false ? (
        <p className="hint" data-testid="credentials-read-only">
          {t('setup.credentialsReadOnly')}
        </p>
      ) : (
        <>
          <p className="hint">{t('setup.writeOnly')}</p>
          <div className="field">
            <label htmlFor={emailId} className="field-label">
              {t('setup.email')}
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
          <div className="field">
            <label htmlFor={passwordId} className="field-label">
              {t('setup.password')}
            </label>
            <input
              id={passwordId}
              className="input"
              type="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </div>
          <button
            type="submit"
            className="button button-primary"
            disabled={saving || email.trim() === '' || password === ''}
          >
            {t('setup.saveCredentials')}
          </button>
        </>
      )}
    </form>
  );
}
