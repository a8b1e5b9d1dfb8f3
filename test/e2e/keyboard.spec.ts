import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { saveScreen } from './support/evidence.ts';

/** A touch-only kiosk: the customer's address typed on the screen's own keyboard, in Chromium. */
test('on-screen keyboard: an e-mail typed with its keys, the field kept focused, Enter searches', async ({
  page,
  kiosk,
}, testInfo) => {
  await kiosk.services.parts.settings.update({ onScreenKeyboard: 'on' });
  await openKiosk(page, kiosk);
  await page.getByRole('navigation').getByRole('button', { name: 'Customers' }).click();
  const field = page.getByLabel('E-mail address (exact)');
  await field.click();
  const keyboard = page.getByTestId('on-screen-keyboard');
  await expect(keyboard).toHaveAttribute('data-layout', 'email');
  const address = 'helene.lefevre@example.com';
  for (const key of address.replace('.com', '').replace('@example', '@')) {
    if (key === '@') {
      await keyboard.getByRole('button', { name: '@', exact: true }).click();
      for (const letter of 'example')
        await keyboard.getByRole('button', { name: letter, exact: true }).click();
    } else await keyboard.getByRole('button', { name: key, exact: true }).click();
  }
  await keyboard.getByRole('button', { name: '.com', exact: true }).click();
  await expect(field).toHaveValue(address);
  await expect(field).toBeFocused();
  await saveScreen(page, testInfo, 'keyboard-email');
  await keyboard.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByTestId('customer-detail').getByRole('heading')).toHaveText(
    'Hélène Lefèvre',
  );
  await expect(keyboard).toHaveCount(0);
});
