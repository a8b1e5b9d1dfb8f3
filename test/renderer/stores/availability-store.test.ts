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
