import type { Credit, Customer } from '../../shared/api/customers.ts';
import type { GiftCard, GiftCardUsage } from '../../shared/api/gift-cards.ts';
import { demoCustomers, demoGiftCards, demoSales } from './demo.ts';
import { prefixedUuid } from './ids.ts';
import type { SandboxData, StoredProduct } from './model.ts';
import { fromCents } from './money.ts';
import type { Random } from './random.ts';
import { shopIds } from './referentials.ts';
import type { SaleDraft } from './sale-drafts.ts';
import { draftTotalCents, giftCardLine, newSaleId, productLine } from './sale-drafts.ts';
import { addCredit, spendCreditNote } from './seed-credits.ts';
import { DAY, HOUR, dateOnly, daysAgoAt, iso, openingHoursBetween } from './time.ts';

/**
 * Gift cards with their whole story: the sale that sold them (origin, invoice), the sales or
 * kiosk debits that used them (usages), the customer holding them (who then sees them among
 * their credits; the credit's id is the card's id, so a sale's `creditsUsed` names the card).
 * The balance is always the initial amount minus the usages.
 */

interface UsagePlan {
  cents: number;
  at: number;
  /** A sale of the chain used the card; otherwise a kiosk debit with its own reference. */
  viaSale: boolean;
  saleId?: string;
  /** Forces the usage sale's invoice (the demo sale paid with credits is invoiced). */
  invoice?: boolean;
  /** For the demo sale paid with credits: the credit note spent alongside the card. */
  withCreditNote?: { credit: Credit; cents: number };
}

interface CardPlan {
  id: string;
  initialCents: number;
  status: GiftCard['status'];
  holder: Customer | null;
  buyer: Customer | null;
  soldAt: number;
  shopId: string | null;
  /** The purchase sale's id, or null when the card was sold outside the tills (works council orders). */
  originSaleId: string | null;
  invoiced: boolean;
  expiresOn: string | null;
  usages: UsagePlan[];
}

export interface GiftCardSeedResult {
  /** Usages whose reference is the number of their sale, known only once sales are numbered. */
  saleReferences: { usage: GiftCardUsage; saleId: string }[];
}

const amountsCents = [2000, 2500, 3000, 5000, 7500, 10000, 15000, 20000] as const;

function maskedNumber(random: Random): string {
  return `**** **** **** ${String(random.int(0, 9999)).padStart(4, '0')}`;
}

function demoPlans(data: SandboxData, now: number, mainCreditNote: Credit): CardPlan[] {
  const customer = (id: string) => data.customers.get(id) ?? null;
  const main = customer(demoCustomers.main);
  const activeSoldAt = daysAgoAt(now, 120, 15, 32);
  const lowSoldAt = daysAgoAt(now, 200, 11, 8);
  const inactiveSoldAt = daysAgoAt(now, 10, 9, 41);
  const expiredSoldAt = daysAgoAt(now, 395, 17, 20);
  return [
    {
      id: demoGiftCards.active,
      initialCents: 15000,
      status: 'active',
      holder: main,
      buyer: main,
      soldAt: activeSoldAt,
      shopId: shopIds.lyon,
      originSaleId: demoSales.giftCardPurchase,
      invoiced: true,
      expiresOn: dateOnly(activeSoldAt + 365 * DAY),
      usages: [
        {
          cents: 3550,
          at: daysAgoAt(now, 30, 13, 54),
          viaSale: true,
          saleId: demoSales.withCredits,
          invoice: true,
          withCreditNote: { credit: mainCreditNote, cents: 4000 },
        },
      ],
    },
    {
      id: demoGiftCards.lowBalance,
      initialCents: 5000,
      status: 'active',
      holder: null,
      buyer: customer(demoCustomers.sharedEmailSecond),
      soldAt: lowSoldAt,
      shopId: shopIds.bordeaux,
      originSaleId: 'new',
      invoiced: false,
      expiresOn: dateOnly(lowSoldAt + 365 * DAY),
      usages: [
        { cents: 2000, at: daysAgoAt(now, 150, 12, 3), viaSale: true },
        { cents: 2550, at: daysAgoAt(now, 60, 16, 44), viaSale: false },
      ],
    },
    {
      id: demoGiftCards.inactive,
      initialCents: 10000,
      status: 'inactive',
      holder: null,
      buyer: customer(demoCustomers.company),
      soldAt: inactiveSoldAt,
      shopId: shopIds.paris,
      originSaleId: 'new',
      invoiced: true,
      expiresOn: dateOnly(inactiveSoldAt + 365 * DAY),
      usages: [],
    },
    {
      id: demoGiftCards.expired,
      initialCents: 7500,
      status: 'expired',
      holder: customer(demoCustomers.sharedEmailFirst),
      buyer: null,
      soldAt: expiredSoldAt,
      shopId: null,
      originSaleId: null,
      invoiced: false,
      expiresOn: dateOnly(expiredSoldAt + 365 * DAY),
      usages: [{ cents: 5000, at: expiredSoldAt + 60 * DAY, viaSale: true }],
    },
  ];
}

