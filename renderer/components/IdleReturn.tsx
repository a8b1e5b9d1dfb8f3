import { DEFAULT_IDLE_RETURN_SECONDS } from '../../shared/ipc/status.ts';
import { useIdleCountdown } from '../hooks/use-idle-countdown.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';

/** The last seconds are counted down on screen before the kiosk forgets the customer. */
const WARN_MS = 10_000;

/**
 * An unattended kiosk goes back to its start screen and forgets the customer it showed (their
 * record, history, search, an invoice on screen), so the next person at the counter sees none of it. Gift-card state
 * stays: a debit waiting for its outcome must keep its request id, and a card shows no one's
 * personal data.
 */
export function IdleReturn() {
  const { t } = useI18n();
  const stores = useStores();
  const seconds = useKiosk(
    'setup',
    (s) => s.settings?.settings.idleReturnSeconds ?? DEFAULT_IDLE_RETURN_SECONDS,
  );
  const away = useKiosk('navigation', (s) => s.screen !== 'availability');
  const customer = useKiosk('customers', (s) => s.phase !== 'idle');
  const searched = useKiosk('availability', (s) => s.text !== '' || s.productId !== null);
  const document = useKiosk('documents', (s) => s.document !== null || s.lookup !== null);
  const left = useIdleCountdown(
    seconds * 1_000,
    WARN_MS,
    () => {
      stores.navigation.getState().go('availability');
      stores.customers.getState().reset();
      stores.availability.getState().startOver();
      stores.documents.getState().forget();
    },
    away || customer || searched || document,
  );
  if (left === null) return null;
  return (
    <div className="idle-countdown" role="alert" data-testid="idle-countdown">
      {t('idle.countdown', { seconds: left })}
    </div>
  );
}
