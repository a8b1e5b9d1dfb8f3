import { saveScreen } from './support/evidence.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';

test.use({ kioskOptions: { account: 'kiosk-catalog@sandbox.test' } });

test('a catalogue-only account: availability works, customer lookup says which permission is missing', async ({
  page,
  kiosk,
}, testInfo) => {
  await openKiosk(page, kiosk);
  // The catalogue scopes are there: the list fills.
  await expect(page.getByTestId('results-status')).toHaveText(/Products (found|shown)/);

  await page.getByRole('navigation').getByRole('button', { name: 'Customers' }).click();
  await page.getByLabel('E-mail address (exact)').fill('helene.lefevre@example.com');
  await page.getByRole('button', { name: 'Search' }).click();

  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The kiosk’s account is not allowed to do this.');
  await expect(alert).toContainText('read customers (customers:read)');
  await expect(alert).toContainText('An administrator can add it to the integration account.');
  await saveScreen(page, testInfo, 'customers-forbidden');
});