function randomPlan(
  random: Random,
  data: SandboxData,
  customers: readonly Customer[],
  now: number,
): CardPlan {
  const initialCents = random.pick(amountsCents);
  const soldAt = openingHoursBetween(random, now - 500 * DAY, now - 2 * DAY);
  const holder = random.chance(0.4) ? random.pick(customers) : null;
  const buyer =
    holder !== null && random.chance(0.6)
      ? holder
      : random.chance(0.7)
        ? random.pick(customers)
        : null;
  const throughTill = random.chance(0.85);
  const expiresOn = random.chance(0.1) ? null : dateOnly(soldAt + 365 * DAY);
  const expired = expiresOn !== null && expiresOn < dateOnly(now);
  // Inactive: sold but never activated, so never used and not in anyone's wallet yet.
  const inactive = !expired && holder === null && random.chance(0.12);
  const usages: UsagePlan[] = [];
  if (!inactive) {
    let left = initialCents;
    const end = expiresOn === null ? now : Math.min(now, Date.parse(`${expiresOn}T23:00:00Z`));
    let from = soldAt + HOUR;
    for (let n = random.int(0, 3); n > 0 && left > 0 && from < end; n--) {
      const cents = Math.min(
        left,
        random.chance(0.3)
          ? left
          : random.int(5, Math.max(5, Math.floor(left / 100))) * 100 + random.pick([0, 50, 90]),
      );
      const at = openingHoursBetween(random, from, end);
      usages.push({ cents, at, viaSale: random.chance(0.8) });
      left -= cents;
      from = at + HOUR;
    }
  }
  const shop = buyer?.shopId ?? random.pick(data.shops).id;
  return {
    id: prefixedUuid('gift_card', random),
    initialCents,
    status: expired ? 'expired' : inactive ? 'inactive' : 'active',
    holder,
    buyer,
    soldAt,
    shopId: throughTill ? shop : null,
    originSaleId: throughTill ? 'new' : null,
    invoiced: throughTill && buyer !== null && random.chance(0.4),
    expiresOn,
    usages,
  };
}

/** A sale big enough to absorb the card debit (and the credit note spent with it). */
function usageSale(
  random: Random,
  pool: readonly StoredProduct[],
  plan: CardPlan,
  usage: UsagePlan,
  id: string,
): SaleDraft {
  const shopId = plan.holder?.shopId ?? plan.shopId ?? random.pick(Object.values(shopIds));
  const draft: SaleDraft = {
    uuid: id,
    date: usage.at,
    shopId,
    customer: plan.holder,
    lines: [],
    status: 'completed',
    creditsUsed: [],
    invoice: usage.invoice ?? (plan.holder !== null && random.chance(0.5)),
  };
  const needed = usage.cents + (usage.withCreditNote?.cents ?? 0);
  while (draft.lines.length < 30 && draftTotalCents(draft) < needed + 1000)
    draft.lines.push(productLine(random, pool, shopId));
  if (usage.withCreditNote)
    draft.creditsUsed.push(
      spendCreditNote(usage.withCreditNote.credit, usage.withCreditNote.cents),
    );
  return draft;
}

