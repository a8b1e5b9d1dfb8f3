import { saveScreen } from './support/evidence.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';

// The kiosk host's system language is French: main's default language, which the page takes at
// start-up whatever the browser's own (English here).
test.use({ locale: 'en-US', kioskOptions: { systemLocale: 'fr-FR' } });

test('language: French from the system, switched to English and back, amounts and dates follow', async ({
  page,
  kiosk,
}, testInfo) => {
  await openKiosk(page, kiosk);
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Disponibilité des produits');
  await expect(page.getByTestId('catalog-as-of')).toContainText('Catalogue à jour au');
  await expect(page.getByTestId('connectivity')).toHaveText(/En ligne/);
  // French money format on the first row's price (comma and the euro sign after).
  await expect(
    page.getByRole('region', { name: 'Produits trouvés' }).getByRole('button').first(),
  ).toContainText(/\d,\d{2}\s€/);

  await page
    .getByRole('group', { name: 'Langue' })
    .getByRole('button', { name: 'English' })
    .click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Product availability');
  await expect(page.getByTestId('catalog-as-of')).toContainText('Catalogue as of');
  await expect(
    page.getByRole('region', { name: 'Products found' }).getByRole('button').first(),
  ).toContainText(/€\d+\.\d{2}/);
  await page.getByRole('navigation').getByRole('button', { name: 'Gift card' }).click();
  await expect(page.getByLabel('Card number (type or scan)')).toBeVisible();
  await saveScreen(page, testInfo, 'language-english');

  await page
    .getByRole('group', { name: 'Language' })
    .getByRole('button', { name: 'Français' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Carte cadeau');
  await saveScreen(page, testInfo, 'language-french');
});
