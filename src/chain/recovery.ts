import { decodePendingRecoveryFields, decodeRecoveryConfigFields, pendingRecoveryKey, recoveryKey } from '../abi/state.js';
import { sha256 } from '../codec/hash.js';

/**
 * Guardian recovery on the host side (docs/accounts.md "Recovery"): the recovery configuration and
 * pending recovery of an account, read from committed state with the generated decoders
 * (abi/state.mjs RecoveryConfig, PendingRecovery).
 */

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