export function seedGiftCards(
  data: SandboxData,
  random: Random,
  now: number,
  pool: readonly StoredProduct[],
  sales: SaleDraft[],
  mainCreditNote: Credit,
  count: number,
): GiftCardSeedResult {
  const customers = [...data.customers.values()];
  const plans = [...demoPlans(data, now, mainCreditNote)];
  for (let i = 0; i < count; i++) plans.push(randomPlan(random, data, customers, now));
  const saleReferences: GiftCardSeedResult['saleReferences'] = [];

  for (const plan of plans) {
    let originSaleId = plan.originSaleId;
    if (originSaleId !== null) {
      if (originSaleId === 'new') originSaleId = newSaleId(random);
      sales.push({
        uuid: originSaleId,
        date: plan.soldAt,
        shopId: plan.shopId,
        customer: plan.buyer,
        lines: [giftCardLine(plan.initialCents)],
        status: 'completed',
        creditsUsed: [],
        invoice: plan.invoiced,
      });
    }

    const usages: GiftCardUsage[] = [];
    let usedCents = 0;
    for (const usagePlan of plan.usages) {
      const usage: GiftCardUsage = {
        id: prefixedUuid('usage', random),
        amount: fromCents(usagePlan.cents),
        currency: 'EUR',
        at: iso(usagePlan.at),
        reference: null,
        saleId: null,
      };
      if (usagePlan.viaSale) {
        const draft = usageSale(
          random,
          pool,
          plan,
          usagePlan,
          usagePlan.saleId ?? newSaleId(random),
        );
        draft.creditsUsed.push({
          creditId: plan.id,
          type: 'gift_card',
          amount: usage.amount,
          currency: 'EUR',
        });
        sales.push(draft);
        usage.saleId = draft.uuid;
        saleReferences.push({ usage, saleId: draft.uuid });
      } else {
        // A debit from a kiosk through the API: the client's own reference, no sale of the chain.
        usage.reference = `KIOSK-${String(random.int(1, 999)).padStart(3, '0')}-${random.hex(6).toUpperCase()}`;
      }
      usages.push(usage);
      usedCents += usagePlan.cents;
    }

    const balance = fromCents(plan.initialCents - usedCents);
    const invoice = plan.invoiced && originSaleId !== null ? { saleId: originSaleId } : null;
    const card: GiftCard = {
      id: plan.id,
      maskedNumber: maskedNumber(random),
      status: plan.status,
      initialAmount: fromCents(plan.initialCents),
      balance,
      currency: 'EUR',
      expiresOn: plan.expiresOn,
      createdAt: iso(plan.soldAt),
      customer:
        plan.holder === null
          ? null
          : {
              uuid: plan.holder.uuid,
              firstName: plan.holder.firstName,
              lastName: plan.holder.lastName,
            },
      origin: { saleId: originSaleId, shopId: plan.shopId, soldAt: iso(plan.soldAt) },
      usages,
      // Filled once the sale's invoice is issued (linkGiftCardInvoices).
      invoice: invoice === null ? null : { id: '', number: '', saleId: invoice.saleId },
    };
    data.giftCards.set(card.id, card);

    if (plan.holder !== null) {
      addCredit(data, plan.holder.uuid, {
        id: card.id,
        type: 'gift_card',
        label: `Carte cadeau ${card.maskedNumber}`,
        initialAmount: card.initialAmount,
        remainingAmount: balance,
        currency: 'EUR',
        status:
          plan.status === 'expired'
            ? 'expired'
            : plan.status === 'inactive'
              ? 'cancelled'
              : balance === 0
                ? 'used'
                : 'active',
        createdAt: card.createdAt,
        expiresOn: card.expiresOn,
        giftCardId: card.id,
      });
    }
  }
  return { saleReferences };
}

/** After sales are numbered and invoiced: usage references and the cards' invoice blocks. */
export function linkGiftCards(data: SandboxData, result: GiftCardSeedResult): void {
  for (const { usage, saleId } of result.saleReferences)
    usage.reference = data.sales.get(saleId)?.number ?? null;
  for (const card of data.giftCards.values()) {
    if (!card.invoice) continue;
    const invoice = data.invoices.get(card.invoice.saleId);
    card.invoice =
      invoice === undefined
        ? null
        : { id: invoice.id, number: invoice.number, saleId: invoice.saleId };
  }
}
