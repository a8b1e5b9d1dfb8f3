import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import {
  AvailabilityScreen,
  PRODUCT_ROW_HEIGHT,
} from '../../../renderer/screens/AvailabilityScreen.tsx';
import { createFormatters } from '../../../renderer/i18n/formatters.ts';
import { FIRST_PAGE_SIZE } from '../../../renderer/stores/search-request.ts';
import { NOW, hit, productDetail, settingsReply } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
  vi.useRealTimers();
});

test('the shop picker starts on the kiosk’s shop, and searching follows the typing', async () => {
  rendered = await renderKiosk(<AvailabilityScreen />, {
    handlers: {
      getSettings: () => ok(settingsReply({ shopId: 'shop_paris' })),
    },
  });
  const picker = await screen.findByRole('combobox', { name: 'Shop' });
  expect((picker as HTMLSelectElement).value).toBe('shop_paris');
  expect(rendered.kiosk.callsOf('searchProducts')[0]).toEqual({
    text: '',
    nearShopId: 'shop_paris',
    limit: FIRST_PAGE_SIZE,
    offset: 0,
  });

  const user = userEvent.setup();
  await user.type(screen.getByRole('searchbox', { name: 'Search products' }), 'lave');
  // One search per key, without waiting for a pause in the typing.
  expect(rendered.kiosk.callsOf('searchProducts').map((r) => r.text)).toEqual([
    '',
    'l',
    'la',
    'lav',
    'lave',
  ]);

  await user.selectOptions(picker, 'shop_lyon');
  expect(rendered.kiosk.callsOf('searchProducts').at(-1)).toEqual({
    text: 'lave',
    nearShopId: 'shop_lyon',
    limit: FIRST_PAGE_SIZE,
    offset: 0,
  });
});

test('results say where the answer comes from; the detail shows every status badge by shop', async () => {
  // The kiosk stands in Paris; staff look at Lyon for a customer.
  rendered = await renderKiosk(<AvailabilityScreen />, {
    handlers: { getSettings: () => ok(settingsReply({ shopId: 'shop_paris' })) },
  });
  expect((await screen.findByTestId('results-status')).textContent).toBe('Products found: 2');
  expect(screen.getAllByTestId('answer-source')[0]?.textContent).toBe(
    `From the local catalogue, as of ${createFormatters('en').dateTime(NOW)}`,
  );

  const user = userEvent.setup();
  await user.selectOptions(screen.getByRole('combobox', { name: 'Shop' }), 'shop_lyon');
  await user.click(await screen.findByRole('button', { name: /Lave-linge 1/ }));

  const detail = await screen.findByRole('article');
  expect(within(detail).getByRole('heading', { level: 2 }).textContent).toBe('Lave-linge 1');
  // The chosen shop comes first; "This shop" is the kiosk's own, wherever staff look.
  const groups = within(detail).getAllByTestId('shop-group');
  expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual([
    'Lyon Part-Dieu',
    'Paris Rivoli',
  ]);
  expect(groups[0]?.textContent).not.toContain('This shop');
  expect(groups[1]?.textContent).toContain('This shop');
  // The price quoted is the chosen shop's own, not the range across shops.
  expect(within(detail).getByText('Price in Lyon Part-Dieu')).toBeTruthy();
  expect(within(detail).getByTestId('product-price').textContent).toBe('€199.99');
  const badges = [...detail.querySelectorAll('[data-status]')].map((b) => b.textContent?.trim());
  expect(badges.sort()).toEqual(
    ['Available', 'Out of stock', 'Sold', 'Reserved', 'Withdrawn', 'Not for sale'].sort(),
  );
  // Prices as the service gave them: the base price and the promotion price.
  expect(detail.textContent).toContain('Promotion €149.99');
  expect(detail.textContent).toContain('€199.99');
  expect(detail.textContent).toContain('Reason: recall');
  expect(within(detail).getByTestId('answer-source').dataset['source']).toBe('mirror');
});

test('with no shop chosen, the shops with items available come first, whatever the service’s order', async () => {
  rendered = await renderKiosk(<AvailabilityScreen />);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /Lave-linge 1/ }));
  const detail = await screen.findByRole('article');
  // The service lists Paris (nothing available) before Lyon (one available).
  expect(
    within(detail)
      .getAllByTestId('shop-group')
      .map((group) => group.getAttribute('aria-label')),
  ).toEqual(['Lyon Part-Dieu', 'Paris Rivoli']);
  expect(within(detail).getAllByTestId('shop-group')[0]?.textContent).toContain('available: 1');
  // No shop chosen: the range across shops, under the plain label.
  expect(within(detail).getByText('Price')).toBeTruthy();
  expect(within(detail).queryByText('This shop')).toBeNull();
});

