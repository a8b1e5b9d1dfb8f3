/**
 * `npm run screens`: the screenshots of the README and docs/kiosk-ui.md, one per screen per
 * orientation, taken in Debian's Chromium from the kiosk on its demo sandbox, into docs/screens/. Run it after a visible change
 * and commit the pictures.
 */
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { demoGiftCards, demoSales } from '../../sandbox/data/demo.ts';
import { shopIds } from '../../sandbox/data/referentials.ts';
import { chromiumLaunchOptions } from './support/chromium.ts';
import { ADMIN_PIN, startKiosk } from './support/kiosk-host.ts';
import { readSandbox } from './support/sandbox-api.ts';

const out = fileURLToPath(new URL('../../docs/screens/', import.meta.url));
const kiosk = await startKiosk({ shopId: shopIds.lyon });
const browser = await chromium.launch(chromiumLaunchOptions);

const nav = (page: Page, index: number) =>
  page.getByRole('navigation').getByRole('button').nth(index).click();

/** Each screen in a state that shows what it is for. */
const screens: readonly [string, (page: Page) => Promise<void>][] = [
  [
    'availability',
    async (page) => {
      await nav(page, 0);
      await page.locator('input[type="search"]').fill('glacons');
      await page.locator('.product-row').first().click();
      await page.getByRole('article').waitFor();
    },
  ],
  [
    'customers',
    async (page) => {
      await nav(page, 1);
      await page.locator('form input').first().fill('helene.lefevre@example.com');
      await page.locator('form [data-primary-action]').click();
      await page.getByTestId('customer-detail').waitFor();
      await page.getByTestId('history-sales').waitFor();
    },
  ],
  [
    'gift-card',
    async (page) => {
      await nav(page, 2);
      await page.locator('form input').first().fill(demoGiftCards.active);
      await page.locator('form input').first().press('Enter');
      await page.getByTestId('gift-card-balance').waitFor();
    },
  ],
  [
    'documents',
    async (page) => {
      const sale = await readSandbox<{ number: string }>(
        kiosk.sandboxUrl,
        `/v1/sales/${demoSales.withInvoice}`,
      );
      await nav(page, 3);
      await page.locator('form input').first().fill(sale.number);
      await page.locator('form [data-primary-action]').click();
      await page.getByRole('img').first().waitFor();
    },
  ],
  [
    'setup',
    async (page) => {
      await nav(page, 4);
      for (const digit of ADMIN_PIN)
        await page.getByRole('group').getByRole('button', { name: digit, exact: true }).click();
      await page.locator('[data-primary-action]').click();
      await page.getByTestId('profile-form').waitFor();
    },
  ],
];

try {
  for (const [orientation, viewport] of [
    ['landscape', { width: 1920, height: 1080 }],
    ['portrait', { width: 1080, height: 1920 }],
  ] as const) {
    const page = await browser.newPage({ viewport, locale: 'en-IE' });
    await page.goto(kiosk.url);
    await page.getByTestId('results-status').filter({ hasText: /\d/ }).waitFor();
    for (const [name, show] of screens) {
      await show(page);
      const file = `${out}${name}-${orientation}.png`;
      await page.screenshot({ path: file });
      console.log(file);
    }
    await page.close();
  }
} finally {
  await browser.close();
  await kiosk.close();
}
