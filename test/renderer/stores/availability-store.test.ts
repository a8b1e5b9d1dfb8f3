import { expect, test } from 'vitest';
import { createAvailabilityStore } from '../../../renderer/stores/availability-store.ts';
import { FIRST_PAGE_SIZE, SEARCH_PAGE_SIZE } from '../../../renderer/stores/search-request.ts';
import { NOW, hit } from '../support/fixtures.ts';
import { fakeKiosk, ok } from '../support/fake-kiosk.ts';

/** A catalogue of `total` products, answered page by page as main would. */
function catalogueOf(total: number) {
  return fakeKiosk({
    searchProducts: ({ offset = 0, limit = 20 }) =>
      ok({
        source: 'mirror',
        asOf: NOW,
        hits: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) =>
          hit(offset + i + 1),
        ),
      }),
  });
}

test('a keystroke asks for a short first page; scrolling on asks for full pages after it', async () => {
  const kiosk = catalogueOf(FIRST_PAGE_SIZE + SEARCH_PAGE_SIZE + 5);
  const store = createAvailabilityStore(kiosk.api);
  await store.getState().search();
  expect(store.getState().hits).toHaveLength(FIRST_PAGE_SIZE);
  expect(store.getState().complete).toBe(false);

  await store.getState().loadMore();
  await store.getState().loadMore();
  expect(kiosk.callsOf('searchProducts').map(({ limit, offset }) => [limit, offset])).toEqual([
    [FIRST_PAGE_SIZE, 0],
    [SEARCH_PAGE_SIZE, FIRST_PAGE_SIZE],
    [SEARCH_PAGE_SIZE, FIRST_PAGE_SIZE + SEARCH_PAGE_SIZE],
  ]);
  expect(store.getState().hits).toHaveLength(FIRST_PAGE_SIZE + SEARCH_PAGE_SIZE + 5);
  // The last page came back short: nothing more is asked.
  expect(store.getState().complete).toBe(true);
  await store.getState().loadMore();
  expect(kiosk.callsOf('searchProducts')).toHaveLength(3);
});

test('a first page shorter than asked is the whole answer', async () => {
  const store = createAvailabilityStore(catalogueOf(FIRST_PAGE_SIZE - 1).api);
  await store.getState().search();
  expect(store.getState().complete).toBe(true);
});

test('the next answer keeps the objects of the hits that did not change, so their rows are not redrawn', async () => {
  const kiosk = catalogueOf(3);
  const store = createAvailabilityStore(kiosk.api);
  await store.getState().search();
  const [first, second] = store.getState().hits;

  kiosk.on('searchProducts', () =>
    ok({ source: 'mirror', asOf: NOW, hits: [hit(2), hit(1, { availableItemsCount: 0 })] }),
  );
  await store.getState().search();
  const [nowSecond, nowFirst] = store.getState().hits;
  // Equal hits (a new object from the reply) are the ones already shown...
  expect(nowSecond).toBe(second);
  // ...a hit that changed is the new one.
  expect(nowFirst).not.toBe(first);
  expect(nowFirst?.availableItemsCount).toBe(0);
});

test('every keystroke searches at once, and an answer overtaken by a newer one is dropped', async () => {
  // Main answers out of order: the first letter's reply is held until the second's is shown.
  const held = Promise.withResolvers<void>();
  const kiosk = fakeKiosk({
    searchProducts: async ({ text }) => {
      if (text === 'l') await held.promise;
      return ok({ source: 'mirror', asOf: NOW, hits: text === 'l' ? [hit(1)] : [hit(2)] });
    },
  });
  const store = createAvailabilityStore(kiosk.api);
  store.getState().typeText('l');
  store.getState().typeText('la');
  expect(kiosk.callsOf('searchProducts').map((request) => request.text)).toEqual(['l', 'la']);

  await expect.poll(() => store.getState().searching).toBe(false);
  expect(store.getState().hits.map((shown) => shown.uuid)).toEqual([hit(2).uuid]);
  held.resolve();
  // A macrotask: every microtask of the late reply's path through the store has run before it.
  await new Promise((resolve) => setTimeout(resolve, 0));
  // The late answer to 'l' changed nothing: the screen still shows what 'la' found.
  expect(store.getState().hits.map((shown) => shown.uuid)).toEqual([hit(2).uuid]);
  expect(store.getState().text).toBe('la');
});
