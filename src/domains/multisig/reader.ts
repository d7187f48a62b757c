import {
  decodeMultiSigFields, decodeMultiSigTxFields, multiSigKey, multiSigTxKey, type MultiSigFields, type MultiSigTxFields,
} from '../../abi/state.js';
import { BorshReader } from '../../codec/borsh.js';
import { readOperation, type Operation } from '../../codec/operations.js';

/**
 * Multi-sig accounts on the host side (spec §4.14, docs/multisig.md): a multi-sig account and its
 * proposals, read from committed state with the generated decoders (abi/state.mjs MultiSig, MultiSigTx).
 */

interface StateReader {
  get(key: Uint8Array): Uint8Array | undefined;
}

export type MultiSigInfo = MultiSigFields;
export interface MultiSigTxInfo extends Omit<MultiSigTxFields, 'operations'> {
  txId: bigint;
  operations: Operation[];
}

export function readMultiSig(state: StateReader, multisig: Uint8Array): MultiSigInfo | undefined {
  const v = state.get(multiSigKey(multisig));
  return v ? decodeMultiSigFields(v) : undefined;
}

export function readMultiSigTx(state: StateReader, multisig: Uint8Array, txId: bigint): MultiSigTxInfo | undefined {
  const v = state.get(multiSigTxKey(multisig, txId));
  if (!v) return undefined;
  const t = decodeMultiSigTxFields(v);
  const r = new BorshReader(t.operations);
  const n = r.u32('operations');
  const operations: Operation[] = [];
  for (let i = 0; i < n; i++) operations.push(readOperation(r));
  return { ...t, txId, operations };
}

/** A multi-sig's proposals, newest first, at most `limit` (ids count from 0: point lookups only). */
export function listMultiSigTxs(state: StateReader, multisig: Uint8Array, limit = 100): MultiSigTxInfo[] {
  const ms = readMultiSig(state, multisig);
  if (!ms) return [];
  const out: MultiSigTxInfo[] = [];
  for (let id = ms.nextTxId - 1n; id >= 0n && out.length < limit; id--) {
    const t = readMultiSigTx(state, multisig, id);
    if (t) out.push(t);
  }
  return out;
}
