import { Prefix } from '../abi/constants.js';
import {
  decodeMultiSigFields, decodeMultiSigTxFields, decodePendingRecoveryFields, decodeRecoveryConfigFields, multiSigKey, multiSigTxKey,
  pendingRecoveryKey, recoveryKey, type MultiSigFields, type MultiSigTxFields,
} from '../abi/state.js';
import { BorshReader } from '../codec/borsh.js';
import { readOperation, type Operation } from '../codec/operations.js';
import { sha256 } from '../codec/hash.js';

/**
 * Accounts on the host side (docs/accounts.md): the recovery configuration and pending recovery of
 * an account, and multi-sig accounts with their proposals, read from committed state with the
 * generated decoders (abi/state.mjs RecoveryConfig, PendingRecovery, MultiSig, MultiSigTx).
 */
export const AccountsPrefix = { RECOVERY: Prefix.RECOVERY, PENDING: Prefix.RECOVERY_PENDING, MULTISIG: Prefix.MULTISIG, MULTISIG_TX: Prefix.MULTISIG_TX } as const;

interface StateReader {
  get(key: Uint8Array): Uint8Array | undefined;
}

export interface RecoveryInfo {
  guardians: Uint8Array[];
  threshold: number;
  timelock: bigint;
  pending?: { keyType: number; keyHash: Uint8Array; pubkey: Uint8Array; initiatedAt: bigint; initiatedHeight: bigint; approvals: Uint8Array[]; executableAt: bigint };
}

export function readRecovery(state: StateReader, account: Uint8Array): RecoveryInfo | undefined {
  const c = state.get(recoveryKey(account));
  if (!c) return undefined;
  const cfg = decodeRecoveryConfigFields(c);
  const info: RecoveryInfo = { guardians: cfg.guardians, threshold: cfg.threshold, timelock: cfg.timelock };
  const p = state.get(pendingRecoveryKey(account));
  if (p) {
    const pr = decodePendingRecoveryFields(p);
    info.pending = {
      keyType: pr.keyType, keyHash: sha256(pr.pubkey), pubkey: pr.pubkey, initiatedAt: pr.initiatedAt, initiatedHeight: pr.initiatedHeight,
      approvals: pr.approvals, executableAt: pr.initiatedAt + cfg.timelock,
    };
  }
  return info;
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
