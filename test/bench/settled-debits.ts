import type { KioskDatabase } from '../../electron/storage/index.ts';

/**
 * `count` applied debits on `cards` cards, as the sender leaves them (key, body, reply, times),
 * created one a millisecond from `from` (epoch ms, the service's clock as the outbox's): inserted
 * by SQL in large transactions, as no kiosk would, to get there in seconds.
 */
export function seedSettledDebits(
  db: KioskDatabase,
  count: number,
  { from, cards }: { readonly from: number; readonly cards: number },
): void {
  const chunk = 100_000;
  for (let first = 0; first < count; first += chunk) {
    db.transaction(
      () =>
        db.connection.exec(`
          WITH RECURSIVE n(i) AS (SELECT ${first} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${Math.min(count, first + chunk)})
          INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
            reference, policy, accepted_offline, state, attempts, created_at, updated_at,
            first_attempt_at, last_attempt_at, may_have_reached_at, next_attempt_at, reply,
            new_balance, settled_at, settled_by, request_id, created_service_at,
            attempt_service_earliest, attempt_service_latest, reached_service_at, shop_id)
          SELECT lower(hex(randomblob(16))), 'gift_card_bench_' || (i % ${cards}),
            '{"amount":2.5,"currency":"EUR","reference":"till-3/' || printf('%016x', i) || '","shopId":"shop_lyon-part-dieu"}',
            250, 'till-3/' || printf('%016x', i), 'prefer_online', 0, 'applied', 1,
            ${from} + i, ${from} + i + 300, ${from} + i + 100, ${from} + i + 100, ${from} + i + 100,
            ${from} + i,
            '{"kind":"receipt","receipt":{"id":"receipt_' || i || '","balance":47.5,"amount":2.5,"currency":"EUR","giftCardId":"gift_card_bench_' || (i % ${cards}) || '"}}',
            47.5, ${from} + i + 300, 'service', lower(hex(randomblob(16))), ${from} + i,
            ${from} + i + 90, ${from} + i + 110, ${from} + i + 90, 'shop_lyon-part-dieu'
          FROM n;
        `),
      { durability: 'deferred' },
    );
  }
}
