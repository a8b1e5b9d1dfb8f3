import type { Customer } from '../../shared/api/customers.ts';
import { demoCustomers, demoProducts, demoSales } from './demo.ts';
import type { SandboxData, StoredProduct } from './model.ts';
import type { Random } from './random.ts';
import { shopIds } from './referentials.ts';
import type { DraftLine, SaleDraft, SaleStatus } from './sale-drafts.ts';
import { draftTotalCents, newSaleId, productLine, serviceLine } from './sale-drafts.ts';
import { spendCreditNote, usableCreditNote } from './seed-credits.ts';
import { DAY, HOUR, daysAgoAt, openingHoursBetween } from './time.ts';

/**
 * Everyday sales: the demo ones, each customer's purchases over the last 18 months, and walk-in
 * sales without a customer. Some spend a credit note the customer holds.
 */

export const ANONYMOUS_SALES = 40;

function lines(
  random: Random,
  pool: readonly StoredProduct[],
  shopId: string | null,
  count: number,
): DraftLine[] {
  return Array.from({ length: count }, () =>
    random.chance(0.85) ? productLine(random, pool, shopId) : serviceLine(random),
  );
}

function randomStatus(random: Random): SaleStatus {
  return random.weighted([
    ['completed', 88],
    ['partially_paid', 7],
    ['cancelled', 5],
  ] as const);
}

function demoDrafts(
  data: SandboxData,
  random: Random,
  pool: readonly StoredProduct[],
  now: number,
): SaleDraft[] {
  const main = data.customers.get(demoCustomers.main) ?? null;
  const company = data.customers.get(demoCustomers.company) ?? null;
  // The main customer's washing machine: the demo product sold everywhere, bought in Lyon.
  const washer = data.products.get(demoProducts.availableEverywhere);
  const withInvoiceLines = washer
    ? [productLine(random, [washer], shopIds.lyon)]
    : lines(random, pool, shopIds.lyon, 1);
  withInvoiceLines.push(serviceLine(random));
  return [
    {
      uuid: demoSales.withInvoice,
      date: daysAgoAt(now, 45, 14, 12),
      shopId: shopIds.lyon,
      customer: main,
      lines: withInvoiceLines,
      status: 'completed',
      creditsUsed: [],
      invoice: true,
    },
    {
      uuid: demoSales.partiallyPaid,
      date: daysAgoAt(now, 5, 10, 47),
      shopId: shopIds.paris,
      customer: company,
      lines: lines(random, pool, shopIds.paris, 2),
      status: 'partially_paid',
      creditsUsed: [],
      invoice: false,
    },
    {
      uuid: demoSales.anonymous,
      date: daysAgoAt(now, 3, 16, 5),
      shopId: shopIds.marseille,
      customer: null,
      lines: lines(random, pool, shopIds.marseille, 1),
      status: 'completed',
      creditsUsed: [],
      invoice: false,
    },
  ];
}

function customerDraft(
  data: SandboxData,
  random: Random,
  pool: readonly StoredProduct[],
  customer: Customer,
  now: number,
): SaleDraft {
  const from = Math.max(Date.parse(customer.createdAt), now - 540 * DAY);
  const date = openingHoursBetween(random, from, now - HOUR);
  const shopId =
    customer.shopId !== null && random.chance(0.85) ? customer.shopId : random.pick(data.shops).id;
  const status = randomStatus(random);
  const draft: SaleDraft = {
    uuid: newSaleId(random),
    date,
    shopId,
    customer,
    lines: lines(
      random,
      pool,
      shopId,
      random.weighted([
        [1, 6],
        [2, 3],
        [3, 1],
      ] as const),
    ),
    status,
    creditsUsed: [],
    invoice: status === 'completed' && random.chance(0.65),
  };
  const credit = status === 'completed' ? usableCreditNote(data, customer, date) : undefined;
  if (credit !== undefined && draftTotalCents(draft) > 0 && random.chance(0.5))
    draft.creditsUsed.push(spendCreditNote(credit, draftTotalCents(draft)));
  return draft;
}

export function seedSales(
  data: SandboxData,
  random: Random,
  pool: readonly StoredProduct[],
  sales: SaleDraft[],
  now: number,
): void {
  sales.push(...demoDrafts(data, random, pool, now));
  for (const customer of data.customers.values()) {
    const count = random.weighted([
      [0, 15],
      [1, 30],
      [2, 25],
      [3, 20],
      [4, 10],
    ] as const);
    for (let i = 0; i < count; i++) sales.push(customerDraft(data, random, pool, customer, now));
  }
  for (let i = 0; i < ANONYMOUS_SALES; i++) {
    const shopId = random.pick(data.shops).id;
    const status = random.chance(0.95) ? 'completed' : 'cancelled';
    sales.push({
      uuid: newSaleId(random),
      date: openingHoursBetween(random, now - 540 * DAY, now - HOUR),
      shopId,
      customer: null,
      lines: lines(random, pool, shopId, random.int(1, 2)),
      status,
      creditsUsed: [],
      invoice: status === 'completed' && random.chance(0.1),
    });
  }
}
