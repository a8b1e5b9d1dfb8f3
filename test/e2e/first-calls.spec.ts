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
  });
}
