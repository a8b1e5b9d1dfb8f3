import { shopIds } from '../../sandbox/data/referentials.ts';
import { expectAccessible, saveScreen } from './support/evidence.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { serviceShapes } from './support/services.ts';

for (const service of serviceShapes) {
  test.describe(service.name, () => {
    // The kiosk stands in Bordeaux; staff look at Lyon for a customer.
    test.use({ kioskOptions: { ...service.kiosk, shopId: shopIds.bordeaux } });

    test('availability: search as you type in a chosen shop, then the product with its items by shop', async ({
      page,
      kiosk,
      consoleProblems,
    }, testInfo) => {
      await openKiosk(page, kiosk);
      await expect(page.getByTestId('demo-badge')).toBeVisible();
      await expect(page.getByTestId('catalog-as-of')).toContainText('Catalogue as of');

      await page
        .getByRole('combobox', { name: 'Shop' })
        .selectOption({ label: 'Lyon Part-Dieu (Lyon)' });
      // Words in any order, accents and case ignored: "glacons vh69853" finds the "Machine à glaçons VH69853FR".
      await page
        .getByRole('searchbox', { name: 'Search products' })
        .pressSequentially('glacons vh69853', { delay: 30 });
      const results = page.getByRole('region', { name: 'Products found' });
      const row = results.getByRole('button', { name: /Machine à glaçons/ });
      // The list settles on the last words typed (earlier keystrokes' answers are dropped).
      await expect(page.getByTestId('results-status')).toHaveText('Products found: 1');
      await expect(row).toBeVisible();
      await expectAccessible(page, testInfo, 'availability');

      await row.click();
      const detail = page.getByRole('article');
      await expect(detail.getByRole('heading', { level: 2 })).toContainText('Machine à glaçons');
      // The chosen shop first, with its item's status and its own price; "This shop" is Bordeaux, next.
      const groups = detail.getByTestId('shop-group');
      await expect(groups.first()).toHaveAttribute('aria-label', 'Lyon Part-Dieu');
      await expect(groups.first()).not.toContainText('This shop');
      await expect(detail.getByText('Price in Lyon Part-Dieu')).toBeVisible();
      await expect(
        detail.getByTestId('shop-group').filter({ hasText: 'This shop' }),
      ).toHaveAttribute('aria-label', 'Bordeaux Sainte-Catherine');
      await expect(groups.first().locator('[data-status]').first()).toBeVisible();
      await expect(groups.nth(1)).toHaveAttribute('aria-label', 'Bordeaux Sainte-Catherine');
      // Other shops follow, each with its items' statuses as the service computed them.
      expect(await groups.count()).toBeGreaterThan(1);
      await expect(detail.locator('[data-status]')).toHaveCount(
        await detail.getByTestId('item-line').count(),
      );
      // Every item is on promotion: the promotion price next to the base price.
      await expect(detail.getByText(/^Promotion €/).first()).toBeVisible();
      await expect(detail.getByTestId('answer-source')).toHaveAttribute(
        'data-source',
        /mirror|live/,
      );

      await expectAccessible(page, testInfo, 'product detail');
      await saveScreen(page, testInfo, 'availability-detail');
      expect(consoleProblems).toEqual([]);
    });
  });
}
