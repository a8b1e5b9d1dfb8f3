import type { Page } from '@playwright/test';
import { saveScreen } from './support/evidence.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';
import { resizeTo } from './support/viewport.ts';

/**
 * The availability screen at the kiosk's landscape sizes, a shop chosen (so rows say "not in this
 * shop · available in other shops: N") and a product open beside the list: every row keeps its
 * product's name, whole (wrapping to two lines, never cut or hidden), the detail pane never
 * scrolls sideways, and the list is the only vertical scrollbar of its pane (the screen itself
 * never scrolls).
 */
const sizes = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

interface RowLayout {
  readonly name: string;
  readonly nameWidth: number;
  readonly clamped: boolean;
  readonly overlapsSide: boolean;
  readonly overflowsRow: boolean;
}

async function rowLayouts(page: Page): Promise<RowLayout[]> {
  return page.locator('.product-row').evaluateAll((rows) =>
    rows.map((row) => {
      const name = row.querySelector('.product-row-name')!;
      const box = name.getBoundingClientRect();
      return {
        name: name.textContent ?? '',
        nameWidth: box.width,
        // Cut off: more text than its box shows (a clamp, an ellipsis, a hidden overflow).
        clamped:
          name.scrollHeight > name.clientHeight + 1 || name.scrollWidth > name.clientWidth + 1,
        // The name shares no pixel with the price or the stock, side by side or stacked.
        overlapsSide: ['.product-row-price', '.product-row-stock'].some((selector) => {
          const other = row.querySelector(selector)!.getBoundingClientRect();
          return (
            box.left < other.right - 1 &&
            other.left < box.right - 1 &&
            box.top < other.bottom - 1 &&
            other.top < box.bottom - 1
          );
        }),
        // Anything of the row (name, identifiers, price, stock) below or beside its box.
        overflowsRow: [...row.querySelectorAll('*')].some((part) => {
          const own = part.getBoundingClientRect();
          const frame = row.getBoundingClientRect();
          return own.bottom > frame.bottom + 1 || own.right > frame.right + 1;
        }),
      };
    }),
  );
}

test('availability rows keep the whole name, the detail pane never scrolls sideways, one scrollbar per pane', async ({
  page,
  kiosk,
}, testInfo) => {
  test.setTimeout(90_000);
  await openKiosk(page, kiosk);
  const shop = page.getByRole('combobox', { name: 'Shop' });
  // A shop that does not carry everything: rows of products found only elsewhere.
  await shop.selectOption({ index: 3 });
  await page.getByRole('searchbox', { name: 'Search products' }).fill('lave');
  const list = page.getByRole('region', { name: 'Products found' });
  await expect(list.getByRole('button').first()).toBeVisible();
  await expect(list).toContainText('Not in this shop');
  await list.getByRole('button').first().click();
  await expect(page.getByRole('article')).toBeVisible();

  for (const language of ['Français', 'English']) {
    await page
      .getByRole('group', { name: /Language|Langue/ })
      .getByRole('button', { name: language })
      .click();
    for (const size of sizes) {
      await resizeTo(page, size);
      const where = `${size.width}x${size.height}, ${language}`;
      await expect(page.locator('.product-row').first()).toBeVisible();
      // The settled layout is judged: one frame caught mid-update is not the screen staff see,
      // a layout that stays wrong fails once the retries run out.
      await expect(async () => {
        const rows = await rowLayouts(page);
        expect(rows.length, where).toBeGreaterThan(3);
        for (const row of rows) {
          expect(row.clamped, `${where}: "${row.name}" cut`).toBe(false);
          expect(row.overlapsSide, `${where}: "${row.name}" under the price`).toBe(false);
          expect(row.overflowsRow, `${where}: "${row.name}": part of the row out of it`).toBe(
            false,
          );
          expect(row.nameWidth, `${where}: "${row.name}" squeezed`).toBeGreaterThan(200);
        }
      }).toPass({ timeout: 10_000 });
      const detail = await page.locator('.detail-pane').evaluate((pane) => ({
        scroll: pane.scrollWidth,
        client: pane.clientWidth,
      }));
      expect(detail.scroll, `${where}: the detail pane scrolls sideways`).toBeLessThanOrEqual(
        detail.client,
      );
      // One vertical scrollbar for the list: nothing around it scrolls too.
      const scrolling = await page.locator('main').evaluate((main) => {
        const view = main.ownerDocument.defaultView!;
        return [main, ...main.querySelectorAll('*')]
          .filter((element) => {
            const overflow = view.getComputedStyle(element).overflowY;
            return (
              (overflow === 'auto' || overflow === 'scroll') &&
              element.scrollHeight > element.clientHeight + 1 &&
              !element.closest('.detail-pane')
            );
          })
          .map((element) => element.className || element.tagName);
      });
      expect(scrolling, where).toEqual(['virtual-list']);
    }
  }
  await resizeTo(page, sizes[0]);
  await saveScreen(page, testInfo, 'availability-1366x768');
});
