/**
 * ERC-721 and ERC-1155 transfers sent as signed EVM transactions (spec §4.18; docs/eth.md
 * "Sending"): `transferFrom`/`safeTransferFrom` on an NFT collection become TransferNft, and
 * ERC-1155 `safeTransferFrom`/`safeBatchTransferFrom` on a multi-token collection become
 * TransferMultiToken/BatchTransferMultiToken (docs/collections.md). There are no approvals natively, so
 * `from` must be the transaction's sender; the `data` argument of the safe variants is ignored (no
 * receiver contract runs).
 */
import { decodeFunctionData, erc1155Abi, erc721Abi, type Hex } from 'viem';
import type { BatchEntry } from '../../codec/collection-ops.js';
import { MAX_BATCH_ENTRIES } from '../../codec/collection-ops.js';
import type { CollectionRecord } from '../../domains/collections/reader.js';
import { evmRefusal } from './refusal.js';
import { accountOfEvm, U64_MAX } from './units.js';

export type CollectionAction =
  | { kind: 'nft'; collection: Uint8Array; to: Uint8Array; tokenId: bigint }
  | { kind: 'multi'; collection: Uint8Array; to: Uint8Array; entries: BatchEntry[]; batch: boolean };

const U128_MAX = (1n << 128n) - 1n;

function decode(c: CollectionRecord, data: Hex): { functionName: string; args: readonly unknown[] } {
  const names = c.kind === 'nft' ? 'transferFrom(from, to, tokenId) or safeTransferFrom' : 'safeTransferFrom(from, to, id, value, data) or safeBatchTransferFrom';
  try {
    const call = decodeFunctionData({ abi: c.kind === 'nft' ? erc721Abi : erc1155Abi, data }) as { functionName: string; args?: readonly unknown[] };
    if (['transferFrom', 'safeTransferFrom', 'safeBatchTransferFrom'].includes(call.functionName)) return { functionName: call.functionName, args: call.args ?? [] };
  } catch {
    // refused below with what is accepted
  }
  throw evmRefusal('UNSUPPORTED_CALL', `only ${names} can be sent to ${c.kind === 'nft' ? 'NFT' : 'multi-token'} collection ${c.symbol}`);
}

/** The native transfer a call on a collection maps to; `sender` is the transaction's `from` when known. */
export function collectionActionOf(c: CollectionRecord, data: Hex, value: bigint, sender: Hex | undefined): CollectionAction {
  if (value !== 0n) throw evmRefusal('UNSUPPORTED_CALL', 'a collection transfer carries no native value');
  const { functionName, args } = decode(c, data);
  const from = (args[0] as Hex).toLowerCase();
  if (sender !== undefined && from !== sender.toLowerCase()) {
    throw evmRefusal('UNSUPPORTED_CALL', `from ${from} is not the sender ${sender.toLowerCase()}: there are no approvals natively, only the holder moves its tokens`);
  }
  const to = accountOfEvm(args[1] as Hex);
  const id = (v: unknown, what: string) => {
    if ((v as bigint) > U64_MAX) throw evmRefusal('VALUE_NOT_REPRESENTABLE', `${what} ${v} is beyond u64, the ledger's id range`);
    return v as bigint;
  };
  const amount = (v: unknown) => {
    if ((v as bigint) > U128_MAX) throw evmRefusal('VALUE_NOT_REPRESENTABLE', `amount ${v} is beyond u128, the ledger's amount range`);
    return v as bigint;
  };
  if (c.kind === 'nft') return { kind: 'nft', collection: c.address, to, tokenId: id(args[2], 'token id') };
  if (functionName === 'safeTransferFrom') {
    return { kind: 'multi', collection: c.address, to, entries: [{ typeId: id(args[2], 'id'), amount: amount(args[3]) }], batch: false };
  }
  const [ids, values] = [args[2] as readonly bigint[], args[3] as readonly bigint[]];
  if (ids.length !== values.length) throw evmRefusal('UNSUPPORTED_CALL', `ids (${ids.length}) and values (${values.length}) differ in length`);
  if (ids.length === 0 || ids.length > MAX_BATCH_ENTRIES) throw evmRefusal('UNSUPPORTED_CALL', `a batch transfer moves 1 to ${MAX_BATCH_ENTRIES} ids, got ${ids.length}`);
  return { kind: 'multi', collection: c.address, to, entries: ids.map((x, i) => ({ typeId: id(x, 'id'), amount: amount(values[i]) })), batch: true };
}
