import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { usagesVerified } from '../../../electron/outbox/usage-evidence.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase } from '../../../electron/storage/database.ts';
import { defaultProfile, IntegrationProfile } from '../../../shared/profile/index.ts';
import { tempDataDir } from './support.ts';

/**
 * Migration 014 adds what the outbox knows as facts (a key sent, evidence of "not applied", a
 * hold for a person). Rows written before it are migrated, never reinterpreted: a row attempted
 * before counts as having sent its key (the side that never reuses a key with another body), and
 * nothing is taken for evidence.
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => data.cleanup());

const withoutShop = IntegrationProfile.parse({
  ...defaultProfile,
  giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, shopId: null } },
});

describe('migration 014', () => {
  it('keeps every debit; one attempted before counts as sent, may-have-reached kept, no evidence', () => {
    const before = openDatabase({
      dataDir: data.dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 13) },
    });
    const insert = before.connection.prepare(
      `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
         reference, policy, accepted_offline, state, attempts, created_at, updated_at,
         first_attempt_at, last_attempt_at, may_have_reached_at, next_attempt_at, shop_id)
       VALUES (?, ?, ?, 200, ?, 'prefer_online', 0, ?, ?, 1000, 1000, ?, ?, ?, 1000, 'shop_lyon-part-dieu')`,
    );
    const body = (reference: string) =>
      JSON.stringify({ amount: 2, currency: 'EUR', reference, shopId: 'shop_lyon-part-dieu' });
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    insert.run(keys[0]!, 'gift_card_1', body('kiosk/1'), 'kiosk/1', 'pending', 2, 1500, 1700, 1500);
    insert.run(keys[1]!, 'gift_card_2', body('kiosk/2'), 'kiosk/2', 'pending', 0, null, null, null);
    insert.run(keys[2]!, 'gift_card_3', body('kiosk/3'), 'kiosk/3', 'applied', 1, 1200, 1200, 1200);
    before.close();

    const outbox = new Outbox({ db: data.open() });
    const [attempted, never, applied] = outbox.list();
    expect(attempted).toMatchObject({
      idempotencyKey: keys[0],
      keySentAt: 1700,
      keySentDigest: null,
      mayHaveReachedAt: 1500,
      notApplied: null,
      outcomeUnknown: null,
      balanceBefore: null,
      staffOutcome: null,
    });
    expect(never).toMatchObject({ idempotencyKey: keys[1], keySentAt: null });
    expect(applied).toMatchObject({ state: 'applied', keySentAt: 1200 });
    expect(usagesVerified(outbox.store, outbox.profile)).toBe(false);

    // Another body: the attempted one may have applied its key, so it keeps it; the other,
    // never sent, changes under its own key.
    outbox.useProfile(withoutShop);
    expect(outbox.rebuildBodies()).toMatchObject({
      rebuilt: 1,
      newKeys: 0,
      withheld: [attempted!.id],
    });
    expect(outbox.get(attempted!.id).requestBody).toBe(body('kiosk/1'));
    expect(outbox.get(never!.id)).toMatchObject({ idempotencyKey: keys[1] });
    expect(JSON.parse(outbox.get(never!.id).requestBody)).not.toHaveProperty('shopId');
  });
});
