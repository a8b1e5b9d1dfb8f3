import { expect, type Page } from '@playwright/test';

/** Staff's way to a card: the gift-card screen, a fresh card field, the card typed and found. */
export async function findCard(page: Page, giftCardId: string): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Gift card' }).click();
  const next = page.getByRole('button', { name: 'Next card' });
  if (await next.isVisible()) await next.click();
  await page.getByLabel('Card number (type or scan)').fill(giftCardId);
  await page.getByRole('button', { name: 'Find card' }).click();
  await expect(page.getByTestId('gift-card')).toBeVisible();
}

/** Types digits (an amount, a PIN) on the on-screen keypad, as staff do. */
export async function keypad(page: Page, keys: string): Promise<void> {
  const pad = page.getByRole('group', { name: 'Numeric keypad' });
  for (const key of keys) {
    await pad
      .getByRole('button', { name: key === '.' ? 'Decimal separator' : key, exact: true })
      .click();
  }
}
