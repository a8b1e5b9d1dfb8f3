import type { HistoryEntry } from '../../shared/api/customers.ts';
import { demoCustomers } from './demo.ts';
import { documentNumber, prefixedUuid } from './ids.ts';
import type { SandboxData, StoredProduct } from './model.ts';
import { toCents, fromCents } from './money.ts';
import type { Random } from './random.ts';
import { productLine } from './sale-drafts.ts';
import { DAY, HOUR, daysAgoAt, iso, openingHoursBetween, yearOf } from './time.ts';

/**
 * Customer orders (click-and-collect, home delivery), only ever seen through the customer history.
 * Recent orders are still in progress; older ones are delivered or cancelled.
 */

function statusFor(random: Random, age: number): string {
  if (age < 10 * DAY) return random.pick(['pending', 'ready_for_pickup', 'in_delivery']);
  return random.chance(0.9) ? 'delivered' : 'cancelled';
}

export function seedOrders(
  data: SandboxData,
  random: Random,
  pool: readonly StoredProduct[],
  now: number,
): void {
  const drafts: { customerId: string; entry: HistoryEntry; at: number }[] = [];
  for (const customer of data.customers.values()) {
    const main = customer.uuid === demoCustomers.main;
    const count = main ? 2 : random.chance(0.5) ? random.int(1, 3) : 0;
    for (let i = 0; i < count; i++) {
      // The main customer has one order in progress and one delivered.
      const at =
        main && i === 0
          ? daysAgoAt(now, 2, 18, 12)
          : openingHoursBetween(random, now - 400 * DAY, now - HOUR);
      const age = now - at;
      const line = productLine(random, pool, customer.shopId);
      drafts.push({
        customerId: customer.uuid,
        at,
        entry: {
          uuid: prefixedUuid('order', random),
          number: '',
          date: iso(at),
          status: main && i === 1 ? 'delivered' : statusFor(random, age),
          // Web orders shipped from the warehouse belong to no shop.
          shopId: random.chance(0.2) ? null : customer.shopId,
          // A quote awaiting its price has no total yet.
          totalInclTax: random.chance(0.05) ? null : fromCents(toCents(line.line.totalInclTax)),
          currency: 'EUR',
        },
      });
    }
  }
  drafts.sort((a, b) => a.at - b.at);
  const sequences = new Map<number, number>();
  for (const { customerId, entry, at } of drafts) {
    const year = yearOf(at);
    const sequence = (sequences.get(year) ?? 300) + random.int(1, 30);
    sequences.set(year, sequence);
    entry.number = documentNumber('CMD', year, sequence, 6);
    const list = data.orders.get(customerId) ?? [];
    list.push(entry);
    data.orders.set(customerId, list);
  }
}
