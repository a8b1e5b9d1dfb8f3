import { useId, useRef, type Ref } from 'react';
import { amountValue, applyAmountKey, applyAmountText } from '../input/amount-entry.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { NumericKeypad } from './NumericKeypad.tsx';

/**
 * An amount in EUR: typed with the on-screen keypad, or a keyboard (scanners and tests type).
 * The entry stays the text staff typed; the line under it shows it as money.
 */
export function AmountField({
  label,
  value,
  onChange,
  disabled = false,
  inputRef,
}: {
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly disabled?: boolean;
  /** The entry field, for a screen that moves the focus to it. */
  readonly inputRef?: Ref<HTMLInputElement>;
}) {
  const { t, fmt, locale } = useI18n();
  const id = useId();
  const field = useRef<HTMLInputElement | null>(null);
  const setField = (element: HTMLInputElement | null) => {
    field.current = element;
    if (typeof inputRef === 'function') inputRef(element);
    else if (inputRef) inputRef.current = element;
  };
  const shown = locale === 'fr' ? value.replace('.', ',') : value;
  const amount = amountValue(value);
  return (
    <div className="amount-field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <input
        id={id}
        ref={setField}
        className="amount-input"
        // The on-screen keypad is the keyboard here: no system keyboard over half the screen.
        inputMode="none"
        autoComplete="off"
        value={shown}
        disabled={disabled}
        aria-describedby={`${id}-as-money`}
        onChange={(event) => onChange(applyAmountText('', event.target.value))}
      />
      <p id={`${id}-as-money`} className="amount-as-money">
        {amount === null ? t('amount.none') : fmt.money(amount)}
      </p>
      <NumericKeypad
        label={t('keypad.label')}
        decimal
        disabled={disabled}
        onKey={(key) => {
          onChange(applyAmountKey(value, key));
          // The key typed here: the caret shows it, and another field's keyboard closes.
          field.current?.focus();
        }}
      />
    </div>
  );
}
