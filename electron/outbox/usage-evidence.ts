import { createHash } from 'node:crypto';
import type { ContractReport, IntegrationProfile } from '../../shared/profile/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { OutboxStore } from './store.ts';

/**
 * When may "our reference is not among the card's usages" mean "never applied"? Only when this
 * service is known to fill the usages where this profile reads them: a service whose usage list
 * is always empty (many are), or a profile that reads them from the wrong place, would otherwise
 * turn every lost reply into "absent", and a resend into a second debit.
 *
 * The verdict is the contract check's (`kioskctl contract check`, setup's "Check the service"):
 * verified only when it read a card that HAS usages, through this profile, and found each usage's
 * reference; a card with an empty list proves nothing. It is recorded in the kiosk database
 * (`outbox_usage_checks`, migration 012) under a fingerprint of the profile's usage reading (the
 * usages parameter, where the card's usages and their fields are, where the debit body puts our
 * reference): a profile changed in any of these needs a check of its own, one changed elsewhere
 * (the body's amount, another record) keeps its verdict. The latest check of a fingerprint wins,
 * so a check that no longer finds them withdraws the verdict.
 */

export interface UsageCheckVerdict {
  readonly fingerprint: string;
  readonly profileName: string;
  readonly verified: boolean;
  /** What was found, or why it proves nothing (for `kioskctl` and the logs). */
  readonly detail: string;
}

/** The fingerprint of how a profile finds our debits among a card's usages. */
export function usageFingerprint(profile: IntegrationProfile): string {
  const reading = {
    usages: profile.records.giftCard?.usages ?? null,
    usage: profile.records.giftCardUsage,
    parameter: profile.parameters.giftCardUsages,
    reference: profile.giftCardDebit.body.reference,
  };
  return createHash('sha256').update(JSON.stringify(reading)).digest('hex').slice(0, 32);
}

/** What a contract check says of the usages, for the profile it ran with. */
export function usageVerdictOf(
  profile: IntegrationProfile,
  report: ContractReport,
): UsageCheckVerdict {
  const base = { fingerprint: usageFingerprint(profile), profileName: profile.name };
  if (profile.giftCardDebit.body.reference === null) {
    return {
      ...base,
      verified: false,
      detail: 'the profile sends no reference: no usage can be told ours',
    };
  }
  const card = report.operations.find((operation) => operation.operationId === 'getGiftCard');
  if (!card || card.outcome !== 'ok') {
    return {
      ...base,
      verified: false,
      detail: `no gift card was read (${card?.note ?? 'getGiftCard not checked'})`,
    };
  }
  const value = (record: string, field: string) =>
    card.values.find((entry) => entry.record === record && entry.field === field);
  if (value('giftCard', 'usages')?.status !== 'found') {
    return {
      ...base,
      verified: false,
      detail: 'the card came without usages where the profile looks',
    };
  }
  const reference = value('giftCardUsage', 'reference');
  if (reference === undefined || reference.status === 'not-checked') {
    // The list was there but empty: nothing says this service ever fills it.
    return {
      ...base,
      verified: false,
      detail: 'the card read had no usages: an empty list proves nothing',
    };
  }
  if (reference.status !== 'found') {
    return {
      ...base,
      verified: false,
      detail: `the usages' reference is ${reference.status} where the profile looks`,
    };
  }
  return {
    ...base,
    verified: true,
    detail: `a card's usages read, each reference at ${reference.path ?? '?'}`,
  };
}

/** Keeps a contract check's verdict on the usages (the kiosk app's setup and kioskctl). */
export function recordUsageCheck(
  store: Pick<OutboxStore, 'recordUsageCheck' | 'db'>,
  profile: IntegrationProfile,
  report: ContractReport,
  now: number,
): UsageCheckVerdict {
  const verdict = usageVerdictOf(profile, report);
  store.db.transaction(() => store.recordUsageCheck({ ...verdict, checkedAt: now }));
  return verdict;
}

/** `recordUsageCheck` on a kiosk database opened for it (`kioskctl contract check`). */
export function recordUsageCheckIn(
  db: KioskDatabase,
  profile: IntegrationProfile,
  report: ContractReport,
  now: number,
): UsageCheckVerdict {
  return recordUsageCheck(new OutboxStore(db), profile, report, now);
}

/** Whether the usages are verified for this profile (its latest check found them). */
export function usagesVerified(
  store: Pick<OutboxStore, 'usageCheck'>,
  profile: IntegrationProfile,
): boolean {
  return store.usageCheck(usageFingerprint(profile))?.verified === true;
}
