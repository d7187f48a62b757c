// Typed decoding of the staking events (docs/staking.md "Events", docs/core-abi.md "Event kinds and
// data", kinds 59–71 of abi/events.mjs): one event per successful staking operation. Offsets follow
// the table's field order; test/core/staking-events.test.ts checks them against the core.
import {
  EventKind, EV_AUTO_COMPOUND_SET_BYTES, EV_COMMISSION_SET_BYTES, EV_CONSENSUS_KEY_ROTATION_QUEUED_BYTES, EV_DELEGATED_BYTES, EV_DOUBLE_SIGN_REPORTED_BYTES, EV_REWARDS_CLAIMED_BYTES, EV_STAKED_BYTES, EV_UNSTAKED_BYTES, EV_UNSTAKE_CLAIMED_BYTES, EV_VALIDATOR_UNJAILED_BYTES,
} from '../abi/constants.js';

interface Base {
  bundleIndex: number;
  opIndex: number;
}
export type StakingEvent = Base & (
  | { kind: 'Staked'; validator: Uint8Array; consensusKey: Uint8Array; amount: bigint; selfStake: bigint; created: boolean }
  | { kind: 'Delegated'; validator: Uint8Array; delegator: Uint8Array; amount: bigint; delegation: bigint }
  | { kind: 'Unstaked' | 'Undelegated'; validator: Uint8Array; delegator: Uint8Array; amount: bigint; remaining: bigint; releaseTime: bigint }
  | { kind: 'UnstakeClaimed'; account: Uint8Array; amount: bigint; pendingEntries: number }
  | { kind: 'RewardsClaimed'; account: Uint8Array; amount: bigint }
  | { kind: 'CommissionSet'; validator: Uint8Array; oldBps: number; newBps: number }
  | { kind: 'ValidatorUnjailed'; validator: Uint8Array }
  | { kind: 'AutoCompoundSet'; validator: Uint8Array; delegator: Uint8Array; enabled: boolean }
  | { kind: 'PoolConfigSet'; validator: Uint8Array; enabled: boolean; minDelegation: bigint; autoCompoundDefault: boolean; name: string }
  | { kind: 'ValidatorMetadataSet'; validator: Uint8Array; name: string; description: string; website: string; avatarUrl: string }
  | { kind: 'DoubleSignReported'; validator: Uint8Array; consensusKey: Uint8Array; reporter: Uint8Array; height: bigint; offences: number; jailedUntil: bigint }
  | { kind: 'ConsensusKeyRotationQueued'; validator: Uint8Array; newKey: Uint8Array; epoch: bigint }
);

/** PoolConfigSet's bytes before the name: validator, enabled, min_delegation, auto_compound_default. */
const POOL_CONFIG_HEAD = 50;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether `kind` is one of the staking event kinds. */
export function isStakingEventKind(kind: number): boolean {
  return kind >= EventKind.Staked && kind <= EventKind.ConsensusKeyRotationQueued;
}

/**
 * Decode the staking event whose data is b[o, o+len); undefined when the length does not fit its
 * kind (the caller then reports it as unknown). Byte fields are views into b.
 */
