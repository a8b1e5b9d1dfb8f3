import { z } from 'zod';
import { DebitAmount, DebitReference, giftCardIncludes } from '../api/gift-cards.ts';
import { Amount, Id, Text } from '../api/primitives.ts';
import { EmptyRequest, IsoTime, RecordId } from './common.ts';
import { defineMessage } from './message.ts';
import { type GiftCardView, recordView, recordViewShape } from './records.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Gift cards and the durable debit outbox. A debit is accepted only once it is committed locally;
 * the reply says whether it is already settled (within `waitMs`) or still on its way, and every
 * later change arrives as an `outboxChanged` event.
 *
 * The outbox's states, policies, limits and summary are declared here once: `electron/outbox`
 * stores and counts them, the renderer shows them, and a value added in one place is then known
 * to both.
 */

export const debitStates = [
  'pending',
  'sending',
  'applied',
  'refused',
  'failed',
  'expired',
  'cancelled',
] as const;
export const DebitState = lazySchema(() => z.enum(debitStates));
export type DebitState = z.infer<typeof DebitState>;

/**
 * Open: accepted and not settled yet, waiting (`pending`) or under an attempt (`sending`). "Pending"
 * is only ever the one state; what counts both is "open".
 */
export const openDebitStates = ['pending', 'sending'] as const satisfies readonly DebitState[];
export type OpenDebitState = (typeof openDebitStates)[number];
export function isOpenDebitState(state: DebitState): state is OpenDebitState {
  return (openDebitStates as readonly DebitState[]).includes(state);
}

/**
 * Settled without taking the money (refused, failed or expired). Until staff record what they did
 * about one (`staffResolution`) it needs attention: the red alert, the `attention` list and count.
 */
export const attentionDebitStates = [
  'refused',
  'failed',
  'expired',
] as const satisfies readonly DebitState[];
export type AttentionDebitState = (typeof attentionDebitStates)[number];

/**
 * `prefer_online`: accepted offline too, within the offline limits. `require_online`: refused
 * unless the service looks reachable (the staff choice for a large amount).
 */
export const debitPolicies = ['prefer_online', 'require_online'] as const;
export const DebitPolicy = lazySchema(() => z.enum(debitPolicies));
export type DebitPolicy = z.infer<typeof DebitPolicy>;

/**
 * Who settled a debit (brought it to a final state): the service's answer, a reconciliation read,
 * staff, or the max-age rule. What staff later record about one that needs attention is its resolution.
 */
export const DebitSettledBy = lazySchema(() =>
  z.enum(['service', 'reconciliation', 'staff', 'expiry']),
);
export type DebitSettledBy = z.infer<typeof DebitSettledBy>;

/**
 * What staff did about a debit refused, failed or expired after the fact (the customer gone):
 * collected the money another way (how), or could not collect it.
 */
export const staffResolutionKinds = ['collected_other_way', 'could_not_collect'] as const;
export const collectionMethods = ['cash', 'card', 'other'] as const;
export const CollectionMethod = lazySchema(() => z.enum(collectionMethods));
export type CollectionMethod = z.infer<typeof CollectionMethod>;
export const StaffResolutionInput = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('collected_other_way'), method: CollectionMethod }),
    z.strictObject({ kind: z.literal('could_not_collect') }),
  ]),
);
export type StaffResolutionInput = z.infer<typeof StaffResolutionInput>;
export const StaffResolution = lazySchema(() =>
  z.object({
    kind: z.enum(staffResolutionKinds),
    /** collected_other_way only. */
    method: CollectionMethod.nullable(),
    at: IsoTime,
  }),
);
export type StaffResolution = z.infer<typeof StaffResolution>;

/**
 * What the service told us: its receipt, or the usage a reconciliation found, each read through
 * the integration profile in force when it came (a value it could not find is null).
 */
export const DebitReply = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('receipt'), receipt: recordView('debitReceipt') }),
    z.object({ kind: z.literal('usage'), usage: recordView('giftCardUsage') }),
  ]),
);
export type DebitReply = z.infer<typeof DebitReply>;

/**
 * `send-now`: the kiosk looks online, the sender tries the debit immediately.
 * `stored-offline`: the service looks unreachable; the debit is kept and sent when it is back.
 */
