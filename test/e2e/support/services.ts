import { fileURLToPath } from 'node:url';
import type { KioskOptions } from './kiosk-host.ts';

/**
 * The services the main journeys run against. The spec leaves most records 'not shown', so a
 * real Commerce API shapes them its own way: the journeys pass on the sandbox's own shapes and on
 * the alternate dialect's (renamed, nested and missing fields, other status words, another debit
 * body) read through that dialect's integration profile. Each entry also says, independently of
 * the kiosk's profile code, where that service puts the numbers a journey looks for on screen.
 */
export interface ServiceShape {
  readonly name: string;
  readonly kiosk: KioskOptions;
  readonly saleNumber: (sale: Record<string, unknown>) => string;
  readonly invoiceNumber: (invoice: Record<string, unknown>) => string;
  /** A debit body as that service takes it (another till's debit, made in a test). */
  readonly debitBody: (amount: number, reference: string) => Record<string, unknown>;
}

export const alternateProfileFile = fileURLToPath(
  new URL('../../../sandbox/dialects/alternate.profile.json', import.meta.url),
);

const text = (value: unknown): string => {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
};

export const serviceShapes: readonly ServiceShape[] = [
  {
    name: 'the sandbox',
    kiosk: {},
    saleNumber: (sale) => text(sale['number']),
    invoiceNumber: (invoice) => text(invoice['number']),
    debitBody: (amount, reference) => ({ amount, currency: 'EUR', reference }),
  },
  {
    name: 'a service shaped another way, with its profile',
    kiosk: { dialect: 'alternate', profileFile: alternateProfileFile },
    saleNumber: (sale) => text(sale['reference']),
    invoiceNumber: (invoice) => text(invoice['invoiceNumber']),
    debitBody: (amount, reference) => ({ debit: { value: amount }, memo: reference }),
  },
];
