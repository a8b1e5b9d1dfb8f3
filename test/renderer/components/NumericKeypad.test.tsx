import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, expect, test } from 'vitest';
import { AmountField } from '../../../renderer/components/AmountField.tsx';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

function Harness() {
  const [value, setValue] = useState('');
  return <AmountField label="Amount" value={value} onChange={setValue} />;
}

test('the keypad types an amount, shows it as money, deletes and clears', async () => {
  rendered = await renderKiosk(<Harness />, { locale: 'fr' });
  const user = userEvent.setup();
  const keypad = screen.getByRole('group', { name: 'Pavé numérique' });
  const press = (name: string) => user.click(within(keypad).getByRole('button', { name }));
  const input = screen.getByLabelText('Amount') as HTMLInputElement;

  for (const key of ['1', '2', 'Virgule', '5', '0', '9']) await press(key);
  expect(input.value).toBe('12,50');
  expect(
    screen.getByText(/12,50/, { selector: 'p' }).textContent?.replace(/[\u202f\u00a0]/g, ' '),
  ).toBe('12,50 €');
  // Every key is a big button with a name; the decimal key shows the French separator.
  expect(within(keypad).getByRole('button', { name: 'Virgule' }).textContent).toBe(',');

  await press('Effacer le dernier chiffre');
  expect(input.value).toBe('12,5');
  await press('Effacer la saisie');
  expect(input.value).toBe('');
  expect(screen.getByText('Saisissez le montant avec le pavé')).toBeTruthy();

  // A keyboard or a scanner types into the same entry, under the same rules.
  await user.type(input, '7,255');
  expect(input.value).toBe('7,25');
});
