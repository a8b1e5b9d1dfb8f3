import { expect, test } from 'vitest';
import {
  amountValue,
  applyAmountKey,
  applyAmountText,
  type AmountKey,
} from '../../../renderer/input/amount-entry.ts';

const typeKeys = (keys: AmountKey[]) => keys.reduce(applyAmountKey, '');

test('the keypad builds an amount with two decimals at most', () => {
  expect(typeKeys(['1', '2', '.', '5'])).toBe('12.5');
  expect(typeKeys(['1', '2', '.', '5', '0', '9'])).toBe('12.50');
  expect(typeKeys(['.', '5'])).toBe('0.5');
  expect(typeKeys(['1', '.', '.', '2'])).toBe('1.2');
  expect(typeKeys(['0', '0', '7'])).toBe('7');
  expect(typeKeys(['9', '9', '9', '9', '9', '9', '9'])).toBe('999999');
});

test('delete and clear', () => {
  expect(typeKeys(['1', '2', 'back'])).toBe('1');
  expect(typeKeys(['1', '2', 'clear', '3'])).toBe('3');
  expect(typeKeys(['back'])).toBe('');
});

test('typed or pasted text goes through the same rules; a comma is the separator', () => {
  expect(applyAmountText('', '12,345')).toBe('12.34');
  expect(applyAmountText('', '€ 4.5x')).toBe('4.5');
});

test('only a positive amount can be sent', () => {
  expect(amountValue('')).toBeNull();
  expect(amountValue('0')).toBeNull();
  expect(amountValue('0.')).toBeNull();
  expect(amountValue('0.00')).toBeNull();
  expect(amountValue('12.')).toBe(12);
  expect(amountValue('12.5')).toBe(12.5);
  expect(amountValue('4.55')).toBe(4.55);
});
