import { useId, useState, type FormEvent } from 'react';
import {
  ApiBaseUrl,
  type KioskSettingsChanges,
  type KioskStatus,
  type SettingsReply,
} from '../../shared/ipc/status.ts';
import { useI18n } from '../i18n/use-i18n.ts';

type Mode = 'sandbox' | 'url';

/**
 * Which Commerce service the kiosk uses: the embedded demo sandbox or the API at a base URL. Main
 * reads it when the kiosk starts, so a saved change takes effect at the next start; the screen
 * says so, and what is in use now.
 */
export function ServiceForm({
  reply,
  status,
  saving,
  onSave,
}: {
  readonly reply: SettingsReply;
  readonly status: KioskStatus | null;
  readonly saving: boolean;
  readonly onSave: (changes: KioskSettingsChanges) => void;
}) {
  const { t } = useI18n();
  const modeId = useId();
  const urlId = useId();
  const errorId = useId();
  const saved = reply.settings.apiBaseUrl;
  const [mode, setMode] = useState<Mode>(saved === null ? 'sandbox' : 'url');
  const [url, setUrl] = useState(saved ?? '');

  const typed = url.trim();
  const invalid = mode === 'url' && typed !== '' && !ApiBaseUrl.safeParse(typed).success;
  const next = mode === 'sandbox' ? null : typed;
  const ready = mode === 'sandbox' || (typed !== '' && !invalid);
  const changed = next !== saved;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready && changed) onSave({ apiBaseUrl: next });
  };

  return (
    <form
      noValidate
      className="setup-section"
      onSubmit={submit}
      aria-labelledby="service-title"
      data-testid="service-form"
    >
      <h2 id="service-title">{t('setup.service')}</h2>
      {status && (
        <p data-testid="service-in-use">
          {status.demo
            ? t('setup.demoService', { origin: status.apiOrigin })
            : t('setup.realService', { origin: status.apiOrigin })}
        </p>
      )}
      <div className="field">
        <span className="field-label" id={modeId}>
          {t('setup.serviceChoice')}
        </span>
        <div className="choice-row" role="group" aria-labelledby={modeId}>
          <button
            type="button"
            className="button choice"
            aria-pressed={mode === 'sandbox'}
            disabled={!reply.sandboxAvailable}
            onClick={() => setMode('sandbox')}
          >
            {t('setup.useSandbox')}
          </button>
          <button
            type="button"
            className="button choice"
            aria-pressed={mode === 'url'}
            onClick={() => setMode('url')}
          >
            {t('setup.useUrl')}
          </button>
        </div>
        {!reply.sandboxAvailable && <p className="hint">{t('setup.noSandbox')}</p>}
      </div>
      {mode === 'url' && (
        <div className="field">
          <label htmlFor={urlId} className="field-label">
            {t('setup.baseUrl')}
          </label>
          <input
            id={urlId}
            className="input"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://"
            aria-invalid={invalid}
            aria-describedby={invalid ? errorId : undefined}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
          />
          {invalid && (
            <p id={errorId} className="note-warning">
              {t('setup.baseUrlInvalid')}
            </p>
          )}
        </div>
      )}
      <p className="hint">{t('setup.serviceNextStart')}</p>
      {reply.restartRequired && (
        <p className="notice notice-warning" role="status" data-testid="restart-required">
          {saved === null ? t('setup.restartToSandbox') : t('setup.restartToUrl', { url: saved })}
        </p>
      )}
      <button
        type="submit"
        className="button button-primary"
        disabled={saving || !ready || !changed}
      >
        {t('setup.saveService')}
      </button>
    </form>
  );
}
