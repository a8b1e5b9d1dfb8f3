import type { Locator, Page } from '@playwright/test';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { saveScreen } from './support/evidence.ts';
import { findCard, keypad } from './support/gift-card.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { addFault, clearFaults } from './support/sandbox-control.ts';
import { resizeTo } from './support/viewport.ts';

/**
 * Issue 37 (2, 3): at the counter the on-screen keyboard never covers the amount's keypad or
 * Débiter, a digit goes to the amount only, and every debit outcome lands beside Débiter, in
 * view at the kiosk sizes, online, offline, and with an attention alert and the offline
 * banner stacked above.
 */
const sizes = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1080, height: 1920 },
] as const;

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, `${what}: not on screen`).not.toBeNull();
  return box!;
}

const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function inView(page: Page, locator: Locator, what: string) {
  const box = await boxOf(locator, what);
  const viewport = page.viewportSize()!;
  expect(box.y, `${what}: above the window`).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, `${what}: below the fold`).toBeLessThanOrEqual(viewport.height);
}

const debitButton = (page: Page) => page.locator('.debit-form [data-primary-action]');
const keypadGroup = (page: Page) => page.getByRole('group', { name: 'Numeric keypad' });
const cardField = (page: Page) => page.getByLabel('Card number (type or scan)');

test('at 1366x768 with the on-screen keyboard: the card found, 2 then 5 on the keypad make €25.00, the card unchanged, nothing covered', async ({
  page,
  kiosk,
}, testInfo) => {
  await kiosk.services.parts.settings.update({ onScreenKeyboard: 'on' });
  await resizeTo(page, sizes[0]);
  await openKiosk(page, kiosk);
  await page.getByRole('navigation').getByRole('button', { name: 'Gift card' }).click();
  await cardField(page).click();
  const keyboard = page.getByTestId('on-screen-keyboard');
  await expect(keyboard).toBeVisible();
  await cardField(page).fill(demoGiftCards.active);
  await keyboard.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');

  // The focus went to the amount, whose keypad is its keyboard: the text keyboard is gone.
  const amount = page.getByLabel('Amount to debit', { exact: true });
  await expect(amount).toBeFocused();
  await expect(keyboard).toHaveCount(0);
  await keypad(page, '2');
  await keypad(page, '5');
  await expect(page.locator('.amount-as-money')).toHaveText('€25.00');
  await expect(cardField(page)).toHaveValue(demoGiftCards.active);
  await expect(debitButton(page)).toHaveText('Debit €25.00');

  // Back in the card field, its keyboard is docked beside the action column, at every size.
  for (const size of sizes) {
    await resizeTo(page, size);
    await cardField(page).click();
    await expect(keyboard).toBeVisible();
    const where = `${size.width}x${size.height}`;
    const keys = await boxOf(keyboard, `${where} keyboard`);
    expect(overlap(keys, await boxOf(keypadGroup(page), where)), `${where}: keypad`).toBe(false);
    expect(overlap(keys, await boxOf(debitButton(page), where)), `${where}: Débiter`).toBe(false);
    await inView(page, debitButton(page), `${where} Débiter`);
    if (size === sizes[0]) await saveScreen(page, testInfo, 'gift-card-keyboard-1366x768');
    // A key tapped while it is open goes to the amount, never the card number.
    await keypadGroup(page).getByRole('button', { name: '0', exact: true }).click();
    await expect(cardField(page)).toHaveValue(demoGiftCards.active);
    await expect(amount).toBeFocused();
    await keypadGroup(page).getByRole('button', { name: 'Delete' }).click();
    await expect(page.locator('.amount-as-money')).toHaveText('€25.00');
  }

  // Typed on a physical keyboard after the look-up: the amount too.
  await resizeTo(page, sizes[0]);
  await findCard(page, demoGiftCards.active);
  await page.keyboard.type('7');
  await expect(page.locator('.amount-as-money')).toHaveText('€7.00');
  await expect(cardField(page)).toHaveValue(demoGiftCards.active);
});

