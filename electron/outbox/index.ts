import type { IntegrationProfile } from '../../shared/profile/index.ts';
import type { CommerceApiClient } from '../api/index.ts';
import type { Clock } from '../foundation/index.ts';
import type { Logger } from '../logging/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { connectivityOf, createApiGateway } from './api-gateway.ts';
import type { OfflineLimits } from './limits.ts';
import { type BackOnlineOptions, liftBackoffWhenBackOnline } from './back-online.ts';
import { OutboxArchiver, type OutboxArchiverOptions } from './archiver.ts';
import { Outbox } from './outbox.ts';
import { OutboxSender, type SenderOptions } from './sender.ts';

/** The durable gift-card debit outbox. Everything the main process needs is exported here. */
export { connectivityOf, createApiGateway, outboxClientRetry } from './api-gateway.ts';
export {
  type BackOnlineOptions,
  DEFAULT_BACK_ONLINE_WINDOW_MS,
  liftBackoffWhenBackOnline,
} from './back-online.ts';
export { InvalidDebit, OutboxError, type OutboxErrorCode } from './errors.ts';
export type { ConnectivityStatus, OutboxEvent, OutboxEvents } from './events.ts';
export type { DebitGateway, UsageLookup } from './gateway.ts';
export {
  DEFAULT_SETTLED_RETENTION_MS,
  defaultOfflineLimits,
  OfflineLimitExceeded,
  type LimitBreach,
  type LimitName,
  type OfflineLimits,
  resolveLimits,
} from './limits.ts';
export { debitsMigration } from './migrations/001-debits.ts';
export { requestIdsMigration } from './migrations/004-request-ids.ts';
export { serviceTimesMigration } from './migrations/005-service-times.ts';
export { cardCacheMigration } from './migrations/006-card-cache.ts';
export { type CachedCard, cardValuesOf, cardValuesOfView } from './card-cache.ts';
export { cachedGiftCardLookupOf, giftCardLookupOf } from './gift-card-lookup.ts';
export {
  OfflineCardRefused,
  type OfflineCardRefusal,
  debitableByStatus,
} from './offline-card-check.ts';
export { resolutionsMigration } from './migrations/007-resolutions.ts';
export { debitKeysMigration } from './migrations/008-debit-keys.ts';
export { archiveMigration } from './migrations/013-archive.ts';
export {
  type ArchiveRun,
  DEFAULT_ARCHIVE_INTERVAL_MS,
  OutboxArchiver,
  type OutboxArchiverOptions,
} from './archiver.ts';
export { archivableStates } from './archive.ts';
export { outcomeEvidenceMigration } from './migrations/014-outcome-evidence.ts';
export { settledAtMigration } from './migrations/015-settled-at.ts';
export { attentionIndexMigration } from './migrations/016-attention-index.ts';
export { unsettledDebits } from './migrations/unsettled-debits.ts';
export { localDayBounds, localDateOf } from './day-bounds.ts';
export {
  AnswerAwaited,
  isHeldOverLimit,
  isWithdrawn,
  Outbox,
  OverLimitOutcomeUnknown,
  type EnqueueInput,
  type EnqueueResult,
  type Outcome,
  type OutboxOptions,
  type RebuildReport,
  type RebuiltDebit,
} from './outbox.ts';
export { defaultReconcileSettings, type ReconcileSettings } from './reconcile.ts';
export { rebuildAfterEvidence, resolveUnknownOutcome } from './unknown-outcome.ts';
export {
  recordUsageCheck,
  recordUsageCheckIn,
  type UsageCheckVerdict,
  usageFingerprint,
  usagesVerified,
  usageVerdictOf,
} from './usage-evidence.ts';
export { defaultSenderRetry, type SenderRetrySettings } from './retry-schedule.ts';
export {
  localHolderAlive,
  OutboxSender,
  SENDER_LEASE,
  type DrainReport,
  type DrainResult,
  type SenderOptions,
  type SenderStatus,
} from './sender.ts';
export {
  type DebitKey,
  heldReasonOf,
  isOutcomeUnknown,
  isSettled,
  needsAttention,
  type OutboxDebit,
  type StaffResolutionRecord,
} from './debit.ts';
export {
  debitStates,
  type DebitPolicy,
  type DebitReply,
  type DebitState,
  type OutboxSummary,
} from '../../shared/ipc/gift-cards.ts';

export interface OutboxServiceOptions {
  readonly db: KioskDatabase;
  /**
   * A client of its own, built with `outboxClientRetry` (one HTTP attempt per call: the sender
   * records and schedules every retry itself).
   */
  readonly client: CommerceApiClient;
  readonly limits?: Partial<OfflineLimits>;
  readonly shopId?: string;
  /** The integration profile, or a getter of the one in force (default: the sandbox's dialect). */
  readonly profile?: IntegrationProfile | (() => IntegrationProfile);
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** Hears what an outbox event listener threw (it stops neither the others nor the sender). */
  readonly onListenerError?: (error: unknown) => void;
  readonly sender?: Partial<Omit<SenderOptions, 'outbox' | 'gateway' | 'logger'>>;
  readonly archiver?: Partial<Omit<OutboxArchiverOptions, 'outbox' | 'serviceNow' | 'logger'>>;
  /** When the sender's backoff is lifted after an outage (default: the sender's `random`). */
  readonly backOnline?: BackOnlineOptions;
}

export interface OutboxService {
  readonly outbox: Outbox;
  readonly sender: OutboxSender;
  /** Moves settled debits past their retention to the archive, in the background. */
  readonly archiver: OutboxArchiver;
  /** Starts the sender and the archiver in the background. */
  start(): void;
  /**
   * Stops the sender (attempts under way finish and are recorded) and releases its lease, and
   * stops the archiver between two batches.
   */
  stop(): Promise<void>;
}

/**
 * The outbox as the kiosk app runs it (`createKioskServices`), and as the tests and the fleet
 * simulation run it: accepting debits, a sender and an archiver to start in the background, and
 * the sender's backoff lifted whenever the connectivity monitor sees the service again, so stored
 * debits go out at once rather than at the end of a backoff. Nothing runs until `start()`.
 */
export function createOutboxService(options: OutboxServiceOptions): OutboxService {
  const outbox = new Outbox({
    db: options.db,
    connectivity: connectivityOf(options.client),
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.shopId === undefined ? {} : { shopId: options.shopId }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
  });
  const sender = new OutboxSender({
    outbox,
    gateway: createApiGateway(options.client, () => outbox.profile),
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.sender,
  });
  const off = liftBackoffWhenBackOnline(options.client.connectivity, sender, {
    ...(options.sender?.random ? { random: options.sender.random } : {}),
    ...options.backOnline,
  });
  const archiver = new OutboxArchiver({
    outbox,
    serviceNow: () => options.client.serviceClock.now(),
    ...(options.logger ? { logger: options.logger } : {}),
    ...options.archiver,
  });
  return {
    outbox,
    sender,
    archiver,
    start: () => {
      sender.start();
      archiver.start();
    },
    stop: async () => {
      off();
      await Promise.all([sender.stop(), archiver.stop()]);
    },
  };
}

/** `createOutboxService`, started. */
export function startOutboxService(options: OutboxServiceOptions): OutboxService {
  const service = createOutboxService(options);
  service.start();
  return service;
}
