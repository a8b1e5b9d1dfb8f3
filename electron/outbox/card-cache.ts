import {
  type IntegrationProfile,
  type RecordViewOf,
  resolveRecord,
} from '../../shared/profile/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { OPEN } from './state-sql.ts';

/**
 * The last values the kiosk read of each gift card, kept so that offline a debit can be checked
 * against a balance the kiosk saw rather than accepted blind. No personal data: the customer and
 * every include block are dropped before anything is stored.
 *
 * A card's fields are not shown in the service's contract, so a reply is read tolerantly: a value
 * missing or of another type is stored as unknown (NULL), never a reason to fail the read that
 * carried it.
 */
export interface CachedCard {
  readonly giftCardId: string;
  readonly maskedNumber: string | null;
  readonly status: string | null;
  /** EUR; null when the reply carried no balance we understood. */
  readonly balance: number | null;
  readonly expiresOn: string | null;
  /** Epoch ms, the outbox clock. */
  readonly readAt: number;
}

interface CardRow {
  gift_card_id: string;
  masked_number: string | null;
  status: string | null;
  balance_cents: number | null;
  expires_on: string | null;
  read_at: number;
}

const text = (value: unknown, max = 64): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= max ? value : null;

/**
 * The cacheable values of a card as the service returned it, read through the integration
 * profile; undefined without an id.
 */
export function cardValuesOf(
  profile: IntegrationProfile,
  card: unknown,
): Omit<CachedCard, 'readAt'> | undefined {
  return cardValuesOfView(resolveRecord(profile, 'giftCard', card) as RecordViewOf<'giftCard'>);
}

/** The cacheable values of a card already read through the profile (or of a credit's card). */
export function cardValuesOfView(view: {
  readonly id: string | null;
  readonly maskedNumber?: string | null;
  readonly status: string | null;
  readonly balance: number | null;
  readonly currency?: string | null;
  readonly expiresOn: string | null;
}): Omit<CachedCard, 'readAt'> | undefined {
  const giftCardId = text(view.id, 128);
  if (giftCardId === null) return undefined;
  const balance =
    typeof view.balance === 'number' && Number.isFinite(view.balance) && view.balance >= 0
      ? view.balance
      : null;
  const currency = view.currency ?? null;
  return {
    giftCardId,
    maskedNumber: text(view.maskedNumber),
    status: text(view.status),
    // A balance in another currency is not one a EUR debit can be checked against.
    balance: currency === null || currency === 'EUR' ? balance : null,
    expiresOn: text(view.expiresOn, 32),
  };
}

export class CardCache {
  readonly #db: KioskDatabase;

  constructor(db: KioskDatabase) {
    this.#db = db;
  }

  /** Keeps what was just read of a card (its newer read replaces the older); false without an id. */
  record(values: Omit<CachedCard, 'readAt'> | undefined, readAt: number): boolean {
    if (!values) return false;
    this.#db.connection
      .prepare(
        `INSERT INTO outbox_card_cache
           (gift_card_id, masked_number, status, balance_cents, expires_on, read_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (gift_card_id) DO UPDATE SET
           -- A credits list carries no masked number: the one read earlier stays.
           masked_number = coalesce(excluded.masked_number, outbox_card_cache.masked_number),
           status = excluded.status,
           balance_cents = excluded.balance_cents, expires_on = excluded.expires_on,
           read_at = excluded.read_at
         WHERE excluded.read_at >= outbox_card_cache.read_at`,
      )
      .run(
        values.giftCardId,
        values.maskedNumber,
        values.status,
        values.balance === null ? null : Math.round(values.balance * 100),
        values.expiresOn,
        readAt,
      );
    return true;
  }

  /**
   * EUR cents of this card's debits its read balance does not reflect: every one not yet
   * confirmed, and every one applied since it was read.
   */
  unreflectedCents(giftCardId: string, readAt: number): number {
    const row = this.#db.connection
      .prepare(
        `SELECT coalesce(sum(amount_cents), 0) AS cents FROM outbox_debits
         WHERE gift_card_id = ?
           AND (${OPEN} OR (state = 'applied' AND settled_at >= ?))`,
      )
      .get(giftCardId, readAt) as { cents: number };
    return row.cents;
  }

  /**
   * The cards read most recently that have a masked number (the one thing staff may be shown of
   * them), newest first.
   */
  recent(limit: number): Pick<CachedCard, 'giftCardId' | 'maskedNumber' | 'readAt'>[] {
    const rows = this.#db.connection
      .prepare(
        `SELECT gift_card_id, masked_number, read_at FROM outbox_card_cache
         WHERE masked_number IS NOT NULL ORDER BY read_at DESC, gift_card_id LIMIT ?`,
      )
      .all(limit) as unknown as Pick<CardRow, 'gift_card_id' | 'masked_number' | 'read_at'>[];
    return rows.map((row) => ({
      giftCardId: row.gift_card_id,
      maskedNumber: row.masked_number,
      readAt: row.read_at,
    }));
  }

  get(giftCardId: string): CachedCard | undefined {
    const row = this.#db.connection
      .prepare('SELECT * FROM outbox_card_cache WHERE gift_card_id = ?')
      .get(giftCardId) as CardRow | undefined;
    if (!row) return undefined;
    return {
      giftCardId: row.gift_card_id,
      maskedNumber: row.masked_number,
      status: row.status,
      balance: row.balance_cents === null ? null : row.balance_cents / 100,
      expiresOn: row.expires_on,
      readAt: row.read_at,
    };
  }
}
