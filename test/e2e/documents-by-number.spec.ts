import { demoSales } from '../../sandbox/data/demo.ts';
import { readSandbox } from './support/sandbox-api.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';

/** Staff have the customer's receipt, not an internal id: its printed number opens the document. */

test('a sale opened by its printed number', async ({ page, kiosk }) => {
  await openKiosk(page, kiosk);
  // Numbers follow the sandbox's clock: ask it which ones the demo sales have.
  const sale = await readSandbox(kiosk.sandboxUrl, `/v1/sales/${demoSales.withInvoice}`);
  const invoice = await readSandbox(kiosk.sandboxUrl, `/v1/sales/${demoSales.withInvoice}/invoice`);
  const unbilled = await readSandbox(kiosk.sandboxUrl, `/v1/sales/${demoSales.partiallyPaid}`);

  await page.getByRole('navigation').getByRole('button', { name: 'Documents' }).click();
  const number = page.getByLabel('Number on the receipt (V-…, F-…, SAV-…) or identifier');
  await number.fill(String(sale['number']));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('document-heading')).toHaveText(
    `Invoice ${String(invoice['number'])}`,
  );
  await expect(
    page.getByRole('img', { name: `First page of Invoice ${String(invoice['number'])}` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toBeEnabled();

  // A sale not invoiced yet says so, under its own number, and offers nothing to print.
  await number.fill(String(unbilled['number']));
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('document-heading')).toHaveText(
    `Sale ${String(unbilled['number'])}`,
  );
  await expect(page.getByTestId('document-no-invoice')).toHaveText(
    `Sale ${String(unbilled['number'])} has no invoice yet: there is nothing to print.`,
  );
  await expect(page.getByRole('button', { name: 'Print', exact: true })).toHaveCount(0);

  // A number nobody has: said plainly.
  await number.fill('V-1999-000001');
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByTestId('document-not-found')).toContainText(
    'No sale, invoice or after-sales case has the number V-1999-000001.',
  );
});
