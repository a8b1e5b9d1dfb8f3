import { afterEach, beforeEach, expect, it } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { tempDataDir } from './support.ts';

/**
 * The store keeps facts (no open row lacks its service date...) until another process commits,
 * which it reads from `PRAGMA data_version` once per turn of the event loop: another process's
 * row is seen at the next turn, never missed.
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => {
  data.cleanup();
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

it("another process's undated row is seen at the next turn after the store found none", async () => {
  const kiosk = new Outbox({ db: data.open() });
  const kioskctl = new Outbox({ db: data.open() });
  expect(kiosk.store.hasUndatedOpen()).toBe(false);
  await nextTurn();
  // No service reading in that process: the row is accepted without a service date.
  kioskctl.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
  await nextTurn();
  expect(kiosk.store.hasUndatedOpen()).toBe(true);
  kiosk.db.transaction(() => kiosk.store.dateOpenRows(Date.now()));
  expect(kiosk.store.hasUndatedOpen()).toBe(false);
});
