import {
  contentlessSearchMigration,
  itemsInEntriesMigration,
  itemsRowidMigration,
  mirrorMigration,
  MIRROR_TABLE_PREFIX,
  oneLetterPrefixMigration,
} from './catalog/index.ts';
import {
  archiveMigration,
  attentionIndexMigration,
  cardCacheMigration,
  debitKeysMigration,
  debitsMigration,
  outcomeEvidenceMigration,
  requestIdsMigration,
  resolutionsMigration,
  serviceTimesMigration,
  settledAtMigration,
  unsettledDebits,
} from './outbox/index.ts';
import { commitCountMigration, type DatabaseSchema, leasesMigration } from './storage/index.ts';

/**
 * The kiosk database's schema, the one place that knows every service's tables: the kiosk app and
 * kioskctl both open the database with it. Each migration is a numbered file of the service whose
 * tables it creates; storage runs them in this order and knows none of them.
 *
 * To add one: a file `<service>/migrations/<next number>-<what>.ts` with the next version, appended
 * at the END of this list. Never edit, reorder or remove a shipped entry: kiosks in the field are
 * at every version in between.
 */
export const kioskSchema: DatabaseSchema = {
  migrations: [
    debitsMigration,
    leasesMigration,
    mirrorMigration,
    requestIdsMigration,
    serviceTimesMigration,
    cardCacheMigration,
    resolutionsMigration,
    debitKeysMigration,
    itemsRowidMigration,
    itemsInEntriesMigration,
    oneLetterPrefixMigration,
    commitCountMigration,
    archiveMigration,
    outcomeEvidenceMigration,
    settledAtMigration,
    attentionIndexMigration,
    contentlessSearchMigration,
  ],
  preserved: [unsettledDebits],
  // The mirror is the service's catalogue, rebuilt whole by a full sync: not the kiosk's to lose.
  copiedTablePrefixes: [MIRROR_TABLE_PREFIX],
};
