/**
 * NFT and multi-token collection operations (spec §4.3, §4.4; docs/collections.md "Operations"),
 * discriminants 37–47: their types and layouts are generated with the others from the ABI table
 * (abi/operations.mjs → src/abi/operations.ts). Only the Borsh shape is checked by the codec;
 * lengths, the symbol alphabet, royalty and supply rules are the core's to refuse with a status
 * (docs/collections.md "Statuses").
 */
import { COLLECTION_OPS, type CollectionOperation } from '../abi/operations.js';

export { MAX_COLLECTION_STRING_BYTES, MAX_BATCH_ENTRIES } from '../abi/constants.js';
export type {
  BatchEntry, CollectionOperation, CreateNftCollectionOp, MintNftOp, TransferNftOp, BurnNftOp, CreateMultiTokenCollectionOp,
  DefineTokenTypeOp, MintMultiTokenOp, TransferMultiTokenOp, BurnMultiTokenOp, BatchMintMultiTokenOp, BatchTransferMultiTokenOp,
} from '../abi/operations.js';

export function isCollectionOp(op: { type: string }): op is CollectionOperation {
  return COLLECTION_OPS.has(op.type);
}
