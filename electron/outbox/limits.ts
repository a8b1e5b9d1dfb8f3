import type { OutboxLimits } from '../../shared/ipc/gift-cards.ts';
import { OutboxError } from './errors.ts';
import type { OpenTotals } from './store.ts';

/**
 * The exposure a kiosk accepts before the service has confirmed anything, as Stripe Terminal's
 * offline mode and Square's offline payments bound theirs: a debit accepted offline is credit the
 * store extends on a card whose balance it cannot check. Amounts are EUR; the checks run in cents.
 *
 * `maxOfflineDebitAmount` applies to every debit that becomes "stored offline": one accepted while
 * the kiosk is not known to be online or for a caller that will not wait for the answer (checked
 * before the commit), and one whose definitive answer did not come within the caller's wait
 * (checked when the wait ends: `Outbox.awaitAnswer`). The pending totals and count apply always
 * (pending rows are unconfirmed whatever the connectivity); `maxAgeMs` is enforced by the
 * sender, which expires rows that stayed unsent that long; `settledRetentionMs` by the archiver
 * (`archiver.ts`), which moves settled rows that old out of the live table.
 */
export type OfflineLimits = Readonly<OutboxLimits>;

/** What a debit offline on a card the kiosk never read may be (`unknownCardOffline`). */
export type UnknownCardPolicy = NonNullable<OutboxLimits['unknownCardOffline']>;

export const defaultUnknownCardPolicy: UnknownCardPolicy = { maxAmount: 50 };

/** How long a settled debit stays among the live rows before it moves to the archive. */
export const DEFAULT_SETTLED_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

export const defaultOfflineLimits: OfflineLimits = {
  maxOfflineDebitAmount: 150,
  maxPendingAmount: 1_000,
  maxPendingAmountPerCard: 300,
  maxPendingCount: 50,
  maxAgeMs: 72 * 60 * 60 * 1000,
  unknownCardOffline: defaultUnknownCardPolicy,
  settledRetentionMs: DEFAULT_SETTLED_RETENTION_MS,
};

export type LimitName = Exclude<
  keyof OfflineLimits,
  'maxAgeMs' | 'unknownCardOffline' | 'settledRetentionMs'
>;

export interface LimitBreach {
  readonly limit: LimitName;
  /** The configured limit (EUR, or a count for maxPendingCount). */
  readonly allowed: number;
  /** What accepting this debit would make it. */
  readonly wouldBe: number;
  /** By how much it is over: `wouldBe - allowed`. */
  readonly excess: number;
  readonly unit: 'EUR' | 'debits';
}

/**
 * A debit refused by a limit: nothing was stored, or (`withdrawnDebitId`) the row stored for it
 * was withdrawn when its answer did not come within the wait, before any byte of it reached the
 * service. Either way nothing was taken from the card.
 */
export class OfflineLimitExceeded extends OutboxError {
  override readonly name = 'OfflineLimitExceeded';
  readonly breach: LimitBreach;
  readonly withdrawnDebitId: number | null;

  constructor(breach: LimitBreach, withdrawnDebitId: number | null = null) {
    super('OUTBOX_LIMIT_EXCEEDED', limitBreachText(breach, withdrawnDebitId));
    this.breach = breach;
    this.withdrawnDebitId = withdrawnDebitId;
  }
}

/** What a breach says to staff and in kioskctl's error line. */
export function limitBreachText(breach: LimitBreach, withdrawnDebitId: number | null): string {
  const amount = (value: number) =>
    breach.unit === 'EUR' ? `${value.toFixed(2)} EUR` : `${value} debits`;
  const over = `${breach.limit} is ${amount(breach.allowed)}, accepting this debit would make it ${amount(breach.wouldBe)} (${amount(breach.excess)} over)`;
  return withdrawnDebitId === null
    ? over
    : `${over}: the service's answer did not come within the wait, so debit ${withdrawnDebitId} was withdrawn before any of it reached the service; nothing was taken`;
}

export function resolveLimits(overrides: Partial<OfflineLimits> = {}): OfflineLimits {
  const { unknownCardOffline, ...numbers } = { ...defaultOfflineLimits, ...overrides };
  const limits = {
    ...numbers,
    unknownCardOffline: resolveUnknownCardPolicy(unknownCardOffline ?? defaultUnknownCardPolicy),
  };
  for (const [name, value] of Object.entries(numbers)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new RangeError(
        `offline limit ${name} must be a finite number >= 0, got ${String(value)}`,
      );
    }
  }
  if (!Number.isInteger(limits.maxPendingCount)) {
    throw new RangeError('offline limit maxPendingCount must be an integer');
  }
  return limits;
}

function resolveUnknownCardPolicy(policy: unknown): UnknownCardPolicy {
  if (policy === 'refuse') return policy;
  const maxAmount = (policy as { maxAmount?: unknown } | null)?.maxAmount;
  if (typeof maxAmount !== 'number' || !Number.isFinite(maxAmount) || maxAmount < 0) {
    throw new RangeError(
      `offline limit unknownCardOffline must be "refuse" or { maxAmount: EUR >= 0 }, got ${JSON.stringify(policy)}`,
    );
  }
  return { maxAmount };
}

const cents = (eur: number) => Math.round(eur * 100);

/**
 * Over the per-debit offline cap: it could never be stored offline, so the sender sends it on a
 * connection of its own (never a pooled keep-alive one). With the link gone that connection never
 * opens, nothing of it leaves the kiosk, and the wait's end withdraws it as a refusal.
 */
export function neverOffline(amountEur: number, limits: OfflineLimits): boolean {
  return cents(amountEur) > cents(limits.maxOfflineDebitAmount);
}

/**
 * The first limit this debit would break, in a fixed order (the single debit, then the count,
 * then the card's total, then the overall total), or undefined when it fits every one.
 */
export function findBreach(input: {
  readonly limits: OfflineLimits;
  readonly amountCents: number;
  readonly online: boolean;
  readonly overall: OpenTotals;
  readonly card: OpenTotals;
}): LimitBreach | undefined {
  const { limits, amountCents, online, overall, card } = input;
  const money = (
    limit: LimitName,
    allowedEur: number,
    wouldBeCents: number,
  ): LimitBreach | undefined => {
    const allowedCents = cents(allowedEur);
    if (wouldBeCents <= allowedCents) return undefined;
    return {
      limit,
      allowed: allowedCents / 100,
      wouldBe: wouldBeCents / 100,
      excess: (wouldBeCents - allowedCents) / 100,
      unit: 'EUR',
    };
  };
  if (!online) {
    const breach = money('maxOfflineDebitAmount', limits.maxOfflineDebitAmount, amountCents);
    if (breach) return breach;
  }
  if (overall.count + 1 > limits.maxPendingCount) {
    return {
      limit: 'maxPendingCount',
      allowed: limits.maxPendingCount,
      wouldBe: overall.count + 1,
      excess: overall.count + 1 - limits.maxPendingCount,
      unit: 'debits',
    };
  }
  return (
    money(
      'maxPendingAmountPerCard',
      limits.maxPendingAmountPerCard,
      card.amountCents + amountCents,
    ) ?? money('maxPendingAmount', limits.maxPendingAmount, overall.amountCents + amountCents)
  );
}
