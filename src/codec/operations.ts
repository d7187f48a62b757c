/**
 * Operation variants and their Borsh layout (docs/bundle-format.md "Operation", facts.md
 * "Transaction bundle"). The types, the writer and the reader are generated from the ABI table
 * (abi/operations.mjs → src/abi/operations.ts; docs/core-abi.md "How the ABI is generated"), the
 * same table the core's discriminants come from, so the two cannot disagree. Reserved numbers
 * (15–27, 51–118) have no layout yet and the reader refuses them as unknown.
 *
 * Only the Borsh shape is checked here. Semantic ranges (decimals 0–18, symbol characters, name
 * length, supply > 0, key types) are the core's to refuse with a status code, so a test can still
 * build such a bundle and see the node's answer.
 */
export { OpCode, type OpName } from '../abi/constants.js';
export {
  MAX_PUBKEY_BYTES, MAX_TOKEN_NAME_BYTES, MAX_TOKEN_SYMBOL_BYTES, MAX_METADATA_FIELD_BYTES, MAX_NAME_BYTES,
  MAX_PROGRAM_NAME_BYTES, MAX_PROGRAM_JSON_BYTES, MAX_STAKING_STRING_BYTES, MAX_HEADER_BYTES, MAX_SCHEDULE_OPS,
} from '../abi/constants.js';
export * from '../abi/operations.js';
