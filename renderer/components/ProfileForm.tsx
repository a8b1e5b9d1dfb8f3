import { useId, useState, type FormEvent } from 'react';
import {
  type KioskSettingsChanges,
  ProfilePath,
  type SettingsReply,
} from '../../shared/ipc/status.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import { Busy } from './Busy.tsx';

/**
 * The integration profile: how the Commerce API shapes what its specification leaves open. An
 * administrator points the kiosk at a file (applied at once; held debits are then sent), and
 * "Check the service" reads the service's records to say what the profile finds.
 */
export function ProfileForm({
  reply,
  saving,
  onSave,
}: {
  readonly reply: SettingsReply;
  readonly saving: boolean;
  readonly onSave: (changes: KioskSettingsChanges) => void;
}) {
  const { t } = useI18n();
  const { setup } = useStores();
  const pathId = useId();
  const errorId = useId();
  const checking = useKiosk('setup', (s) => s.checking);
  const contract = useKiosk('setup', (s) => s.contract);
  const contractError = useKiosk('setup', (s) => s.contractError);
  const saved = reply.settings.profilePath;
  const [path, setPath] = useState(saved ?? '');
  const typed = path.trim();
  const next = typed === '' ? null : typed;
  const invalid = next !== null && !ProfilePath.safeParse(next).success;
  const changed = next !== saved;
  const { profile } = reply;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalid && changed) onSave({ profilePath: next });
  };

  return (
    <form
      className="setup-section"
      onSubmit={submit}
      aria-labelledby="profile-title"
      data-testid="profile-form"
    >
      <h2 id="profile-title">{t('setup.profile')}</h2>
      <p className="hint">{t('setup.profileHint')}</p>
      <p data-testid="profile-in-use">
        {t('setup.profileInUse', { name: profile.name })}
        <br />
        {profile.source === 'environment'
          ? t('setup.profileFromEnvironment', { path: profile.path ?? '' })
          : profile.source === 'settings'
            ? t('setup.profileFromSettings', { path: profile.path ?? '' })
            : t('setup.profileDefault')}
      </p>
      {profile.error && (
        <p className="notice notice-warning" role="alert" data-testid="profile-unusable">
          {t('setup.profileUnusable', { path: profile.path ?? '', message: profile.error.message })}
        </p>
      )}
      <div className="field">
        <label htmlFor={pathId} className="field-label">
          {t('setup.profilePath')}
        </label>
        <input
          id={pathId}
          className="input"
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="/etc/commerce-kiosk/profile.json"
          aria-invalid={invalid}
          aria-describedby={invalid ? errorId : undefined}
          value={path}
          onChange={(event) => setPath(event.target.value)}
        />
        {invalid && (
          <p id={errorId} className="note-warning">
            {t('setup.profilePathInvalid')}
          </p>
        )}
      </div>
      <div className="choice-row">
        <button
          type="submit"
          className="button button-primary"
          disabled={saving || invalid || !changed}
        >
          {t('setup.saveProfile')}
        </button>
        <button
          type="button"
          className="button"
          disabled={checking}
          onClick={() => void setup.getState().checkContract()}
        >
          {t('setup.checkService')}
        </button>
      </div>
      {checking && <Busy>{t('setup.checking')}</Busy>}
      {contractError && <ErrorNotice error={contractError} />}
      {contract && (
        <div
          className={contract.ok ? 'notice notice-ok' : 'notice notice-error'}
          role="status"
          data-testid="contract-report"
        >
          <p className="notice-title">
            {/* Passing means nothing needed is missing and nothing refused; what the service
                gave no example of is still counted, so a pass is never read as "all verified". */}
            {contract.ok
              ? [
                  t('setup.contractOk'),
                  ...(contract.notChecked.length > 0
                    ? [t('setup.contractNotChecked', { notChecked: contract.notChecked.length })]
                    : []),
                ].join(' ')
              : t('setup.contractCounts', {
                  missing: contract.missingNeeded.length,
                  refused: contract.refused.length,
                  notChecked: contract.notChecked.length,
                })}
          </p>
          {contract.missingNeeded.length > 0 && (
            <p>{t('setup.contractMissing', { fields: contract.missingNeeded.join(', ') })}</p>
          )}
          {contract.refused.length > 0 && (
            <p>{t('setup.contractRefused', { reads: contract.refused.join(', ') })}</p>
          )}
          {contract.debitBodyUndecided.length > 0 && (
            <p>{t('setup.contractDebitBody', { slots: contract.debitBodyUndecided.join(', ') })}</p>
          )}
          <details>
            <summary>{t('setup.contractDetails')}</summary>
            <ul>
              {contract.operations.map((operation) => (
                <li key={operation.operationId}>
                  {t('setup.contractOperation', {
                    operation: operation.operationId,
                    outcome: operation.note ?? String(operation.status ?? operation.outcome),
                  })}
                  {operation.values.some((value) => value.status !== 'found') && (
                    <ul>
                      {operation.values
                        .filter((value) => value.status !== 'found')
                        .map((value) => (
                          <li key={`${value.record}.${value.field}`}>
                            {`${value.record}.${value.field}: ${value.status}`}
                            {value.suggestions.length > 0 && ` (${value.suggestions.join(', ')})`}
                          </li>
                        ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          </details>
        </div>
      )}
    </form>
  );
}
