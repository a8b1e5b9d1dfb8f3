import { expect, openKiosk, test } from './support/kiosk-test.ts';

/**
 * An unattended kiosk: after 90 s without a touch (the default) it is back on its start screen,
 * and nothing of the customer it showed is left in the page. The page's clock is Playwright's,
 * moved forward, so the test does not wait the 90 s.
 */
test('idle 90 s: a visible countdown, then the start screen with no customer data in the DOM', async ({
  page,
  kiosk,
}) => {
  await page.clock.install();
  await openKiosk(page, kiosk);
  await page.getByRole('navigation').getByRole('button', { name: 'Customers' }).click();
  await page.getByLabel('E-mail address (exact)').fill('helene.lefevre@example.com');
  await page.getByRole('button', { name: 'Search' }).click();
  const detail = page.getByTestId('customer-detail');
  await expect(detail.getByRole('heading')).toHaveText('Hélène Lefèvre');
  await expect(page.getByTestId('history-sales')).toBeVisible();

  await page.clock.fastForward(81_000);
  await expect(page.getByTestId('idle-countdown')).toContainText(/in \d+ s/);
  await page.clock.fastForward(10_000);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product availability');
  await expect(page.getByTestId('idle-countdown')).toHaveCount(0);
  const text = await page.locator('body').innerText();
  for (const trace of ['Hélène', 'Lefèvre', 'helene.lefevre@example.com', 'République'])
    expect(text).not.toContain(trace);
  expect(await page.content()).not.toContain('helene.lefevre@example.com');
});
