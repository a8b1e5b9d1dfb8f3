/** How the report counts things and money in its sentences. */

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function euros(amount: number): string {
  return `${amount.toFixed(2)} EUR`;
}

/** EUR, summed in cents: 0.1 + 0.2 stays 0.30. */
export function sumOf(debits: readonly { readonly amount: number }[]): number {
  return (
    Math.round(debits.reduce((total, debit) => total + Math.round(debit.amount * 100), 0)) / 100
  );
}
