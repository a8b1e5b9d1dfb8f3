import { expect, test } from 'vitest';
import type { ListDebitsReply } from '../../../shared/ipc/gift-cards.ts';
import type { IpcResult } from '../../../shared/ipc/errors.ts';
import { createOutboxStore } from '../../../renderer/stores/outbox-store.ts';
import { fakeKiosk, ok } from '../support/fake-kiosk.ts';
import { debit } from '../support/fixtures.ts';

test('an event moves its row between the lists and reads the summary alone', async () => {
  const kiosk = fakeKiosk();
  const store = createOutboxStore(kiosk.api);
  await store.getState().refresh();
  expect(kiosk.callsOf('listDebits')).toHaveLength(2);

  store.getState().applyEvent({
    type: 'state-changed',
    debit: debit({ id: 4, state: 'refused' }),
    from: 'sending',
    to: 'refused',
    reason: 'INSUFFICIENT_BALANCE',
  });
  await Promise.resolve();
  expect(store.getState()).toMatchObject({ open: [], attention: [{ id: 4 }] });
  expect(kiosk.callsOf('listDebits')).toHaveLength(2);
  expect(kiosk.callsOf('getOutboxSummary')).toHaveLength(2);
});

test('an event during a full read: the read, maybe older than the event, is made again', async () => {
  const kiosk = fakeKiosk();
  const store = createOutboxStore(kiosk.api);
  // Main's lists as read before the event, then after it.
  let stored = [debit({ id: 4, state: 'sending' })];
  const answers: (() => void)[] = [];
  kiosk.on(
    'listDebits',
    (request) =>
      new Promise<IpcResult<ListDebitsReply>>((resolve) => {
        const seen = stored;
        answers.push(() =>
          resolve(
            ok({
              debits: seen.filter((row) =>
                request.view === 'open' ? row.state === 'sending' : row.state === 'refused',
              ),
            }),
          ),
        );
      }),
  );
  const first = store.getState().refresh();
  await Promise.resolve();
  const refused = debit({ id: 4, state: 'refused' });
  stored = [refused];
  store.getState().applyEvent({
    type: 'state-changed',
    debit: refused,
    from: 'sending',
    to: 'refused',
    reason: 'X',
  });
  expect(store.getState().attention).toEqual([refused]);

  // The older read lands after the event, then the one made again after it.
  for (const answer of answers.splice(0)) answer();
  await new Promise((resolve) => setTimeout(resolve, 0));
  for (const answer of answers.splice(0)) answer();
  await first;
  expect(kiosk.callsOf('listDebits')).toHaveLength(4);
  expect(store.getState()).toMatchObject({ open: [], attention: [refused] });
});
