import { type IntegrationProfile, statusIn } from '../../shared/profile/index.ts';
import type { CachedCard } from './card-cache.ts';
import { OutboxError } from './errors.ts';
import type { UnknownCardPolicy } from './limits.ts';

/**
 * A debit whose answer does not come in time (the link dropped seconds ago, and the kiosk does not
 * know it yet; or it is known offline) is refused by the service only after the customer has
 * left: so the kiosk refuses first, on every debit whatever it believes about the network,
 * what the freshest read of the card it has says the card cannot cover. (Online the service
 * would refuse it too: nothing is lost by refusing it here, seconds earlier.) These are the
 * figures staff are shown with the refusal; looking the card up again reads it afresh.
 */
export type OfflineCardRefusal =
  | {
      readonly rule: 'OUTBOX_OVER_KNOWN_BALANCE';
      /** EUR, as read at `asOf`. */
      readonly knownBalance: number;
      /** EUR of debits on this card not yet confirmed by the service. */
      readonly pending: number;
      /** `knownBalance - pending`, never below 0: the most this debit may be. */
      readonly available: number;
      readonly amount: number;
      readonly asOf: number;
    }
  | {
      readonly rule: 'OUTBOX_UNKNOWN_CARD';
      /** null: the policy refuses every such debit. */
      readonly maxAmount: number | null;
      readonly amount: number;
    }
  | {
      readonly rule: 'OUTBOX_CARD_NOT_DEBITABLE';
      readonly status: string;
      readonly asOf: number;
    };

/** A debit refused by what the kiosk last read of the card; nothing was stored. */
export class OfflineCardRefused extends OutboxError {
  override readonly name = 'OfflineCardRefused';
  readonly refusal: OfflineCardRefusal;

  constructor(refusal: OfflineCardRefusal) {
    const eur = (value: number) => `${value.toFixed(2)} EUR`;
    const asOf = (ms: number) => new Date(ms).toISOString();
    super(
      refusal.rule,
      refusal.rule === 'OUTBOX_OVER_KNOWN_BALANCE'
        ? `the card's balance was ${eur(refusal.knownBalance)} at ${asOf(refusal.asOf)} and ${eur(refusal.pending)} of debits still wait: at most ${eur(refusal.available)} may be debited, not ${eur(refusal.amount)}; nothing was stored (look the card up again to read its balance now)`
        : refusal.rule === 'OUTBOX_UNKNOWN_CARD'
          ? refusal.maxAmount === null
            ? 'this kiosk never read this card and refuses debits on cards it has not read; nothing was stored (look the card up first)'
            : `this kiosk never read this card: at most ${eur(refusal.maxAmount)} may be debited on it before the service confirms, not ${eur(refusal.amount)}; nothing was stored (look the card up first)`
          : `the card was ${refusal.status} at ${asOf(refusal.asOf)}: it cannot be debited; nothing was stored (look the card up again if that changed)`,
    );
    this.refusal = refusal;
  }
}

/**
 * Whether a card with this status may be debited, by the profile's `statuses.giftCardDebitable`:
 * null when the status is unknown (it blocks nothing).
 */
export function debitableByStatus(
  profile: IntegrationProfile,
  status: string | null,
): boolean | null {
  return statusIn(profile.statuses.giftCardDebitable, status);
}

/**
 * The refusal for this debit, or undefined when what the kiosk knows of the card allows it. Run
 * on every debit, whatever the connectivity. A card with no balance we understood is treated as
 * one never read.
 */
export function findOfflineCardRefusal(input: {
  readonly profile: IntegrationProfile;
  readonly card: CachedCard | undefined;
  readonly amountCents: number;
  /** Debits on this card not confirmed by the service, EUR cents. */
  readonly pendingCents: number;
  readonly unknownCard: UnknownCardPolicy;
}): OfflineCardRefusal | undefined {
  const { card, amountCents, pendingCents, unknownCard } = input;
  if (card && debitableByStatus(input.profile, card.status) === false) {
    return { rule: 'OUTBOX_CARD_NOT_DEBITABLE', status: card.status!, asOf: card.readAt };
  }
  if (card?.balance == null) {
    const maxAmount = unknownCard === 'refuse' ? null : unknownCard.maxAmount;
    if (maxAmount !== null && amountCents <= Math.round(maxAmount * 100)) return undefined;
    return { rule: 'OUTBOX_UNKNOWN_CARD', maxAmount, amount: amountCents / 100 };
  }
  const knownCents = Math.round(card.balance * 100);
  const availableCents = Math.max(0, knownCents - pendingCents);
  if (amountCents <= availableCents) return undefined;
  return {
    rule: 'OUTBOX_OVER_KNOWN_BALANCE',
    knownBalance: knownCents / 100,
    pending: pendingCents / 100,
    available: availableCents / 100,
    amount: amountCents / 100,
    asOf: card.readAt,
  };
}
