import type { Locale } from '../i18n/locale.ts';

/**
 * The on-screen keyboard's layouts: the letters as the kiosk's language lays them out (AZERTY in
 * French, QWERTY in English), an e-mail layout with what addresses need in reach, and digits.
 * A key is the character it types; the named keys are the keyboard's own.
 */
export type SpecialKey = 'shift' | 'backspace' | 'space' | 'enter' | 'layout';
export type LayoutName = 'letters' | 'email' | 'numeric';
export type KeyRow = readonly (string | SpecialKey)[];

const specials: ReadonlySet<string> = new Set(['shift', 'backspace', 'space', 'enter', 'layout']);
export const isSpecial = (key: string): key is SpecialKey => specials.has(key);

const letters: Readonly<Record<Locale, readonly KeyRow[]>> = {
  fr: [
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'],
    ['a', 'z', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
    ['q', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', 'm'],
    ['shift', 'w', 'x', 'c', 'v', 'b', 'n', 'é', 'è', 'backspace'],
    ['layout', '-', 'space', "'", 'enter'],
  ],
  en: [
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'],
    ['q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p'],
    ['a', 's', 'd', 'f', 'g', 'h', 'j', 'k', 'l', "'"],
    ['shift', 'z', 'x', 'c', 'v', 'b', 'n', 'm', 'backspace'],
    ['layout', '-', 'space', '.', 'enter'],
  ],
};

/** The e-mail layout: the letters, with @ . _ - and the common endings in place of the space. */
function emailRows(locale: Locale): readonly KeyRow[] {
  const rows = letters[locale].slice(0, 4);
  return [...rows, ['layout', '@', '.', '_', '-', '.fr', '.com', 'enter']];
}

const numeric: readonly KeyRow[] = [
  ['7', '8', '9'],
  ['4', '5', '6'],
  ['1', '2', '3'],
  ['layout', '0', 'backspace'],
  ['enter'],
];

export function layoutRows(name: LayoutName, locale: Locale): readonly KeyRow[] {
  if (name === 'numeric') return numeric;
  if (name === 'email') return emailRows(locale);
  return letters[locale];
}

/** The layout a field asks for by its type and input mode. */
export function layoutFor(field: {
  readonly type: string;
  readonly inputMode: string;
}): LayoutName {
  if (field.type === 'email' || field.inputMode === 'email') return 'email';
  if (field.type === 'number' || field.inputMode === 'numeric' || field.inputMode === 'decimal')
    return 'numeric';
  return 'letters';
}

/** The next layout on the layout key: letters and digits swap; e-mail goes to digits and back. */
export function nextLayout(current: LayoutName, asked: LayoutName): LayoutName {
  if (current === 'numeric') return asked === 'numeric' ? 'letters' : asked;
  return 'numeric';
}
