export {
  DebitBodyUndecided,
  debitBodyOf,
  debitBodyRefusal,
  undecidedDebitSlots,
  type DebitValues,
} from './debit-body.ts';
export { defaultProfile } from './default-profile.ts';
export { UNDECIDED, readPath, scalarLeaves, writePath, type Scalar } from './field-path.ts';
export {
  DebitBodyTemplate,
  FieldLocation,
  FieldPath,
  IntegrationProfile,
  type IntegrationProfileInput,
} from './integration-profile.ts';
export {
  type FieldName,
  type FieldSpec,
  type Identity,
  type RecordKind,
  type RecordSpec,
  type ValueType,
  recordKindNames,
  recordKinds,
} from './record-kinds.ts';
export type { RecordViewOf } from './record-view.ts';
export {
  type FieldResolution,
  type OtherField,
  type RecordView,
  identifierOf,
  locationOf,
  matchesType,
  resolveField,
  resolveRecord,
  statusIn,
  typeOf,
  viewOf,
} from './resolve.ts';
export { giftCardIdFromScan } from './scan.ts';
export { MAX_SCAN_CODE_LENGTH, MAX_SCAN_MATCH_PATHS, scanPatternProblem } from './scan-pattern.ts';
export { hasNextPageOf, pagingQuery } from './paging.ts';
export {
  type CustomerSearchCriterion,
  type CustomerSearchRequest,
  customerContactQuery,
  customerCreditsQuery,
  customerHistoryQuery,
  customerSearchCriteria,
  customerSearchQuery,
  sentCustomerCriteria,
  takenCustomerCriteria,
  customersMatchingUnsent,
  giftCardUsagesQuery,
} from './queries.ts';
export { ContractReport, OperationReport, ValueReport } from './contract-report.ts';
