import { useEffect } from 'react';
import { ConnectionTest } from '../components/ConnectionTest.tsx';
import { CredentialsForm } from '../components/CredentialsForm.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { KioskSettingsForm } from '../components/KioskSettingsForm.tsx';
import { OfflineLimitsForm } from '../components/OfflineLimitsForm.tsx';
import { PinEntry } from '../components/PinEntry.tsx';
import { ProfileForm } from '../components/ProfileForm.tsx';
import { ServiceForm } from '../components/ServiceForm.tsx';
import { useIdle } from '../hooks/use-idle.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { credentialsNotice, serviceFormReply } from '../stores/credentials-notice.ts';
import { useStores } from '../stores/stores-context.tsx';

/** Setup locks itself after this long without a touch or a key. */
export const SETUP_IDLE_MS = 2 * 60_000;

/** Protected by the administrator PIN; main checks the PIN again on every change. */
export function SetupScreen() {
  const { t, fmt } = useI18n();
  const { setup } = useStores();
  const unlocked = useKiosk('setup', (s) => s.unlockedWith !== null);
  const pinEntry = useKiosk('setup', (s) => s.pinEntry);
  const checkingPin = useKiosk('setup', (s) => s.checkingPin);
  const pinError = useKiosk('setup', (s) => s.pinError);
  const idleLocked = useKiosk('setup', (s) => s.idleLocked);
  const settings = useKiosk('setup', (s) => s.settings);
  const settingsError = useKiosk('setup', (s) => s.settingsError);
  const saving = useKiosk('setup', (s) => s.saving);
  const saved = useKiosk('setup', (s) => s.saved);
  const saveError = useKiosk('setup', (s) => s.saveError);
  const status = useKiosk('connectivity', (s) => s.status);
  const summary = useKiosk('outbox', (s) => s.summary);
  // A PIN typed in, or setup left open, is not left for the next person at the kiosk: setup
  // locks again when staff leave it, and when nobody has touched the kiosk for a while.
  useEffect(() => () => setup.getState().lock(), [setup]);
  useIdle(SETUP_IDLE_MS, () => setup.getState().lock('idle'), unlocked || pinEntry !== '');

  const notice = credentialsNotice(settings);

  return (
    <section className="screen setup" aria-labelledby="setup-title">
      <h1 id="setup-title">{t('setup.title')}</h1>
      {notice?.kind === 'setup-required' && (
        <div className="notice notice-warning" role="status" data-testid="setup-required">
          <p className="notice-title">{t('setup.requiredTitle')}</p>
          <p>{t('setup.requiredDetail', { where: notice.where })}</p>
        </div>
      )}
      {!unlocked && idleLocked && (
        <p className="notice" role="status">
          {t('setup.idleLocked', { time: fmt.duration(SETUP_IDLE_MS) })}
        </p>
      )}
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
          {notice?.kind === 'other-api' && (
            <p className="notice notice-warning" role="status" data-testid="credentials-other-api">
              {t('setup.credentialsOtherApi', { origin: notice.origin, url: notice.url })}
            </p>
          )}
          {notice?.kind === 'unbound' && (
            <p className="notice notice-warning" role="status" data-testid="credentials-unbound">
              {t('setup.credentialsUnbound')}
            </p>
          )}
          <div className="setup-grid">
            {settings && (
              <ServiceForm
                reply={serviceFormReply(settings)}
                // Locked on setup, no service is in use: the form does not name one.
                status={notice?.kind === 'setup-required' ? null : status}
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
            {settings && (
              <ProfileForm
                reply={settings}
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
