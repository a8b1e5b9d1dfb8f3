import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cachedGiftCardLookupOf,
  createApiGateway,
  giftCardLookupOf,
  Outbox,
  OutboxSender,
} from '../../../electron/outbox/index.ts';
import { openDatabase } from '../../../electron/storage/index.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { DebitReply, GiftCardLookup } from '../../../shared/ipc/gift-cards.ts';
import { defaultProfile, IntegrationProfile } from '../../../shared/profile/index.ts';
import { startTestSandbox } from './sandbox-support.ts';
import { tempDataDir } from './support.ts';

/**
 * The outbox reads and writes through the integration profile: the debit body, the receipt, the
 * card's usages, the cached card values and which statuses allow a debit.
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => {
  data.cleanup();
});

const otherWords = IntegrationProfile.parse({
  ...defaultProfile,
  records: {
    ...defaultProfile.records,
    giftCard: { ...defaultProfile.records.giftCard, balance: 'remaining', status: 'state' },
  },
  statuses: { ...defaultProfile.statuses, giftCardDebitable: ['ACTIVE'] },
  giftCardDebit: {
    body: { amount: 'debit.value', currency: null, reference: 'memo', shopId: 'storeId' },
  },
});

describe('the debit body', () => {
  it('is written by the profile in force, and stays the exact bytes stored', () => {
    const outbox = new Outbox({ db: data.open(), shopId: 'shop_paris-rivoli' });
    const before = outbox.enqueue({ giftCardId: 'gift_card_1', amount: 0.1 + 0.2 }).debit;
    expect(before.requestBody).toBe(
      JSON.stringify({
        amount: 0.3,
        currency: 'EUR',
        reference: before.reference,
        shopId: 'shop_paris-rivoli',
      }),
    );
    outbox.useProfile(otherWords);
    const after = outbox.enqueue({ giftCardId: 'gift_card_1', amount: 4 }).debit;
    expect(after.requestBody).toBe(
      JSON.stringify({
        debit: { value: 4 },
        memo: after.reference,
        storeId: 'shop_paris-rivoli',
      }),
    );
    expect(after.shopId).toBe('shop_paris-rivoli');
  });

  it('a rebuild with the same profile changes nothing; another one rebuilds a never-sent body under its key', () => {
    const outbox = new Outbox({ db: data.open() });
    const { debit } = outbox.enqueue({ giftCardId: 'gift_card_1', amount: 4, reference: 'r1' });
    expect(outbox.rebuildBodies()).toEqual({ rebuilt: 0, newKeys: 0, debits: [], withheld: [] });
    outbox.useProfile(otherWords);
    expect(outbox.rebuildBodies()).toEqual({
      rebuilt: 1,
      newKeys: 0,
      debits: [
        {
          id: debit.id,
          reason: 'NEVER_SENT',
          previousKey: debit.idempotencyKey,
          idempotencyKey: debit.idempotencyKey,
        },
      ],
      withheld: [],
    });
    const rebuilt = outbox.get(debit.id);
    expect(rebuilt).toMatchObject({
      idempotencyKey: debit.idempotencyKey,
      reference: debit.reference,
    });
    expect(JSON.parse(rebuilt.requestBody)).toEqual({ debit: { value: 4 }, memo: debit.reference });
    expect(outbox.keyHistory(debit.id)).toHaveLength(1);
  });

  it('a request id retried after a rebuild is still the same debit', () => {
    const outbox = new Outbox({ db: data.open() });
    const input = { requestId: randomUUID(), giftCardId: 'gift_card_1', amount: 4, reference: 'r' };
    const first = outbox.enqueue(input).debit;
    outbox.useProfile(otherWords);
    outbox.rebuildBodies();
    expect(outbox.enqueue(input)).toMatchObject({ replayed: true, debit: { id: first.id } });
  });
});

describe('a row rebuilt meanwhile', () => {
  it('is not marked sending under the key the decision to send was taken on', () => {
    const outbox = new Outbox({ db: data.open() });
    const { debit } = outbox.enqueue({ giftCardId: 'gift_card_1', amount: 4 });
    const stale = outbox.store.markSending(debit.id, 0, Date.now(), undefined, randomUUID());
    expect(stale).toBeUndefined();
    expect(outbox.get(debit.id).state).toBe('pending');
    const marked = outbox.store.markSending(
      debit.id,
      0,
      Date.now(),
      undefined,
      debit.idempotencyKey,
    );
    expect(marked?.debit.state).toBe('sending');
  });
});

describe('migration 008', () => {
  it('keeps the shop of the debits accepted before it, so a rebuilt body carries it', () => {
    const before = openDatabase({
      dataDir: data.dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 7) },
    });
    before.connection
      .prepare(
        `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
           reference, policy, accepted_offline, state, created_at, updated_at, next_attempt_at)
         VALUES (?, 'gift_card_1',
           '{"amount":2,"currency":"EUR","reference":"kiosk/1","shopId":"shop_lyon-part-dieu"}',
           200, 'kiosk/1', 'prefer_online', 1, 'pending', 1, 1, 1)`,
      )
      .run(randomUUID());
    before.close();

    const outbox = new Outbox({ db: data.open() });
    const [old] = outbox.list();
    expect(old).toMatchObject({ shopId: 'shop_lyon-part-dieu', olderKeyMayHaveReached: false });
    // The default profile writes the very same bytes: nothing to rebuild.
    expect(outbox.rebuildBodies()).toMatchObject({ rebuilt: 0, newKeys: 0, withheld: [] });
    outbox.useProfile(otherWords);
    outbox.rebuildBodies();
    expect(JSON.parse(outbox.get(old!.id).requestBody)).toMatchObject({
      storeId: 'shop_lyon-part-dieu',
    });
  });

  it('reads a receipt stored before the profile in the default shapes', () => {
    const db = data.open();
    const outbox = new Outbox({ db });
    const { debit } = outbox.enqueue({ giftCardId: 'gift_card_1', amount: 2 });
    db.connection
      .prepare(`UPDATE outbox_debits SET state = 'applied', reply = ? WHERE id = ?`)
      .run(
        JSON.stringify({ kind: 'receipt', receipt: { id: 'r1', balance: 48, amount: 2 } }),
        debit.id,
      );
    const reply = outbox.get(debit.id).reply;
    expect(DebitReply.parse(reply)).toMatchObject({ kind: 'receipt', receipt: { balance: 48 } });
  });
});

describe('the gift card as the screens see it', () => {
  const raw = {
    id: 'gift_card_1',
    maskedNumber: '**** 1234',
    state: 'ACTIVE',
    remaining: 25.5,
    currency: 'EUR',
    brand: 'Noël',
  };

  it('is read through the profile, with debitable from its statuses', () => {
    const lookup = giftCardLookupOf(otherWords, raw);
    expect(GiftCardLookup.parse(lookup)).toEqual(lookup);
    expect(lookup).toMatchObject({
      source: 'service',
      id: 'gift_card_1',
      status: 'ACTIVE',
      balance: 25.5,
      debitable: true,
    });
    expect(lookup.otherFields).toContainEqual({ name: 'brand', value: 'Noël' });
    // The default profile finds neither: not provided, and nothing decides against a debit.
    expect(giftCardLookupOf(defaultProfile, raw)).toMatchObject({
      status: null,
      balance: null,
      debitable: null,
    });
    expect(giftCardLookupOf(otherWords, { ...raw, state: 'BLOCKED' }).debitable).toBe(false);
  });

  it('offline, the cached values go through the same statuses', () => {
    const outbox = new Outbox({ db: data.open(), profile: otherWords });
    expect(outbox.recordCard(raw)).toBe(true);
    const cached = cachedGiftCardLookupOf(
      otherWords,
      'gift_card_1',
      outbox.knownCard('gift_card_1'),
    );
    expect(GiftCardLookup.parse(cached)).toMatchObject({
      source: 'cache',
      balance: 25.5,
      status: 'ACTIVE',
      debitable: true,
    });
    expect(cachedGiftCardLookupOf(otherWords, 'gift_card_2', undefined)).toMatchObject({
      asOf: null,
      debitable: null,
    });
  });

  it('a status the profile does not allow refuses an offline debit', () => {
    const outbox = new Outbox({
      db: data.open(),
      profile: otherWords,
      connectivity: () => 'offline',
    });
    outbox.recordCard({ ...raw, state: 'BLOCKED' });
    expect(() => outbox.enqueue({ giftCardId: 'gift_card_1', amount: 1 })).toThrow(
      expect.objectContaining({ code: 'OUTBOX_CARD_NOT_DEBITABLE' }),
    );
    outbox.recordCard(raw);
    expect(outbox.enqueue({ giftCardId: 'gift_card_1', amount: 1 }).debit.state).toBe('pending');
  });
});

describe('the usages, read through the profile', () => {
  it('a usage whose reference the profile cannot read is never taken for "absent"', async () => {
    const sb = await startTestSandbox();
    try {
      const outbox = new Outbox({ db: data.open(), connectivity: () => 'online' });
      const client = sb.client();
      const sender = new OutboxSender({
        outbox,
        gateway: createApiGateway(client),
        idlePollMs: 20,
      });
      const { debit } = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
      expect((await sender.drain({ untilEmpty: true, timeoutMs: 10_000 })).result).toBe('empty');
      expect(outbox.get(debit.id).state).toBe('applied');

      const right = createApiGateway(client);
      expect(await right.findUsage(demoGiftCards.active, debit.reference)).toMatchObject({
        status: 'found',
        usage: { reference: debit.reference, amount: 1 },
      });
      // With the card's balance, read with its usages (evidence for a person, never proof).
      expect(await right.findUsage(demoGiftCards.active, 'kiosk/0000000000000000')).toEqual({
        status: 'absent',
        balance: 113.5,
      });
      const wrongReference = IntegrationProfile.parse({
        ...defaultProfile,
        records: { ...defaultProfile.records, giftCardUsage: { reference: 'memo' } },
      });
      const wrong = createApiGateway(client, () => wrongReference);
      expect(await wrong.findUsage(demoGiftCards.active, 'kiosk/0000000000000000')).toMatchObject({
        status: 'unavailable',
      });
      const noUsages = IntegrationProfile.parse({
        ...defaultProfile,
        records: {
          ...defaultProfile.records,
          giftCard: { ...defaultProfile.records.giftCard, usages: 'movements' },
        },
      });
      expect(
        await createApiGateway(client, () => noUsages).findUsage(demoGiftCards.active, 'x'),
      ).toMatchObject({ status: 'unavailable' });
    } finally {
      await sb.close();
    }
  });
});
