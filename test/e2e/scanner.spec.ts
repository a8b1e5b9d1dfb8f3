import type { Page } from '@playwright/test';
import { demoGiftCards, demoSales } from '../../sandbox/data/demo.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { readSandbox } from './support/sandbox-api.ts';

/** A handheld scanner as the kiosk meets it: keystrokes 5 ms apart, then Enter. */
async function scan(page: Page, code: string) {
  await page.keyboard.type(code, { delay: 5 });
  await page.keyboard.press('Enter');
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('button', { name }).click();

test('scanner: a product by EAN from any screen, two cards in a row, a sale by its receipt number', async ({
  page,
  kiosk,
  consoleProblems,
}) => {
  test.setTimeout(60_000);
  // Playwright's keystrokes 5 ms apart arrive up to 150 ms apart on a loaded 2-core test machine
  // (measured): the kiosk's setting for a slow scanner. The rhythm itself: test/renderer/input.
  await kiosk.services.parts.settings.update({ scanMaxGapMs: 500 });
  await openKiosk(page, kiosk);
  const found = await readSandbox<{ data: { uuid: string; ean: string; name: string }[] }>(
    kiosk.sandboxUrl,
    '/v1/products?search=VH69853',
  );
  const product = found.data[0]!;

  // From the customers screen, focus in its e-mail field: the product opens, the field stays empty.
  await nav(page, 'Customers');
  const email = page.getByLabel('E-mail address (exact)');
  await email.focus();
  await scan(page, product.ean);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product availability');
  await expect(page.getByRole('article').getByRole('heading', { level: 2 })).toHaveText(
    product.name,
  );
  await nav(page, 'Customers');
  await expect(page.getByLabel('E-mail address (exact)')).toHaveValue('');

  // Two cards in a row on the gift-card screen: the second replaces the first, nothing appended.
  await nav(page, 'Gift card');
  await scan(page, demoGiftCards.active);
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');
  await scan(page, demoGiftCards.lowBalance);
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€4.50');
  await expect(page.getByLabel('Card number (type or scan)')).toHaveValue(demoGiftCards.lowBalance);

  // A receipt's sale number, scanned on the availability screen, opens that sale's documents.
  const sale = await readSandbox<{ number: string }>(
    kiosk.sandboxUrl,
    `/v1/sales/${demoSales.withInvoice}`,
  );
  await nav(page, 'Availability');
  await scan(page, sale.number);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Documents');
  await expect(page.getByTestId('document-heading')).toContainText(/Invoice F-/);
  expect(consoleProblems).toEqual([]);
});
