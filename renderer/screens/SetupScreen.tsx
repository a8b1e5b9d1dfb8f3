import { ConnectionTest } from '../components/ConnectionTest.tsx';
import { CredentialsForm } from '../components/CredentialsForm.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { KioskSettingsForm } from '../components/KioskSettingsForm.tsx';
import { OfflineLimitsForm } from '../components/OfflineLimitsForm.tsx';
import { PinEntry } from '../components/PinEntry.tsx';
import { ServiceForm } from '../components/ServiceForm.tsx';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';

/** Protected by the administrator PIN; main checks the PIN again on every change. */
export function SetupScreen() {
  const { t } = useI18n();
  const { setup } = useStores();
  const unlocked = useKiosk('setup', (s) => s.unlockedWith !== null);
  const pinEntry = useKiosk('setup', (s) => s.pinEntry);
  const checkingPin = useKiosk('setup', (s) => s.checkingPin);
  const pinError = useKiosk('setup', (s) => s.pinError);
  const settings = useKiosk('setup', (s) => s.settings);
  const settingsError = useKiosk('setup', (s) => s.settingsError);
  const saving = useKiosk('setup', (s) => s.saving);
  const saved = useKiosk('setup', (s) => s.saved);
  const saveError = useKiosk('setup', (s) => s.saveError);
  const status = useKiosk('connectivity', (s) => s.status);
  const summary = useKiosk('outbox', (s) => s.summary);

  return (
    <section className="screen setup" aria-labelledby="setup-title">
      <h1 id="setup-title">{t('setup.title')}</h1>
      {!unlocked ? (
        <PinEntry
          pin={pinEntry}
          checking={checkingPin}
          error={pinError}
          onChange={(pin) => setup.getState().setPinEntry(pin)}
          onSubmit={() => void setup.getState().unlock()}
        />
      ) : (
        <>
          <button type="button" className="button" onClick={() => setup.getState().lock()}>
            {t('setup.lock')}
          </button>
          {saved && (
            <p className="notice notice-ok" role="status">
              {t(saved === 'credentials' ? 'setup.credentialsSaved' : 'setup.saved')}
            </p>
          )}
          {saveError && <ErrorNotice error={saveError} />}
          {settingsError && (
            <ErrorNotice error={settingsError} onRetry={() => void setup.getState().load()} />
          )}
          <div className="setup-grid">
            {settings && (
              <ServiceForm
                reply={settings}
                status={status}
                saving={saving}
                onSave={(changes) => void setup.getState().update(changes)}
              />
            )}
            <CredentialsForm
              status={settings?.credentials ?? null}
              saving={saving}
              onSave={(email, password) => setup.getState().setCredentials(email, password)}
            />
            {settings && (
              <KioskSettingsForm
                settings={settings.settings}
                saving={saving}
                onSave={(changes) => void setup.getState().update(changes)}
              />
            )}
            {settings && (
              <OfflineLimitsForm
                settings={settings.settings}
                summary={summary}
                saving={saving}
                onSave={(changes) => void setup.getState().update(changes)}
              />
            )}
            <ConnectionTest />
          </div>
        </>
      )}
    </section>
  );
}
