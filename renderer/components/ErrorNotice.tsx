import type { IpcError } from '../../shared/ipc/errors.ts';
import { describeError } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/** A failure in plain words, announced to assistive technology as it appears. */
export function ErrorNotice({
  error,
  onRetry,
}: {
  readonly error: IpcError;
  readonly onRetry?: () => void;
}) {
  const { t, fmt } = useI18n();
  const text = describeError(error, t, fmt);
  return (
    <div className={text.offline ? 'notice notice-offline' : 'notice notice-error'} role="alert">
      <p className="notice-title">{text.title}</p>
      {text.detail && <p className="notice-detail">{text.detail}</p>}
      {onRetry && (
        <button type="button" className="button" onClick={onRetry}>
          {t('common.retry')}
        </button>
      )}
    </div>
  );
}
