import type { z } from 'zod';
import type { Customer } from '../../shared/api/customers.ts';
import type {
  CreditUsed,
  CustomerSummary,
  Invoice,
  Sale,
  SaleLine,
} from '../../shared/api/sales.ts';
import { documentNumber, prefixedUuid } from './ids.ts';
import type { SandboxData, StoredProduct } from './model.ts';
import { VAT_RATE_PERCENT, exclTaxCents, fromCents, toCents } from './money.ts';
import type { Random } from './random.ts';
import { MINUTE, iso, yearOf } from './time.ts';

/**
 * Sales are drafted first (by customers, gift cards, credit notes, in any order) and numbered at
 * the end, in date order, the way a till numbers its tickets. Totals are computed line by line in
 * cents, each line with its VAT rate: gift cards carry no VAT when sold (multi-purpose vouchers).
 */

export type SaleStatus = 'completed' | 'partially_paid' | 'cancelled';

export interface DraftLine {
  line: z.infer<typeof SaleLine>;
  vatPercent: number;
}

export interface SaleDraft {
  uuid: string;
  date: number;
  shopId: string | null;
  customer: Customer | null;
  lines: DraftLine[];
  status: SaleStatus;
  creditsUsed: z.infer<typeof CreditUsed>[];
  invoice: boolean;
}

export function newSaleId(random: Random): string {
  return prefixedUuid('sale', random);
}

const services = [
  { label: 'Livraison et installation', reference: 'SERV-LIVR', cents: 4900 },
  { label: 'Extension de garantie 3 ans', reference: 'SERV-GAR3', cents: 7900 },
  { label: 'Mise en service et paramétrage', reference: 'SERV-PARAM', cents: 2900 },
  { label: 'Reprise de l’ancien appareil', reference: 'SERV-REPRISE', cents: 0 },
] as const;

function lineOf(
  label: string,
  reference: string | null,
  productId: string | null,
  itemId: string | null,
  quantity: number,
  unitCents: number,
): z.infer<typeof SaleLine> {
  return {
    label,
    reference,
    productId,
    itemId,
    quantity,
    unitPriceInclTax: fromCents(unitCents),
    totalInclTax: fromCents(unitCents * quantity),
  };
}

/** A line for a product of the catalogue, preferably an item of the sale's shop, at its current (promotion) price. */
export function productLine(
  random: Random,
  pool: readonly StoredProduct[],
  shopId: string | null,
): DraftLine {
  if (pool.length === 0) return serviceLine(random);
  const product = random.pick(pool);
  const priced = product.items.filter((item) => item.price.inclTax !== null);
  const local = priced.filter((item) => item.shop?.id === shopId);
  const item = random.pick(local.length > 0 ? local : priced);
  const unitCents = toCents(item.promotionPrice?.inclTax ?? item.price.inclTax ?? 0);
  const quantity = unitCents < 10_000 && random.chance(0.2) ? random.int(2, 3) : 1;
  const label = product.name ?? product.reference ?? 'Article sans désignation';
  return {
    line: lineOf(label, product.reference, product.uuid, item.uuid, quantity, unitCents),
    vatPercent: VAT_RATE_PERCENT,
  };
}

export function serviceLine(random: Random): DraftLine {
  const service = random.pick(services);
  return {
    line: lineOf(service.label, service.reference, null, null, 1, service.cents),
    vatPercent: VAT_RATE_PERCENT,
  };
}

/** Formats an amount for a line label the French way: `150,00 €`. */
function euroLabel(cents: number): string {
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')} €`;
}

export function giftCardLine(amountCents: number): DraftLine {
  return {
    line: lineOf(
      `Carte cadeau ${euroLabel(amountCents)}`,
      'CARTE-CADEAU',
      null,
      null,
      1,
      amountCents,
    ),
    vatPercent: 0,
  };
}

export function draftTotalCents(draft: Pick<SaleDraft, 'lines'>): number {
  return draft.lines.reduce((sum, { line }) => sum + toCents(line.totalInclTax), 0);
}

export function customerSummary(customer: Customer): z.infer<typeof CustomerSummary> {
  return {
    uuid: customer.uuid,
    firstName: customer.firstName,
    lastName: customer.lastName,
    // A copy: a later customer replacement must not rewrite history by aliasing.
    ...(customer.contact === undefined ? {} : { contact: { ...customer.contact } }),
  };
}

function toSale(draft: SaleDraft, number: string): Sale {
  let inclCents = 0;
  let exclCents = 0;
  for (const { line, vatPercent } of draft.lines) {
    const lineCents = toCents(line.totalInclTax);
    inclCents += lineCents;
    exclCents += exclTaxCents(lineCents, vatPercent);
  }
  const paidCents =
    draft.status === 'completed'
      ? inclCents
      : draft.status === 'partially_paid'
        ? Math.round(inclCents * 0.3)
        : 0;
  const remainingCents = draft.status === 'cancelled' ? 0 : inclCents - paidCents;
  return {
    uuid: draft.uuid,
    number,
    date: iso(draft.date),
    shopId: draft.shopId,
    status: draft.status,
    customer: draft.customer === null ? null : customerSummary(draft.customer),
    lines: draft.lines.map(({ line }) => line),
    totals: {
      exclTax: fromCents(exclCents),
      vat: fromCents(inclCents - exclCents),
      inclTax: fromCents(inclCents),
      currency: 'EUR',
    },
    amountPaid: fromCents(paidCents),
    remainingToPay: fromCents(remainingCents),
    hasInvoice: draft.invoice,
    creditsUsed: draft.creditsUsed,
  };
}

/**
 * Numbers the drafts in date order (`V-2026-000123`, gaps included: the sandbox holds a sample of
 * the chain's tickets), issues their invoices (`F-2026-000045`) and stores both, oldest first.
 */
export function finalizeSales(
  data: SandboxData,
  random: Random,
  drafts: readonly SaleDraft[],
  now: number,
): void {
  const ordered = [...drafts].sort((a, b) => a.date - b.date);
  const saleSequence = new Map<number, number>();
  const invoiceSequence = new Map<number, number>();
  const next = (sequences: Map<number, number>, year: number, start: number, maxGap: number) => {
    const value = (sequences.get(year) ?? start) + random.int(1, maxGap);
    sequences.set(year, value);
    return value;
  };
  for (const draft of ordered) {
    const year = yearOf(draft.date);
    const sale = toSale(draft, documentNumber('V', year, next(saleSequence, year, 100, 40), 6));
    data.sales.set(sale.uuid, sale);
    if (!draft.invoice) continue;
    const issuedAt = Math.min(now, draft.date + random.int(1, 15) * MINUTE);
    const number = documentNumber(
      'F',
      yearOf(issuedAt),
      next(invoiceSequence, yearOf(issuedAt), 50, 25),
      6,
    );
    const invoice: Invoice = {
      id: prefixedUuid('inv', random),
      saleId: sale.uuid,
      number,
      issuedAt: iso(issuedAt),
      totalInclTax: sale.totals.inclTax,
      currency: 'EUR',
      fileName: `${number}.pdf`,
      contentType: 'application/pdf',
    };
    data.invoices.set(sale.uuid, invoice);
  }
}
