import type { Page } from '@playwright/test';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { saveScreen } from './support/evidence.ts';
import { dropReplies } from './support/dropped-replies.ts';
import { findCard, keypad } from './support/gift-card.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { ledger } from './support/sandbox-control.ts';

/** A handheld scanner as the kiosk meets it: keystrokes 5 ms apart, then Enter. */
async function scan(page: Page, code: string) {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('button', { name }).click();

/** The card is on screen with the first debit's notice, and nothing to debit it again with. */
async function expectTheFirstDebit(page: Page) {
  await expect(page.getByTestId('gift-card')).toBeVisible();
  await expect(page.getByTestId('debit-may-be-stored')).toContainText(
    'The debit of €20.00 may already be stored.',
  );
  await expect(page.getByRole('form', { name: 'Debit the card' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Debit €/u })).toHaveCount(0);
}

async function nextCard(page: Page) {
  await page.getByRole('button', { name: 'Next card' }).click();
  await expect(page.getByTestId('debit-may-be-stored')).toHaveCount(0);
}

test('one sale, one debit: its replies dropped, the scan, the typed id, the last cards and the customer’s credit each lead back to the first debit; the ledger has one entry', async ({
  page,
  kiosk,
}, testInfo) => {
  test.setTimeout(120_000);
  const card = demoGiftCards.active;
  // Playwright's keystrokes 5 ms apart arrive up to 150 ms apart on a loaded 2-core test machine
  // (measured in scanner.spec.ts): the kiosk's setting for a slow scanner.
  await kiosk.services.parts.settings.update({ scanMaxGapMs: 500 });
  const dropped = await dropReplies(page, 'debitGiftCard');
  await openKiosk(page, kiosk);

  await findCard(page, card);
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
  await keypad(page, '20');
  await page.getByRole('button', { name: 'Debit €20.00' }).click();
  await expectTheFirstDebit(page);
  // Main stored it and the service applied it: the screen only does not know.
  await expect.poll(async () => (await ledger(kiosk.sandboxUrl, card)).length).toBe(1);
  await saveScreen(page, testInfo, 'gift-card-one-debit-notice');

  await test.step('the card typed again', async () => {
    await findCard(page, card);
    await expectTheFirstDebit(page);
  });

  await test.step('the card in "Last cards used"', async () => {
    await nextCard(page);
    const recent = page.getByTestId('recent-cards').getByRole('button');
    await expect(recent).toHaveCount(1);
    await recent.click();
    await expectTheFirstDebit(page);
  });

  await test.step('the card scanned, from another screen', async () => {
    await nextCard(page);
    await nav(page, 'Availability');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product availability');
    await scan(page, card);
    await expectTheFirstDebit(page);
  });

  await test.step('the customer’s credit: "Use this card"', async () => {
    await nextCard(page);
    await nav(page, 'Customers');
    await page.getByLabel('E-mail address (exact)').fill('helene.lefevre@example.com');
    await page.getByRole('button', { name: 'Search' }).click();
    await page
      .getByTestId('history-credits')
      .getByRole('button', { name: /^Use this card/u })
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Gift card');
    await expectTheFirstDebit(page);
  });

  await test.step('the list of debits whose outcome is not shown, and a reload', async () => {
    await nextCard(page);
    const unshown = page.getByTestId('unshown-debits');
    await expect(unshown).toContainText('Debits whose outcome is not shown yet');
    await unshown.getByRole('button', { name: /^€20\.00 on card/u }).click();
    await expectTheFirstDebit(page);
    await page.reload();
    await nav(page, 'Gift card');
    await expectTheFirstDebit(page);
  });

  // Every question the screen asked was about that one debit: one request id, one amount.
  const sent = dropped.requests as { requestId: string; amount: number; giftCardId: string }[];
  expect(sent.length).toBeGreaterThan(4);
  expect(new Set(sent.map((request) => `${request.requestId} ${request.amount}`)).size).toBe(1);
  expect(await ledger(kiosk.sandboxUrl, card)).toHaveLength(1);

  await test.step('main’s answer reaches the screen: the outcome, then a new debit is another one', async () => {
    dropped.stop();
    const check = page.getByRole('button', { name: 'Check this debit now' });
    if (await check.isVisible()) await check.click();
    const outcome = page.getByTestId('debit-outcome');
    await expect(outcome).toHaveAttribute('data-outcome', 'applied', { timeout: 30_000 });
    await expect(outcome).toContainText('Debit of €20.00 applied.');
    await expect(page.getByTestId('debit-replayed')).toBeVisible();
    await expect(page.getByTestId('unshown-debits')).toHaveCount(0);
    await saveScreen(page, testInfo, 'gift-card-one-debit-outcome');

    await keypad(page, '5');
    await page.getByRole('button', { name: 'Debit €5.00' }).click();
    await expect(page.getByTestId('debit-outcome')).toContainText('Debit of €5.00 applied.');
    const debits = await ledger(kiosk.sandboxUrl, card);
    expect(debits.map((debit) => debit.amount)).toEqual([20, 5]);
    const last = dropped.requests.at(-1) as { requestId: string; amount: number };
    expect(last.amount).toBe(5);
    expect(last.requestId).not.toBe(sent[0]?.requestId);
  });
});