export const DebitDelivery = lazySchema(() => z.enum(['send-now', 'stored-offline']));
export type DebitDelivery = z.infer<typeof DebitDelivery>;

export const ConnectivityState = lazySchema(() => z.enum(['online', 'degraded', 'offline']));
export type ConnectivityState = z.infer<typeof ConnectivityState>;
/** The outbox also knows `unknown` (no monitor yet). */
export const OutboxConnectivity = lazySchema(() =>
  z.enum(['online', 'degraded', 'offline', 'unknown']),
);
export type OutboxConnectivity = z.infer<typeof OutboxConnectivity>;

/** The outbox appends a 17-character unique suffix to the caller's reference (64 in all). */
export const MAX_DEBIT_REFERENCE_LENGTH = 47;

/**
 * The caller's reference (a sale number...): the service's rule (`DebitReference`) with room for
 * the outbox's suffix, surrounding spaces trimmed. The one rule of every door: this message,
 * `kioskctl outbox enqueue --reference` and `Outbox.enqueue` itself.
 */
export const CallerDebitReference = lazySchema(() =>
  z.string().trim().pipe(DebitReference.max(MAX_DEBIT_REFERENCE_LENGTH)),
);

/**
 * A card's code as printed on it or read by a scanner; main turns it into the service's id with
 * the integration profile's `scan` rule (`giftCardIdFromScan`).
 */
export const GiftCardCode = lazySchema(() => Text.min(1).max(256));

/** A code the integration profile's `scan` rule does not recognise: not a card of this service. */
export const GIFT_CARD_CODE_UNRECOGNISED = 'GIFT_CARD_CODE_UNRECOGNISED';

const giftCardInclude = lazySchema(() =>
  z.array(z.enum(giftCardIncludes)).min(1).max(giftCardIncludes.length).optional(),
);

/** By the service's id (a credit names it), or by the code staff typed or scanned. */
export const GetGiftCardRequest = lazySchema(() =>
  z.union([
    z.strictObject({ giftCardId: RecordId, include: giftCardInclude }),
    z.strictObject({ code: GiftCardCode, include: giftCardInclude }),
  ]),
);
export type GetGiftCardRequest = z.input<typeof GetGiftCardRequest>;

/**
 * One logical debit: minted (UUID v4) when staff confirm, sent again with every retry of that
 * confirmation until an outcome is on screen. The outbox stores at most one debit per request id:
 * a retry gets the debit already stored (its state, its receipt), never a second one.
 */
export const DebitRequestId = lazySchema(() => z.uuid({ version: 'v4' }));

export const DebitGiftCardRequest = lazySchema(() =>
  z.strictObject({
    requestId: DebitRequestId,
    giftCardId: RecordId,
    /** EUR, positive, at most two decimals (the API's own rule). */
    amount: DebitAmount,
    /** The sale number or any staff reference; found back in the card's usages. */
    reference: CallerDebitReference.optional(),
    policy: DebitPolicy,
    /** How long to wait for the service's answer before replying (0: reply once stored). */
    waitMs: z.number().int().min(0).max(30_000).optional(),
  }),
);
export type DebitGiftCardRequest = z.input<typeof DebitGiftCardRequest>;

/**
 * Why a debit is held: for an administrator, the service refused the request itself (400: the
 * integration profile's body) or the account may not debit (403), neither applied; for a person,
 * `DEBIT_OUTCOME_UNKNOWN`: an attempt may have reached the service and nothing proves whether it
 * was applied (see `OutcomeUnknownReason`).
 */
export const HeldDebitCode = lazySchema(() =>
  z.enum(['DEBIT_REQUEST_REFUSED', 'DEBIT_SCOPE_MISSING', 'DEBIT_OUTCOME_UNKNOWN']),
);
export type HeldDebitCode = z.infer<typeof HeldDebitCode>;

