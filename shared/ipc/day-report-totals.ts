import type { DebitState, DebitView } from './gift-cards.ts';

export interface DayReportTotal {
  readonly state: DebitState;
  readonly count: number;
  /** In euros, summed in cents so that 0.10 + 0.20 is 0.30. */
  readonly amount: number;
}

/**
 * The end-of-day report's totals, one per state present, in the states' order: applied money
 * and refused money are never added together, since only one of them was collected.
 */
export function dayReportTotals(
  debits: readonly Pick<DebitView, 'state' | 'amount'>[],
  states: readonly DebitState[],
): DayReportTotal[] {
  return states.flatMap((state) => {
    const of = debits.filter((debit) => debit.state === state);
    if (of.length === 0) return [];
    const cents = of.reduce((sum, debit) => sum + Math.round(debit.amount * 100), 0);
    return [{ state, count: of.length, amount: cents / 100 }];
  });
}
