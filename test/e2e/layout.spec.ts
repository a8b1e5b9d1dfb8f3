import type { Page } from '@playwright/test';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { saveScreen } from './support/evidence.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { addFault } from './support/sandbox-control.ts';
import { resizeTo } from './support/viewport.ts';

/**
 * Each screen's main action (the element marked `data-primary-action`: the search box, Search,
 * Debit, Find, Unlock) is inside the window without scrolling, at the kiosk sizes, in both
 * languages, online and offline with the banner up: staff never hunt for it below the fold.
 */
const sizes = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1080, height: 1920 },
] as const;

async function primaryActionInView(page: Page, where: string) {
  const box = await page.locator('[data-primary-action]').first().boundingBox();
  const viewport = page.viewportSize()!;
  expect(box, `${where}: no main action`).not.toBeNull();
  expect(box!.y, `${where}: main action above the window`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${where}: main action below the fold`).toBeLessThanOrEqual(
    viewport.height,
  );
}

test('the main action of every screen is in view at 1366x768, 1920x1080 and 1080x1920, FR and EN, online and offline', async ({
  page,
  kiosk,
}, testInfo) => {
  test.setTimeout(120_000);
  await openKiosk(page, kiosk);
  // A card on the gift-card screen, so its Debit button is there to measure.
  const nav = page.getByRole('navigation').getByRole('button');
  await nav.nth(2).click();
  await page.getByLabel('Card number (type or scan)').fill(demoGiftCards.active);
  await page.getByRole('button', { name: 'Find card' }).click();
  await expect(page.getByTestId('gift-card-balance')).toHaveText('€114.50');

  for (const state of ['online', 'offline'] as const) {
    if (state === 'offline') {
      await addFault(kiosk.sandboxUrl, { kind: 'reset' });
      await nav.nth(1).click();
      await page.locator('form input').first().fill('helene.lefevre@example.com');
      await page.locator('form [data-primary-action]').click();
      await expect(page.getByTestId('offline-banner')).toBeVisible();
    }
    for (const language of ['Français', 'English']) {
      await page
        .getByRole('group', { name: /Language|Langue/ })
        .getByRole('button', { name: language })
        .click();
      for (const size of sizes) {
        await resizeTo(page, size);
        // The screen buttons are one size, whatever label wraps ("Carte cadeau").
        const heights = await nav.evaluateAll((buttons) =>
          buttons.map((button) => Math.round(button.getBoundingClientRect().height)),
        );
        expect(new Set(heights).size, `nav heights ${heights.join(',')}`).toBe(1);
        for (let screen = 0; screen < 5; screen++) {
          await nav.nth(screen).click();
          await primaryActionInView(
            page,
            `screen ${screen + 1}, ${size.width}x${size.height}, ${language}, ${state}`,
          );
        }
      }
    }
  }
  await resizeTo(page, { width: 1366, height: 768 });
  await nav.nth(2).click();
  await saveScreen(page, testInfo, 'gift-card-offline-1366x768');
});

test('a product open beside the list: each pane scrolls on its own, the screen itself never', async ({
  page,
  kiosk,
}) => {
  await openKiosk(page, kiosk);
  await page.getByRole('searchbox', { name: 'Search products' }).fill('lave');
  await page.getByRole('region', { name: 'Products found' }).getByRole('button').first().click();
  await expect(page.getByRole('article')).toBeVisible();
  for (const size of sizes) {
    await resizeTo(page, size);
    const main = await page.locator('main').evaluate((element) => ({
      scroll: element.scrollHeight,
      client: element.clientHeight,
    }));
    expect(main.scroll, `${size.width}x${size.height}`).toBeLessThanOrEqual(main.client + 1);
  }
});
