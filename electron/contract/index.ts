/** How the configured service answers what the kiosk reads, against the integration profile. */
export { type ContractClient, checkContract } from './check-contract.ts';
export {
  type ContractDifference,
  ContractDocumentError,
  type ImportResult,
  importContract,
} from './import-contract.ts';
export {
  MAX_CONTRACT_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_REF_CHAIN,
  MAX_YAML_ALIASES,
  type ReadDocumentOptions,
} from './vendor-document.ts';
