/**
 * The keypad's editing rules for an amount in EUR, kept as typed text (`"12.5"`) so that what
 * staff see is exactly what they entered: digits, one decimal separator, two decimals at most.
 */
export type AmountKey =
  '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '.' | 'back' | 'clear';

/** Six digits before the separator: far above any gift card's balance, and still readable. */
export const MAX_WHOLE_DIGITS = 6;

export function applyAmountKey(value: string, key: AmountKey): string {
  if (key === 'clear') return '';
  if (key === 'back') return value.slice(0, -1);
  const [whole = '', decimals] = value.split('.');
  if (key === '.') {
    if (decimals !== undefined) return value;
    return whole === '' ? '0.' : `${value}.`;
  }
  if (decimals !== undefined) return decimals.length >= 2 ? value : value + key;
  if (whole === '0') return key;
  if (whole.length >= MAX_WHOLE_DIGITS) return value;
  return value + key;
}

/** Applies each character of typed or pasted text (a `,` counts as the separator). */
export function applyAmountText(value: string, text: string): string {
  let next = value;
  for (const character of text) {
    const key = character === ',' ? '.' : character;
    if (/^[0-9.]$/.test(key)) next = applyAmountKey(next, key as AmountKey);
  }
  return next;
}

/** The amount to send, or null while the entry is not a positive amount yet. */
export function amountValue(value: string): number | null {
  if (!/^\d+(\.\d{0,2})?$/.test(value)) return null;
  const amount = Number(value);
  return amount > 0 ? amount : null;
}