test('every debit outcome beside Débiter, both in view at the three sizes: online, offline, an alert and the banner stacked', async ({
  page,
  kiosk,
}, testInfo) => {
  test.setTimeout(120_000);
  const { sandboxUrl } = kiosk;
  await openKiosk(page, kiosk);
  const outcome = page.getByTestId('debit-outcome');
  const region = page.getByTestId('debit-outcome-region');

  const bothInView = async (state: string) => {
    for (const size of sizes) {
      await resizeTo(page, size);
      const where = `${state}, ${size.width}x${size.height}`;
      await saveScreen(page, testInfo, `gift-card-outcome-${state}-${size.width}x${size.height}`);
      await inView(page, outcome, `${where}: the outcome`);
      await inView(page, debitButton(page), `${where}: Débiter`);
    }
    await resizeTo(page, sizes[0]);
  };

  // Online: applied.
  await resizeTo(page, sizes[0]);
  await findCard(page, demoGiftCards.active);
  await expect(region).toHaveAttribute('aria-live', 'polite');
  await keypad(page, '5');
  await debitButton(page).click();
  await expect(outcome).toHaveAttribute('data-outcome', 'applied');
  await expect(region.getByTestId('debit-outcome')).toHaveCount(1);
  await bothInView('online');

  // Offline: a card never read, stored offline (the service will refuse it: €4.50 left).
  await addFault(sandboxUrl, { kind: 'reset' });
  await page.getByRole('button', { name: 'Check connection' }).click();
  await findCard(page, demoGiftCards.lowBalance);
  await keypad(page, '50');
  await debitButton(page).click();
  await expect(outcome).toHaveAttribute('data-outcome', 'storedOffline');
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await bothInView('offline');

  // Back online the service refuses it, after the fact: the alert; then offline again, banner too.
  await clearFaults(sandboxUrl);
  await page.getByRole('button', { name: 'Check connection' }).click();
  await expect(page.getByTestId('attention-alert')).toBeVisible({ timeout: 20_000 });
  await addFault(sandboxUrl, { kind: 'reset' });
  await findCard(page, demoGiftCards.active);
  await keypad(page, '3');
  await debitButton(page).click();
  await expect(outcome).toHaveAttribute('data-outcome', 'storedOffline');
  await expect(page.getByTestId('offline-banner')).toBeVisible();
  await expect(page.getByTestId('attention-alert')).toBeVisible();
  await bothInView('stacked');
});

test('refused in front of the customer: an outcome on screen only, no attention alert; one debit being sent counts as one', async ({
  page,
  kiosk,
}) => {
  const { sandboxUrl } = kiosk;
  await openKiosk(page, kiosk);
  await findCard(page, demoGiftCards.lowBalance);
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€4.50');
  // Another till takes most of it after this read: within what the kiosk knows, the service says no.
  await kiosk.services.parts.client.debitGiftCard({
    params: { giftCardId: demoGiftCards.lowBalance },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
    body: { amount: 4, currency: 'EUR', reference: 'other-till' },
  });
  await keypad(page, '4.5');
  await debitButton(page).click();
  await expect(page.getByTestId('debit-outcome')).toHaveAttribute('data-outcome', 'refused');
  // The outcome's refresh of the alerts has run: the outbox says nothing needs a person.
  await expect(page.getByTestId('outbox-indicator')).toHaveText('No debit waiting');
  await page.getByRole('navigation').getByRole('button', { name: 'Availability' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product availability');
  await expect(page.getByTestId('attention-alert')).toHaveCount(0);
  expect(kiosk.services.parts.outbox.summary().attention.total).toBe(0);

  // One debit on its way, the service slow to answer: '1' everywhere it is counted.
  await addFault(sandboxUrl, {
    kind: 'latency',
    route: 'debitGiftCard',
    latencyMs: 8_000,
    count: 1,
  });
  await findCard(page, demoGiftCards.active);
  await keypad(page, '2');
  await debitButton(page).click();
  await expect(page.getByTestId('outbox-indicator')).toContainText('Debits waiting: 1 (€2.00)');
});