/**
 * Why the outcome of a debit is unknown. An attempt may have reached the service, and:
 * `USAGES_UNVERIFIED`: the card's usages do not show it, but the contract check never verified
 * (on a card with usages) that this service fills them where this profile reads them: an empty
 * list is no proof. `USAGES_UNREADABLE`: the usages cannot be read at all. `KEY_REUSED`: the
 * service answered 409 to a key it had seen with another body (the kiosk broke its own rule; not
 * a refusal). `REPLY_UNREADABLE`: the service's reply to it could not be read.
 * `OVER_OFFLINE_LIMIT`: the caller's wait ended without the service's answer on a debit over the
 * offline limits that may have reached the service: staff were told it was not taken as an
 * offline debit, so it is never sent again by itself (only a person's "not applied, send again").
 */
export const outcomeUnknownReasons = [
  'USAGES_UNVERIFIED',
  'USAGES_UNREADABLE',
  'KEY_REUSED',
  'REPLY_UNREADABLE',
  'OVER_OFFLINE_LIMIT',
] as const;
export const OutcomeUnknownReason = lazySchema(() => z.enum(outcomeUnknownReasons));
export type OutcomeUnknownReason = z.infer<typeof OutcomeUnknownReason>;

/** A balance as read from the service, and when (evidence to show staff, never proof). */
export const BalanceReading = lazySchema(() => z.object({ amount: Amount, at: IsoTime }));
export type BalanceReading = z.infer<typeof BalanceReading>;

/** What staff recorded about a debit whose outcome was unknown: who, and when. */
export const staffOutcomes = ['applied', 'not_applied'] as const;
export const StaffOutcome = lazySchema(() =>
  z.object({ outcome: z.enum(staffOutcomes), by: z.string(), at: IsoTime }),
);
export type StaffOutcome = z.infer<typeof StaffOutcome>;

/** A debit held as "outcome unknown": since when, why, and the card before and now. */
export const OutcomeUnknown = lazySchema(() =>
  z.object({
    since: IsoTime,
    reason: OutcomeUnknownReason,
    /** The card as this kiosk last read it before the first attempt; null: never read. */
    balanceBefore: BalanceReading.nullable(),
    /** The card as last read from the service while the debit is held; null: not read yet. */
    balanceNow: BalanceReading.nullable(),
  }),
);
export type OutcomeUnknown = z.infer<typeof OutcomeUnknown>;

/** One outbox entry as staff see it (the idempotency key and raw body stay in main). */
export const DebitView = lazySchema(() =>
  z.object({
    id: z.number().int().positive(),
    giftCardId: Id,
    amount: Amount,
    reference: z.string(),
    policy: DebitPolicy,
    acceptedOffline: z.boolean(),
    state: DebitState,
    attempts: z.number().int().min(0),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    lastAttemptAt: IsoTime.nullable(),
    /** Open entries: when the next try is due. */
    nextAttemptAt: IsoTime.nullable(),
    lastError: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** The balance the service computed after this debit; null when not known. */
    newBalance: Amount.nullable(),
    reply: DebitReply.nullable(),
    settledAt: IsoTime.nullable(),
    settledBy: DebitSettledBy.nullable(),
    acknowledged: z.boolean(),
    /**
     * The request id that stored it (the screen's, or one the outbox minted; null only for a debit
     * stored before request ids existed): a screen knows its own debit by it in every reply and
     * event, whatever order they arrive in.
     */
    requestId: z.string().nullable(),
    /** The card's masked number when the kiosk has read it (else staff see the id's end). */
    maskedNumber: z.string().nullable().optional(),
    /** Refused, failed or expired and nothing recorded yet: the red alert on every screen. */
    needsAttention: z.boolean().optional(),
    /** What staff recorded about it once refused, failed or expired; null until then. */
    staffResolution: StaffResolution.nullable().optional(),
    /**
     * Pending because the service refused the request itself (400: the integration profile's
     * body; 403: the account's scopes): what it said and that an administrator must act. Null
     * otherwise.
     */
    heldReason: z.object({ code: HeldDebitCode, message: z.string() }).nullable().optional(),
    /** Held for a person: the outcome of an attempt that may have reached the service is unknown. */
    outcomeUnknown: OutcomeUnknown.nullable().optional(),
    /** What staff recorded once its outcome was unknown ("applied" / "not applied, send again"). */
    staffOutcome: StaffOutcome.nullable().optional(),
  }),
);
export type DebitView = z.infer<typeof DebitView>;

