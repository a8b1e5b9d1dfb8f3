/** How the configured service answers what the kiosk reads, against the integration profile. */
export { type ContractClient, checkContract } from './check-contract.ts';
export {
  type ContractDifference,
  ContractDocumentError,
  type ImportResult,
  importContract,
} from './import-contract.ts';