export function decodeStakingEventAt(b: Uint8Array, dv: DataView, o: number, len: number, bundleIndex: number, opIndex: number, kind: number): StakingEvent | undefined {
  const at = (from: number) => b.subarray(o + from, o + from + 32);
  const u128 = (from: number) => dv.getBigUint64(o + from, true) | (dv.getBigUint64(o + from + 8, true) << 64n);
  const base = { bundleIndex, opIndex };
  switch (kind) {
    case EventKind.Staked:
      return len === EV_STAKED_BYTES ? { ...base, kind: 'Staked', validator: at(0), consensusKey: at(32), amount: u128(64), selfStake: u128(80), created: b[o + 96] === 1 } : undefined;
    case EventKind.Delegated:
      return len === EV_DELEGATED_BYTES ? { ...base, kind: 'Delegated', validator: at(0), delegator: at(32), amount: u128(64), delegation: u128(80) } : undefined;
    case EventKind.Unstaked:
    case EventKind.Undelegated:
      return len === EV_UNSTAKED_BYTES // = EV_UNDELEGATED_BYTES
        ? { ...base, kind: kind === EventKind.Unstaked ? 'Unstaked' : 'Undelegated', validator: at(0), delegator: at(32), amount: u128(64), remaining: u128(80), releaseTime: dv.getBigUint64(o + 96, true) }
        : undefined;
    case EventKind.UnstakeClaimed:
      return len === EV_UNSTAKE_CLAIMED_BYTES ? { ...base, kind: 'UnstakeClaimed', account: at(0), amount: u128(32), pendingEntries: dv.getUint32(o + 48, true) } : undefined;
    case EventKind.RewardsClaimed:
      return len === EV_REWARDS_CLAIMED_BYTES ? { ...base, kind: 'RewardsClaimed', account: at(0), amount: u128(32) } : undefined;
    case EventKind.CommissionSet:
      return len === EV_COMMISSION_SET_BYTES ? { ...base, kind: 'CommissionSet', validator: at(0), oldBps: dv.getUint16(o + 32, true), newBps: dv.getUint16(o + 34, true) } : undefined;
    case EventKind.ValidatorUnjailed:
      return len === EV_VALIDATOR_UNJAILED_BYTES ? { ...base, kind: 'ValidatorUnjailed', validator: at(0) } : undefined;
    case EventKind.AutoCompoundSet:
      return len === EV_AUTO_COMPOUND_SET_BYTES ? { ...base, kind: 'AutoCompoundSet', validator: at(0), delegator: at(32), enabled: b[o + 64] === 1 } : undefined;
    case EventKind.PoolConfigSet: {
      if (len < POOL_CONFIG_HEAD) return undefined;
      const name = text(b, o + POOL_CONFIG_HEAD, o + len);
      return name === undefined ? undefined
        : { ...base, kind: 'PoolConfigSet', validator: at(0), enabled: b[o + 32] === 1, minDelegation: u128(33), autoCompoundDefault: b[o + 49] === 1, name };
    }
    case EventKind.ValidatorMetadataSet: {
      // the operation's four Borsh strings after the validator (docs/bundle-format.md SetValidatorMetadata)
      const strings: string[] = [];
      let p = o + 32;
      const end = o + len;
      for (let i = 0; i < 4; i++) {
        if (p + 4 > end) return undefined;
        const n = dv.getUint32(p, true);
        const s = p + 4 + n <= end ? text(b, p + 4, p + 4 + n) : undefined;
        if (s === undefined) return undefined;
        strings.push(s);
        p += 4 + n;
      }
      if (p !== end || len < 32) return undefined;
      return { ...base, kind: 'ValidatorMetadataSet', validator: at(0), name: strings[0]!, description: strings[1]!, website: strings[2]!, avatarUrl: strings[3]! };
    }
    case EventKind.DoubleSignReported:
      return len === EV_DOUBLE_SIGN_REPORTED_BYTES
        ? { ...base, kind: 'DoubleSignReported', validator: at(0), consensusKey: at(32), reporter: at(64), height: dv.getBigUint64(o + 96, true), offences: dv.getUint32(o + 104, true), jailedUntil: dv.getBigUint64(o + 108, true) }
        : undefined;
    case EventKind.ConsensusKeyRotationQueued:
      return len === EV_CONSENSUS_KEY_ROTATION_QUEUED_BYTES ? { ...base, kind: 'ConsensusKeyRotationQueued', validator: at(0), newKey: at(32), epoch: dv.getBigUint64(o + 64, true) } : undefined;
  }
  return undefined;
}

function text(b: Uint8Array, from: number, to: number): string | undefined {
  try {
    return utf8.decode(b.subarray(from, to));
  } catch {
    return undefined;
  }
}
