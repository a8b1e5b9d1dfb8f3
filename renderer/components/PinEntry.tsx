import { useId, type FormEvent } from 'react';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { AmountKey } from '../input/amount-entry.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { NumericKeypad } from './NumericKeypad.tsx';

export const MAX_PIN_LENGTH = 12;

export function applyPinKey(pin: string, key: AmountKey): string {
  if (key === 'clear') return '';
  if (key === 'back') return pin.slice(0, -1);
  if (key === '.' || pin.length >= MAX_PIN_LENGTH) return pin;
  return pin + key;
}

/** The administrator PIN: keypad or keyboard, shown as dots. */
export function PinEntry({
  pin,
  checking,
  error,
  onChange,
  onSubmit,
}: {
  readonly pin: string;
  readonly checking: boolean;
  readonly error: IpcError | 'invalid' | null;
  readonly onChange: (pin: string) => void;
  readonly onSubmit: () => void;
}) {
  const { t } = useI18n();
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="pin-entry" onSubmit={submit} aria-label={t('setup.unlockForm')}>
      <p className="hint">{t('setup.locked')}</p>
      <label htmlFor={id} className="field-label">
        {t('setup.pin')}
      </label>
      <input
        id={id}
        className="input pin-input"
        type="password"
        inputMode="none"
        autoComplete="off"
        value={pin}
        onChange={(event) =>
          onChange(event.target.value.replace(/\D/g, '').slice(0, MAX_PIN_LENGTH))
        }
      />
      <NumericKeypad
        label={t('keypad.label')}
        decimal={false}
        onKey={(key) => onChange(applyPinKey(pin, key))}
      />
      {error === 'invalid' && (
        <p className="notice notice-error" role="alert">
          {t('error.pinInvalid')}
        </p>
      )}
      {error !== null && error !== 'invalid' && <ErrorNotice error={error} />}
      <button
        type="submit"
        className="button button-primary"
        data-primary-action
        disabled={checking || pin.length < 4}
      >
        {t('setup.unlock')}
      </button>
    </form>
  );
}
