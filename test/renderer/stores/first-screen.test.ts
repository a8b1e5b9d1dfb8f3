import { afterEach, expect, test, vi } from 'vitest';
import type { ReplyOf } from '../../../shared/ipc/contract.ts';
import type { IpcResult } from '../../../shared/ipc/errors.ts';
import { firstScreenReady } from '../../../renderer/stores/first-screen.ts';
import { createKioskStores, startKioskStores } from '../../../renderer/stores/kiosk-stores.ts';
import { NOW, hit, settingsReply } from '../support/fixtures.ts';
import { fail, fakeKiosk, ok } from '../support/fake-kiosk.ts';

/** A reply the test gives when it chooses. */
function later<T>() {
  let answer!: (result: IpcResult<T>) => void;
  const reply = new Promise<IpcResult<T>>((resolve) => (answer = resolve));
  return { reply, answer };
}

/** Lets every reply already given reach the stores. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

function startedKiosk() {
  const settings = later<ReplyOf<'getSettings'>>();
  const search = later<ReplyOf<'searchProducts'>>();
  const kiosk = fakeKiosk({
    getSettings: () => settings.reply,
    searchProducts: () => search.reply,
  });
  const stores = createKioskStores(kiosk.api, 'en');
  stops.push(startKioskStores(kiosk.api, stores));
  return { settings, search, stores };
}

test('ready once the settings and the first search are in, not before', async () => {
  const { settings, search, stores } = startedKiosk();
  let ready = false;
  void firstScreenReady(stores, 60_000).then(() => (ready = true));

  settings.answer(ok(settingsReply()));
  await settle();
  expect(stores.setup.getState().settings).not.toBeNull();
  expect(stores.availability.getState().searching).toBe(true);
  expect(ready).toBe(false);

  search.answer(ok({ source: 'mirror', asOf: NOW, hits: [hit(1)] }));
  await settle();
  expect(ready).toBe(true);
  expect(stores.availability.getState().hits).toHaveLength(1);
});

test('a refused search makes the screen ready too: it shows the error', async () => {
  const { settings, search, stores } = startedKiosk();
  let ready = false;
  void firstScreenReady(stores, 60_000).then(() => (ready = true));
  settings.answer(ok(settingsReply()));
  search.answer(fail({ code: 'CATALOG_NOT_READY', message: 'no mirror yet' }));
  await settle();
  expect(ready).toBe(true);
  expect(stores.availability.getState().error?.code).toBe('CATALOG_NOT_READY');
});

test('without answers, the screen is drawn anyway once the wait is over', async () => {
  vi.useFakeTimers();
  const { stores } = startedKiosk();
  let ready = false;
  void firstScreenReady(stores, 300).then(() => (ready = true));
  await vi.advanceTimersByTimeAsync(299);
  expect(ready).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(ready).toBe(true);
  expect(stores.setup.getState().settings).toBeNull();
});
