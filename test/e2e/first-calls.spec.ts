import { shopIds } from '../../sandbox/data/referentials.ts';
import { expect, openKiosk, test } from './support/kiosk-test.ts';

/**
 * The page's entry sends the first screen's requests before the app is loaded, and the app takes
 * their replies instead of asking again: each is sent once, and the first search already carries
 * the kiosk's shop (read from the settings' reply).
 */
for (const shopId of [shopIds.bordeaux, null]) {
  test.describe(shopId === null ? 'a kiosk without a shop' : 'a kiosk in Bordeaux', () => {
    test.use({ kioskOptions: shopId === null ? {} : { shopId } });

    test('the first screen asks for its settings, shops and products once each', async ({
      page,
      kiosk,
    }) => {
      const sent: { name: string; body: unknown }[] = [];
      page.on('request', (request) => {
        const name = /\/ipc\/(\w+)$/.exec(request.url())?.[1];
        if (name !== undefined && name !== 'events') {
          sent.push({ name, body: request.postDataJSON() as unknown });
        }
      });
      await openKiosk(page, kiosk);
      await expect(page.locator('.product-row').first()).toBeVisible();
      const named = (name: string) => sent.filter((request) => request.name === name);
      expect(named('getSettings')).toHaveLength(1);
      expect(named('listShops')).toHaveLength(1);
      expect(named('searchProducts')).toHaveLength(1);
      const search = named('searchProducts')[0]!.body as Record<string, unknown>;
      expect(search['text']).toBe('');
      expect(search['offset']).toBe(0);
      expect(search['nearShopId']).toBe(shopId ?? undefined);
      if (shopId !== null) {
        await expect(page.getByRole('combobox', { name: 'Shop' })).toHaveValue(shopId);
      }
    });

    test('loaded again, the first search leaves with the settings, around the shop they named last time', async ({
      page,
      kiosk,
    }) => {
      await openKiosk(page, kiosk);
      await expect(page.locator('.product-row').first()).toBeVisible();
      const events: string[] = [];
      const searches: unknown[] = [];
      page.on('request', (request) => {
        const name = /\/ipc\/(\w+)$/.exec(request.url())?.[1];
        if (name === 'getSettings' || name === 'searchProducts') events.push(`sent ${name}`);
        if (name === 'searchProducts') searches.push(request.postDataJSON());
      });
      page.on('response', (response) => {
        if (response.url().endsWith('/ipc/getSettings')) events.push('answered getSettings');
      });
      await page.reload();
      await expect(page.locator('.product-row').first()).toBeVisible();
      // Sent in the same turn as the settings, before their answer came back.
      expect(events.slice(0, 2)).toEqual(['sent getSettings', 'sent searchProducts']);
      // The guess was right: one search, the store took its reply.
      expect(searches).toHaveLength(1);
      expect((searches[0] as Record<string, unknown>)['nearShopId']).toBe(shopId ?? undefined);
    });
  });
}

test('the shop is written down for the next load only when it changed', async ({ page, kiosk }) => {
  const KEY = 'kiosk.firstScreenShop';
  // Counted in every document of this page, before any of its scripts runs.
  await page.addInitScript(`(() => {
    window.shopWrites = [];
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      if (key === ${JSON.stringify(KEY)}) window.shopWrites.push(value);
      return setItem.call(this, key, value);
    };
  })();`);
  const loaded = async () => {
    await expect(page.locator('.product-row').first()).toBeVisible();
    // The settings' reply is read after the products may already show: wait for it to be used.
    await expect.poll(() => page.evaluate((key) => localStorage.getItem(key), KEY)).not.toBeNull();
    return page.evaluate(() => (globalThis as unknown as { shopWrites: string[] }).shopWrites);
  };
  await openKiosk(page, kiosk);
  const first = await loaded();
  expect(first).toHaveLength(1);
  const shop = first[0]!;

  await page.reload();
  expect(await loaded()).toEqual([]);

  // Another shop than the settings name (they changed since): written again, with theirs.
  await page.evaluate((key) => localStorage.setItem(key, JSON.stringify('shop_elsewhere')), KEY);
  await page.reload();
  await expect.poll(async () => (await loaded()).length).toBe(1);
  expect(await loaded()).toEqual([shop]);
});

/** What the page sent, in its own clock, and when the app's first frame was on screen. */
interface FirstFrame {
  readonly painted?: number;
  readonly sent: readonly { readonly name: string; readonly at: number }[];
}

test('the status bar asks for its state once the first screen is painted, not before', async ({
  page,
  kiosk,
}) => {
  // Painted: the frame after the app's first render is in the page (with the products when they
  // came within the first render's wait, as here; without them, when they did not).
  await page.addInitScript(`(() => {
    const frame = { sent: [] };
    window.firstFrame = frame;
    const send = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      frame.sent.push({ name: url.slice(url.lastIndexOf('/') + 1), at: performance.now() });
      return send(input, init);
    };
    const observer = new MutationObserver(() => {
      if (document.querySelector('.kiosk') === null) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => { frame.painted = performance.now(); }, 0));
    });
    observer.observe(document, { subtree: true, childList: true });
  })();`);
  await openKiosk(page, kiosk);
  await expect(page.getByTestId('outbox-indicator')).toBeVisible();
  const statusReads = ['getStatus', 'getSyncStatus', 'getOutboxSummary', 'listPrinters'];
  const frame = () =>
    page.evaluate(() => (globalThis as unknown as { firstFrame: FirstFrame }).firstFrame);
  await expect
    .poll(async () => (await frame()).sent.map((request) => request.name))
    .toEqual(expect.arrayContaining(statusReads));
  const { painted, sent } = await frame();
  expect(painted).toBeDefined();
  // Before it: only what the first screen shows, and the event stream.
  const before = sent.filter((request) => request.at < painted!).map((request) => request.name);
  expect(
    before.filter(
      (name) => !['getSettings', 'listShops', 'searchProducts', 'events'].includes(name),
    ),
  ).toEqual([]);
  // The settings leave with the page's first script; the search follows their answer on a first
  // load, and a page slower than the first render's wait draws before it leaves.
  expect(before).toContain('getSettings');
});