export const DebitGiftCardReply = lazySchema(() =>
  z.object({
    debit: DebitView,
    delivery: DebitDelivery,
    connectivity: OutboxConnectivity,
    /** The debit reached a final state (applied, refused...) within `waitMs`. */
    settled: z.boolean(),
    /** This request id was already stored: the debit is the one accepted then, not a new one. */
    replayed: z.boolean(),
  }),
);
export type DebitGiftCardReply = z.infer<typeof DebitGiftCardReply>;

export const ListDebitsRequest = lazySchema(() =>
  z.strictObject({
    /**
     * `open`: pending and sending. `attention`: the debits that need attention (refused, failed
     * or expired, nothing recorded by staff yet: the alert). `recent`: the latest in any state.
     */
    view: z.enum(['open', 'attention', 'recent']),
    limit: z.number().int().min(1).max(200).optional(),
  }),
);
export type ListDebitsRequest = z.input<typeof ListDebitsRequest>;

export const ListDebitsReply = lazySchema(() => z.object({ debits: z.array(DebitView) }));
export type ListDebitsReply = z.infer<typeof ListDebitsReply>;

export const DebitIdRequest = lazySchema(() =>
  z.strictObject({
    debitId: z
      .number()
      .int()
      .positive()
      .max(2 ** 53 - 1),
  }),
);
export type DebitIdRequest = z.input<typeof DebitIdRequest>;

/**
 * Staff's word on a debit held as "outcome unknown": `applied` (the money was taken: the debit is
 * settled applied, nothing is sent) or `not_applied` (nothing was taken: it is sent again). `by`
 * names who decided (initials, a staff number), kept with the time.
 */
export const ResolveUnknownDebitRequest = lazySchema(() =>
  DebitIdRequest.extend({
    outcome: z.enum(staffOutcomes),
    by: z.string().trim().pipe(Text.min(1).max(64)),
  }),
);
export type ResolveUnknownDebitRequest = z.input<typeof ResolveUnknownDebitRequest>;

/** Everything the kiosk knows about a debit, for a person deciding its outcome. */
export const DebitEvidence = lazySchema(() =>
  z.object({
    debit: DebitView,
    /**
     * Every Idempotency-Key it went out under, oldest first (the first 8 characters: enough to
     * match the service's logs with `kioskctl outbox show`, which prints them whole).
     */
    keys: z.array(
      z.object({
        key: z.string(),
        firstUsedAt: IsoTime.nullable(),
        replacedAt: IsoTime.nullable(),
      }),
    ),
    firstAttemptAt: IsoTime.nullable(),
    /** The card's balance read from the service for this request; null when unreachable. */
    balanceNow: BalanceReading.nullable(),
  }),
);
export type DebitEvidence = z.infer<typeof DebitEvidence>;

export const ResolveDebitRequest = lazySchema(() =>
  DebitIdRequest.extend({ resolution: StaffResolutionInput }),
);
export type ResolveDebitRequest = z.input<typeof ResolveDebitRequest>;

/** A local calendar day, as the end-of-day report is asked for. */
export const ReportDate = lazySchema(() => z.iso.date());

export const DayReportRequest = lazySchema(() => z.strictObject({ date: ReportDate }));
export type DayReportRequest = z.input<typeof DayReportRequest>;

/** Every debit accepted on one local day, oldest first, with its state and any resolution. */
export const DayReport = lazySchema(() =>
  z.object({
    date: ReportDate,
    debits: z.array(DebitView),
  }),
);
export type DayReport = z.infer<typeof DayReport>;

export const SenderStatus = lazySchema(() =>
  z.object({
    running: z.boolean(),
    /** Another process (kioskctl) may be the one sending. */
    holdsLease: z.boolean(),
    /** Credentials were rejected: nothing is sent until an administrator fixes them. */
    paused: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** Nothing is sent before this time (backoff or Retry-After). */
    gateUntil: IsoTime.nullable(),
    inFlight: z.number().int().min(0),
  }),
);
export type SenderStatus = z.infer<typeof SenderStatus>;

