import { describePermissions } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useStores } from '../stores/stores-context.tsx';
import { ErrorNotice } from './ErrorNotice.tsx';
import { Busy } from './Busy.tsx';

/** Logs in with the stored account and asks the service its version: does this kiosk work? */
export function ConnectionTest() {
  const { t, fmt } = useI18n();
  const { setup } = useStores();
  const testing = useKiosk('setup', (s) => s.testing);
  const test = useKiosk('setup', (s) => s.test);
  const testError = useKiosk('setup', (s) => s.testError);
  return (
    <section className="setup-section" aria-labelledby="test-title">
      <h2 id="test-title">{t('setup.test')}</h2>
      <button
        type="button"
        className="button button-primary"
        disabled={testing}
        onClick={() => void setup.getState().testConnection()}
      >
        {t('setup.runTest')}
      </button>
      {testing && <Busy>{t('setup.testing')}</Busy>}
      {testError && <ErrorNotice error={testError} />}
      {test && (
        <div
          className={test.ok ? 'notice notice-ok' : 'notice notice-error'}
          role="status"
          data-testid="connection-test"
        >
          <p className="notice-title">
            {test.ok
              ? t('setup.testOk', { version: test.apiVersion ?? '—' })
              : t('setup.testFailed', { code: test.error?.code ?? '—' })}
          </p>
          {test.expiresAt && <p>{t('setup.tokenUntil', { time: fmt.dateTime(test.expiresAt) })}</p>}
          {test.scopes && (
            <p>{t('setup.scopes', { permissions: describePermissions(test.scopes, t) })}</p>
          )}
        </div>
      )}
    </section>
  );
}
