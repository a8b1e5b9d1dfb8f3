import { randomUUID } from 'node:crypto';
import type {
  GiftCard,
  GiftCardDebit,
  GiftCardDebitReceipt,
  GiftCardUsage,
} from '../../../shared/api/gift-cards.ts';
import { splitCommaList } from '../../../shared/api/primitives.ts';
import { ApiFailure, businessFailure, failure, invalidRequest, notFound } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import type { RecordedReply } from '../idempotency.ts';
import type { SandboxState } from '../state.ts';

const cents = (amount: number) => Math.round(amount * 100);

/**
 * The card with its masked number and computed balance; each block only when included. With
 * `emptyUsages` (a service that never fills them) the usage list is always empty.
 */
function giftCardView(card: GiftCard, include: readonly string[], emptyUsages: boolean): GiftCard {
  const { customer, origin, usages, invoice, ...base } = card;
  return {
    ...base,
    ...(include.includes('customer') ? { customer: customer ?? null } : {}),
    ...(include.includes('origin') && origin ? { origin } : {}),
    ...(include.includes('usages') ? { usages: emptyUsages ? [] : (usages ?? []) } : {}),
    ...(include.includes('invoice') ? { invoice: invoice ?? null } : {}),
  };
}

/**
 * One debit attempt: 404 for an unknown card, 409 with a stable code for a business refusal,
 * else the usage is appended (with the client's reference), the balance lowered and the ledger
 * written. The service computes the balance; amounts are handled in cents.
 */
function applyDebit(
  state: SandboxState,
  giftCardId: string,
  debit: GiftCardDebit,
  key: string,
  accountId: string,
): GiftCardDebitReceipt {
  const card = state.data.giftCards.get(giftCardId);
  if (!card) throw notFound(`no gift card ${giftCardId}`);
  const now = state.clock.now();
  const today = now.toISOString().slice(0, 10);
  if (card.status === 'expired' || (card.expiresOn !== null && card.expiresOn < today)) {
    throw businessFailure(
      'CONFLICT',
      'GIFT_CARD_EXPIRED',
      `the gift card expired on ${card.expiresOn ?? 'an earlier date'}`,
    );
  }
  if (card.status === 'inactive')
    throw businessFailure('CONFLICT', 'GIFT_CARD_INACTIVE', 'the gift card is not active');
  if (cents(debit.amount) > cents(card.balance)) {
    throw businessFailure(
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
      `the balance (${card.balance.toFixed(2)} EUR) does not cover ${debit.amount.toFixed(2)} EUR`,
    );
  }
  const balance = (cents(card.balance) - cents(debit.amount)) / 100;
  const usage: GiftCardUsage = {
    id: `usage_${randomUUID()}`,
    amount: debit.amount,
    currency: 'EUR',
    at: now.toISOString(),
    reference: debit.reference ?? null,
    saleId: null,
  };
  // Replace, never edit in place: earlier replies may share the stored objects.
  state.data.giftCards.set(giftCardId, {
    ...card,
    balance,
    usages: [...(card.usages ?? []), usage],
  });
  state.ledger.record({
    giftCardId,
    usageId: usage.id,
    amount: usage.amount,
    currency: 'EUR',
    idempotencyKey: key,
    reference: usage.reference,
    accountId,
    at: usage.at,
    balanceAfter: balance,
  });
  return {
    id: usage.id,
    giftCardId,
    amount: usage.amount,
    currency: 'EUR',
    reference: usage.reference,
    balance,
    at: usage.at,
  };
}

export const giftCardHandlers = {
  getGiftCard: ({ state, params, query }) => {
    const card = state.data.giftCards.get(params.giftCardId);
    if (!card) throw notFound(`no gift card ${params.giftCardId}`);
    return { json: giftCardView(card, splitCommaList(query.include), state.emptyUsages) };
  },

  /**
   * Idempotent debit. The key is looked up (per account) before anything else happens:
   * same key, same card, same body (compared as parsed JSON, key order irrelevant) → the first
   * reply again, status and body, even when it was a refusal; same key with another card or body
   * → 409 with the code CONFLICT, as the spec's error table says for every 409 including an
   * inconsistent key reuse (the precise reason in the explanation). A new key is processed and its reply recorded, whatever it is
   * (200, 404, 409), except malformed requests (400), which never reach this point.
   */
  debitGiftCard: ({ state, account, params, headers, body, json }) => {
    const key = headers['Idempotency-Key'];
    const accountId = account?.id ?? 'anonymous';
    if (body.shopId !== undefined && !state.data.shops.some((shop) => shop.id === body.shopId)) {
      throw invalidRequest(`body field \`shopId\`: no shop ${body.shopId}`);
    }
    const known = state.idempotency.lookup(accountId, key, params.giftCardId, json);
    if (known.kind === 'replay') return { recorded: known.reply };
    if (known.kind === 'conflict')
      throw failure('CONFLICT', `Idempotency-Key reused inconsistently: ${known.explanation}`);

    let reply: RecordedReply;
    try {
      reply = { status: 200, body: applyDebit(state, params.giftCardId, body, key, accountId) };
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      reply = { status: error.status, body: error.body };
    }
    state.idempotency.remember(accountId, key, params.giftCardId, json, reply);
    return { recorded: reply };
  },
} satisfies Pick<Handlers, 'getGiftCard' | 'debitGiftCard'>;
