import { Delete } from 'lucide-react';
import type { ReactNode, SyntheticEvent } from 'react';
import type { AmountKey } from '../input/amount-entry.ts';
import { useI18n } from '../i18n/use-i18n.ts';

const keepFocus = (event: SyntheticEvent) => event.preventDefault();

const digitRows: readonly (readonly AmountKey[])[] = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
];

/**
 * The on-screen keypad: large keys for a finger, laid out like a till's. It only reports keys;
 * what a key does to the entry is the caller's rule (an amount, a PIN).
 */
export function NumericKeypad({
  label,
  onKey,
  decimal,
  disabled = false,
}: {
  readonly label: string;
  readonly onKey: (key: AmountKey) => void;
  /** Offer the decimal separator key (amounts), or not (PINs). */
  readonly decimal: boolean;
  readonly disabled?: boolean;
}) {
  const { t, locale } = useI18n();
  const separator = locale === 'fr' ? ',' : '.';
  const key = (value: AmountKey, text: ReactNode, name: string, className = 'key') => (
    <button
      key={value}
      type="button"
      className={className}
      data-key={value}
      aria-label={name}
      disabled={disabled}
      // A tap never moves the focus: the field it types into keeps it, and a text field's
      // on-screen keyboard does not close under the finger (the tap it moved was lost).
      onPointerDown={keepFocus}
      onMouseDown={keepFocus}
      onClick={() => onKey(value)}
    >
      {text}
    </button>
  );

  return (
    <div className="keypad" role="group" aria-label={label}>
      {digitRows.flat().map((digit) => key(digit, digit, digit))}
      {decimal
        ? key('.', separator, t('keypad.decimal'))
        : key('clear', t('keypad.clearShort'), t('keypad.clear'), 'key key-action')}
      {key('0', '0', '0')}
      {key('back', <Delete aria-hidden="true" size={30} />, t('keypad.delete'), 'key key-action')}
      {decimal &&
        key('clear', t('keypad.clearShort'), t('keypad.clear'), 'key key-action key-wide')}
    </div>
  );
}