/** The offline limits in force (`electron/outbox/limits.ts` says how each one is enforced). */
export const OutboxLimits = lazySchema(() =>
  z.object({
    /** Largest single debit accepted while not online (EUR). */
    maxOfflineDebitAmount: z.number(),
    /** Largest sum of unconfirmed debits, all cards together (EUR). */
    maxPendingAmount: z.number(),
    /** Largest sum of unconfirmed debits on one card (EUR). */
    maxPendingAmountPerCard: z.number(),
    /** Most unconfirmed debits at once. */
    maxPendingCount: z.number().int(),
    /** A debit still unsent after this long becomes `expired` (terminal, shown to staff). */
    maxAgeMs: z.number(),
    /**
     * A card the kiosk never read, debited while offline: refused, or accepted up to `maxAmount`
     * (EUR). Absent: the default (`electron/outbox/limits.ts`).
     */
    unknownCardOffline: z
      .union([z.literal('refuse'), z.strictObject({ maxAmount: z.number() })])
      .optional(),
    /**
     * A settled debit older than this (on the service's clock) moves to the archive, still read
     * by the end-of-day report and kioskctl. Absent: the default (`electron/outbox/limits.ts`).
     */
    settledRetentionMs: z.number().optional(),
  }),
);
export type OutboxLimits = z.infer<typeof OutboxLimits>;

/**
 * Whether the card may be debited, by the integration profile's `statuses.giftCardDebitable`:
 * null when its status is unknown (not provided, or never read). The screens allow a debit
 * unless it is false.
 */
const Debitable = lazySchema(() => z.boolean().nullable());

/** The card as the service returned it, read through the integration profile. */
export type ServiceGiftCard = Omit<GiftCardView, 'id'> & {
  readonly source: 'service';
  readonly id: string;
  readonly debitable: boolean | null;
};
export const ServiceGiftCard = lazySchema(
  () =>
    z.strictObject(recordViewShape('giftCard')).extend({
      source: z.literal('service'),
      id: Id,
      debitable: Debitable,
    }) as unknown as z.ZodType<ServiceGiftCard, ServiceGiftCard>,
);

/**
 * A look-up the service could not answer (unreachable): the card as this kiosk last read it
 * (`asOf`), or, never read here, its id alone (`asOf` null, every value null). Offline debits
 * are checked against it (`electron/outbox/offline-card-check.ts`).
 */
export const CachedGiftCard = lazySchema(() =>
  z.strictObject({
    source: z.literal('cache'),
    id: Id,
    maskedNumber: z.string().nullable(),
    status: z.string().nullable(),
    balance: Amount.nullable(),
    expiresOn: z.string().nullable(),
    asOf: IsoTime.nullable(),
    debitable: Debitable,
  }),
);
export type CachedGiftCard = z.infer<typeof CachedGiftCard>;

/** What a look-up shows: the service's card, or, offline, the kiosk's last read of it. */
export const GiftCardLookup = lazySchema(() => z.union([ServiceGiftCard, CachedGiftCard]));
export type GiftCardLookup = ServiceGiftCard | CachedGiftCard;

export const RecentCardsRequest = lazySchema(() =>
  z.strictObject({
    limit: z.number().int().min(1).max(20).optional(),
  }),
);
export type RecentCardsRequest = z.input<typeof RecentCardsRequest>;

/**
 * A card this kiosk read lately, to open it again in one touch: its masked number (what staff
 * see), its service id (to open it), when it was read. Nothing else: no balance, no holder.
 */
export const RecentCard = lazySchema(() =>
  z.strictObject({ id: Id, maskedNumber: z.string(), readAt: IsoTime }),
);
export type RecentCard = z.infer<typeof RecentCard>;

export const RecentCardsReply = lazySchema(() => z.object({ cards: z.array(RecentCard) }));
export type RecentCardsReply = z.infer<typeof RecentCardsReply>;

