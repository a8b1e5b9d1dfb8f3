import type { z } from 'zod';
import type { Credit, Customer } from '../../shared/api/customers.ts';
import type { CreditUsed } from '../../shared/api/sales.ts';
import { demoCustomers } from './demo.ts';
import { prefixedUuid } from './ids.ts';
import type { SandboxData } from './model.ts';
import { fromCents, toCents } from './money.ts';
import type { Random } from './random.ts';
import { DAY, dateOnly, daysAgoAt, iso, openingHoursBetween } from './time.ts';

/**
 * Credit notes ("avoirs") held by customers, and their spending by later sales. Gift cards held by
 * a customer also appear among the customer's credits: see seed-gift-cards.ts.
 */

const creditNoteLabels = [
  'Avoir – retour d’un produit défectueux',
  'Avoir – geste commercial suite à un retard de livraison',
  'Avoir – différence de prix (garantie du meilleur prix)',
  'Avoir – annulation de commande',
] as const;

function creditNote(random: Random, createdAt: number, cents: number, label: string): Credit {
  return {
    id: prefixedUuid('credit', random),
    type: 'credit_note',
    label,
    initialAmount: fromCents(cents),
    remainingAmount: fromCents(cents),
    currency: 'EUR',
    status: 'active',
    createdAt: iso(createdAt),
    // Credit notes are valid for one year.
    expiresOn: dateOnly(createdAt + 365 * DAY),
    giftCardId: null,
  };
}

export function addCredit(data: SandboxData, customerId: string, credit: Credit): void {
  const list = data.credits.get(customerId) ?? [];
  list.push(credit);
  data.credits.set(customerId, list);
}

/** The main demo customer's credit note, partly spent by the demo sale paid with credits. */
export function seedCreditNotes(data: SandboxData, random: Random, now: number): Credit {
  const main = creditNote(
    random,
    daysAgoAt(now, 200, 10, 15),
    6000,
    'Avoir – retour d’un produit défectueux',
  );
  addCredit(data, demoCustomers.main, main);
  for (const customer of data.customers.values()) {
    if (customer.uuid === demoCustomers.main || !random.chance(0.25)) continue;
    const cents = random.pick([1500, 2000, 3000, 5000, 8000, 12000]);
    const credit = creditNote(
      random,
      openingHoursBetween(random, now - 500 * DAY, now - 20 * DAY),
      cents,
      random.pick(creditNoteLabels),
    );
    if (random.chance(0.08)) credit.status = 'cancelled';
    addCredit(data, customer.uuid, credit);
  }
  return main;
}

/** Spends up to `cents` of a credit note; returns the record of what the sale used. */
export function spendCreditNote(credit: Credit, cents: number): z.infer<typeof CreditUsed> {
  const spent = Math.min(cents, toCents(credit.remainingAmount));
  credit.remainingAmount = fromCents(toCents(credit.remainingAmount) - spent);
  return { creditId: credit.id, type: 'credit_note', amount: fromCents(spent), currency: 'EUR' };
}

/** A credit note of the customer that a sale at `at` could still use. */
export function usableCreditNote(
  data: SandboxData,
  customer: Customer,
  at: number,
): Credit | undefined {
  return (data.credits.get(customer.uuid) ?? []).find(
    (credit) =>
      credit.type === 'credit_note' &&
      credit.status === 'active' &&
      credit.remainingAmount > 0 &&
      Date.parse(credit.createdAt) < at &&
      credit.expiresOn !== null &&
      credit.expiresOn >= dateOnly(at),
  );
}

/** Once every sale is drafted: spent credit notes are `used`, outdated ones `expired`. */
export function settleCreditNotes(data: SandboxData, now: number): void {
  const today = dateOnly(now);
  for (const credits of data.credits.values()) {
    for (const credit of credits) {
      if (credit.type !== 'credit_note' || credit.status === 'cancelled') continue;
      if (credit.remainingAmount === 0) credit.status = 'used';
      else if (credit.expiresOn !== null && credit.expiresOn < today) credit.status = 'expired';
    }
  }
}