test('with a shop chosen, a product it does not carry is still listed, saying where it is available', async () => {
  rendered = await renderKiosk(<AvailabilityScreen />, {
    handlers: {
      getSettings: () => ok(settingsReply({ shopId: 'shop_lyon' })),
      searchProducts: () =>
        ok({
          source: 'mirror',
          asOf: NOW,
          hits: [
            hit(1, { shopItems: [], availableShops: 3 }),
            hit(2, { shopItems: [], availableShops: 0 }),
          ],
        }),
    },
  });
  const list = await screen.findByRole('region', { name: 'Products found' });
  expect((await within(list).findByRole('button', { name: /Lave-linge 1/ })).textContent).toContain(
    'Not in this shop · available in other shops: 3',
  );
  expect(within(list).getByRole('button', { name: /Lave-linge 2/ }).textContent).toContain(
    'Not in this shop, and available in no other',
  );
});

test('nothing found is said where the list would be, with what to try next', async () => {
  rendered = await renderKiosk(<AvailabilityScreen />, {
    handlers: { searchProducts: () => ok({ source: 'mirror', asOf: NOW, hits: [] }) },
  });
  const empty = await screen.findByTestId('results-empty');
  expect(empty.textContent).toBe(
    'Check the spelling, or try the EAN or the reference on the label.',
  );
  expect(screen.queryByRole('region', { name: 'Products found' })).toBeNull();
});

test('a product being read shows a turning wheel in place', async () => {
  rendered = await renderKiosk(<AvailabilityScreen />, {
    // The product's answer never comes: what stays on screen is the wait.
    handlers: { getProduct: () => new Promise(() => {}) },
  });
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /Lave-linge 1/ }));
  const wait = (await screen.findByText('Loading the product…')).closest('.busy');
  expect(wait?.getAttribute('role')).toBe('status');
  expect(wait?.querySelector('svg.busy-wheel')).not.toBeNull();
});

test('a long result list loads its next page when scrolled to the end', async () => {
  const page = (offset: number) => Array.from({ length: 100 }, (_, i) => hit(offset + i));
  rendered = await renderKiosk(<AvailabilityScreen />, {
    handlers: {
      searchProducts: (r) =>
        ok({ source: 'live', asOf: NOW, hits: (r.offset ?? 0) < 300 ? page(r.offset ?? 0) : [] }),
    },
  });
  await screen.findByText('Products shown: 100 (more below)');
  const list = screen.getByRole('region', { name: 'Products found' });
  // Only a window of the rows is in the DOM.
  expect(within(list).getAllByRole('listitem').length).toBeLessThan(30);
  await act(async () => {
    list.scrollTop = 99 * PRODUCT_ROW_HEIGHT;
    list.dispatchEvent(new Event('scroll'));
  });
  await screen.findByText('Products shown: 200 (more below)');
  expect(rendered.kiosk.callsOf('searchProducts').map((r) => r.offset)).toEqual([0, 100]);
});

test('a product the service sent no name for goes by its category and reference, and no empty photo box', async () => {
  const unnamed = hit(7, {
    name: null,
    reference: 'MIC-WHI-000008',
    category: { id: 'cat_mw', code: 'MW', label: 'Cuisson' },
    mainImage: null,
  });
  rendered = await renderKiosk(<AvailabilityScreen />, {
    locale: 'fr',
    handlers: {
      searchProducts: () =>
        ok({
          source: 'mirror' as const,
          asOf: NOW,
          hits: [unnamed, hit(8, { name: null, reference: null, ean: null })],
          complete: true,
        }),
      getProduct: () =>
        ok({
          ...productDetail,
          product: {
            ...productDetail.product,
            name: null,
            reference: 'MIC-WHI-000008',
            category: { id: 'cat_mw', code: 'MW', label: 'Cuisson' },
          },
        }),
    },
  });
  const row = await screen.findByRole('button', {
    name: /Cuisson MIC-WHI-000008 \(sans nom fourni\)/,
  });
  // Nothing at all to go by: said so, as before.
  expect(screen.getByText('(produit sans nom)')).toBeTruthy();
  await userEvent.setup().click(row);
  const detail = await screen.findByRole('article');
  expect(within(detail).getByRole('heading', { level: 2 }).textContent).toBe(
    'Cuisson MIC-WHI-000008 (sans nom fourni)',
  );
  // No image from the service: no placeholder box taking the place of prices and stock.
  expect(within(detail).queryByRole('img')).toBeNull();
});
