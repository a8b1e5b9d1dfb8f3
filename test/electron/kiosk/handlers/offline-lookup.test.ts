import { afterAll, beforeAll, expect, it } from 'vitest';
import type { IpcResult, ReplyOf, RequestOf } from '../../../../shared/ipc/index.ts';
import {
  demoCustomers,
  demoGiftCardBalances,
  demoGiftCards,
} from '../../../../sandbox/data/demo.ts';
import { KIOSK_PAGE, type KioskFixture, startKioskFixture } from '../support.ts';

/**
 * A look-up through the router to the real sandbox, then with every request of the sandbox reset
 * (the service unreachable): the kiosk's last read of the card, never the customer.
 */

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture();
}, 60_000);
afterAll(() => fixture?.close());

const lookup = async (request: RequestOf<'getGiftCard'>) =>
  (await fixture.router.handle('kiosk:getGiftCard', request, KIOSK_PAGE)) as IpcResult<
    ReplyOf<'getGiftCard'>
  >;

it('unreachable, a card read earlier comes back as of its read; one never read, as unknown', async () => {
  const online = await lookup({ giftCardId: demoGiftCards.active, include: ['customer'] });
  if (!online.ok) throw new Error(JSON.stringify(online));
  expect(online.value.source).toBe('service');

  fixture.sandbox.control!.addFault({ kind: 'reset' });
  const offline = await lookup({ giftCardId: demoGiftCards.active });
  if (!offline.ok) throw new Error(JSON.stringify(offline));
  expect(offline.value).toEqual({
    source: 'cache',
    id: demoGiftCards.active,
    maskedNumber: online.value.maskedNumber,
    status: online.value.status,
    balance: online.value.balance,
    expiresOn: online.value.expiresOn,
    asOf: expect.any(String),
    debitable: true,
  });
  expect(await lookup({ giftCardId: demoGiftCards.inactive })).toEqual({
    ok: true,
    value: {
      source: 'cache',
      id: demoGiftCards.inactive,
      maskedNumber: null,
      status: null,
      balance: null,
      expiresOn: null,
      asOf: null,
      debitable: null,
    },
  });
  // Nothing of the customer was kept.
  const rows = fixture.services.parts.outbox.db.connection
    .prepare('SELECT * FROM outbox_card_cache')
    .all();
  expect(rows).toHaveLength(1);
  expect(Object.keys(rows[0]!).sort()).toEqual([
    'balance_cents',
    'expires_on',
    'gift_card_id',
    'masked_number',
    'read_at',
    'status',
  ]);
});

it('the gift cards of a customer credits list are cached too, without the customer', async () => {
  fixture.sandbox.control!.clearFaults();
  const credits = await fixture.router.handle(
    'kiosk:listCustomerCredits',
    { customerId: demoCustomers.main },
    KIOSK_PAGE,
  );
  expect(credits).toMatchObject({ ok: true });
  expect(fixture.services.parts.outbox.knownCard(demoGiftCards.active)).toMatchObject({
    balance: demoGiftCardBalances.active,
    status: 'active',
  });
});

it('known offline, a card answers from the cache without waiting on the service; not known, after the counter’s wait', async () => {
  fixture.sandbox.control!.clearFaults();
  const { client, outbox } = fixture.services.parts;
  const before = outbox.knownCard(demoGiftCards.active);
  if (!before) throw new Error('the card was not read earlier');
  // The service hangs on the card for a minute: a look-up that waited for it would time the test out.
  fixture.sandbox.control!.addFault({
    kind: 'latency',
    route: 'getGiftCard',
    latencyMs: 60_000,
    count: 1,
  });
  client.connectivity.record('unreachable', 'test', 'NETWORK_ERROR');
  client.connectivity.record('unreachable', 'test', 'NETWORK_ERROR');
  expect(client.connectivity.state).toBe('offline');
  const offline = await lookup({ giftCardId: demoGiftCards.active });
  expect(offline).toMatchObject({ ok: true, value: { source: 'cache', balance: before.balance } });
  fixture.sandbox.control!.clearFaults();

  // Not known offline, the counter still waits no longer than COUNTER_WAIT_MS: the same read
  // held for a minute answers from the cache.
  client.connectivity.record('answered', 'test');
  fixture.sandbox.control!.addFault({
    kind: 'latency',
    route: 'getGiftCard',
    latencyMs: 60_000,
  });
  const slow = await lookup({ giftCardId: demoGiftCards.active });
  expect(slow).toMatchObject({ ok: true, value: { source: 'cache', balance: before.balance } });
  fixture.sandbox.control!.clearFaults();
}, 30_000);