export const OutboxSummary = lazySchema(() =>
  z.object({
    /** Open debits, pending or being sent (`sendingCount` of them). */
    openCount: z.number().int().min(0),
    /** EUR. */
    openAmount: Amount,
    oldestOpenAgeMs: z.number().nullable(),
    sendingCount: z.number().int().min(0),
    /** Open debits held for a person: their outcome is unknown (counted in openCount too). */
    outcomeUnknown: z.number().int().min(0).optional(),
    /** The debits that need attention (the `attention` list), by state. */
    attention: z.object({
      refused: z.number().int(),
      failed: z.number().int(),
      expired: z.number().int(),
      total: z.number().int(),
    }),
  }),
);
export type OutboxSummary = z.infer<typeof OutboxSummary>;

export const OutboxSummaryReply = lazySchema(() =>
  OutboxSummary.extend({
    sender: SenderStatus.nullable(),
    limits: OutboxLimits,
  }),
);
export type OutboxSummaryReply = z.infer<typeof OutboxSummaryReply>;

export const SendNowReply = lazySchema(() => z.object({ sender: SenderStatus.nullable() }));
export type SendNowReply = z.infer<typeof SendNowReply>;

export const giftCardMessages = {
  getGiftCard: defineMessage('getGiftCard', {
    group: 'gift-cards',
    summary: 'Look a gift card up (masked number, balance); offline, the last read of it',
    request: GetGiftCardRequest,
    reply: GiftCardLookup,
  }),
  listRecentCards: defineMessage('listRecentCards', {
    group: 'gift-cards',
    summary: 'The cards this kiosk read last, newest first (masked numbers only)',
    request: RecentCardsRequest,
    reply: RecentCardsReply,
  }),
  debitGiftCard: defineMessage('debitGiftCard', {
    group: 'gift-cards',
    summary: 'Accept a debit into the outbox, optionally waiting for its outcome',
    request: DebitGiftCardRequest,
    reply: DebitGiftCardReply,
  }),
  listDebits: defineMessage('listDebits', {
    group: 'gift-cards',
    summary: 'Outbox entries: open, needing attention, or recent',
    request: ListDebitsRequest,
    reply: ListDebitsReply,
  }),
  sendOutboxNow: defineMessage('sendOutboxNow', {
    group: 'gift-cards',
    summary: 'Try the due debits now',
    request: EmptyRequest,
    reply: SendNowReply,
  }),
  cancelDebit: defineMessage('cancelDebit', {
    group: 'gift-cards',
    summary: 'Withdraw a debit that was never sent',
    request: DebitIdRequest,
    reply: DebitView,
  }),
  acknowledgeDebit: defineMessage('acknowledgeDebit', {
    group: 'gift-cards',
    summary: 'Staff saw a refused, failed or expired debit',
    request: DebitIdRequest,
    reply: DebitView,
  }),
  resolveDebit: defineMessage('resolveDebit', {
    group: 'gift-cards',
    summary: 'Record how staff resolved a debit that needs attention (refused, failed or expired)',
    request: ResolveDebitRequest,
    reply: DebitView,
  }),
  getDayReport: defineMessage('getDayReport', {
    group: 'gift-cards',
    summary: 'The end-of-day report: every debit of a local day, with its resolution',
    request: DayReportRequest,
    reply: DayReport,
  }),
  getOutboxSummary: defineMessage('getOutboxSummary', {
    group: 'gift-cards',
    summary: 'Open count and amount, the debits that need attention, the sender and the limits',
    request: EmptyRequest,
    reply: OutboxSummaryReply,
  }),
} as const;

/**
 * A debit held as "outcome unknown" (`DebitView.outcomeUnknown`): what the kiosk knows of it, and
 * staff's word on it. Handled apart from the other gift-card messages
 * (`electron/kiosk/handlers/debit-outcomes.ts`).
 */
export const debitOutcomeMessages = {
  getDebitEvidence: defineMessage('getDebitEvidence', {
    group: 'gift-cards',
    summary: 'What the kiosk knows of a debit (keys, times, the balance before and now)',
    request: DebitIdRequest,
    reply: DebitEvidence,
  }),
  resolveUnknownDebit: defineMessage('resolveUnknownDebit', {
    group: 'gift-cards',
    summary: 'Record who says a debit of unknown outcome was applied, or not (sent again)',
    request: ResolveUnknownDebitRequest,
    reply: DebitView,
  }),
} as const;
