// The validator set as committed state holds it (docs/staking.md "State layout"; spec §2.4, §3).
// Read-only decoding of the core's staking records, shared by consensus (leader schedule, vote
// weights), import (certificate stake) and the staking RPC methods. The core (assembly/domains/staking/validators.ts)
// is the only writer; the layouts here mirror it byte for byte.

import { Prefix } from '../abi/constants.js';
import {
  decodeAccountListFields, decodeDelegationFields, decodeStakingStateFields, decodeUnbondingFields, decodeValidatorFields,
  validatorKey, consensusKeyIndexKey, delegationKey, unbondingKey, STAKING_STATE_KEY, delegatorIndexKey, evidenceKey,
} from '../abi/state.js';
import { chainParams, type ChainParams } from './chain-params.js';

/** Anything with committed-state point reads (StateView, Core). */
export interface StateReadable {
  get(key: Uint8Array): Uint8Array | undefined;
}
export type StateView = StateReadable;

/** The staking prefixes of the generated table (abi/state.mjs; docs/staking.md "State layout"). */
export const StakingPrefix = {
  VALIDATOR: Prefix.VALIDATOR,
  CONSENSUS_KEY: Prefix.CONSENSUS_KEY,
  DELEGATION: Prefix.DELEGATION,
  UNBONDING: Prefix.UNBONDING,
  STAKING_STATE: Prefix.STAKING_STATE,
  CHAIN_PARAMS: Prefix.CHAIN_PARAMS,
  EVIDENCE: Prefix.EVIDENCE,
  AUTO_COMPOUND: Prefix.AUTO_COMPOUND,
  DELEGATOR_INDEX: Prefix.DELEGATOR_INDEX,
} as const;

/** Contract A (the consensus and p2p helpers read this). */
export interface ValidatorInfo {
  /** 32-byte Ed25519 public key that signs blocks and votes */
  consensusKey: Uint8Array;
  /** the staking account (receives fees and rewards; the validator's identity across key rotations) */
  address: Uint8Array;
  /** self + delegated, raw NTV */
  stake: bigint;
  /** 5000..10000 (spec §2.4 performance_score 0.5–1.0) */
  performanceBps: number;
  jailed: boolean;
  /** unix seconds */
  jailReleaseTime: number;
  missedInRow: number;
  commissionBps: number;
  /** in the active set of ≤ max_active_validators */
  active: boolean;
}

/** The full record (the staking RPC methods show all of it). */
export interface ValidatorRecord extends ValidatorInfo {
  selfStake: bigint;
  delegated: bigint;
  /** height of the last commission change, undefined when never changed */
  lastCommissionChange: number | undefined;
  offences: number;
  blocksProposed: bigint;
  blocksMissed: bigint;
  createdHeight: number;
  createdTime: number;
  accRewardPerShare: bigint;
  rewardPool: bigint;
  totalRewards: bigint;
  pendingConsensusKey: Uint8Array | undefined;
  /** epoch of the last RotateConsensusKey, undefined when never */
  lastRotationEpoch: number | undefined;
  poolEnabled: boolean;
  minDelegation: bigint;
  autoCompoundDefault: boolean;
  bundlesIncluded: bigint;
  name: string;
  description: string;
  website: string;
  avatarUrl: string;
  poolName: string;
}

export interface DelegationRecord {
  validator: Uint8Array;
  delegator: Uint8Array;
  amount: bigint;
  rewardDebt: bigint;
  /** rewards settled but not yet claimed */
  pending: bigint;
  autoCompound: boolean;
  since: number;
}

export interface UnbondingEntry {
  amount: bigint;
  /** unix seconds from which ClaimUnstake pays it out */
  releaseTime: number;
}

export interface StakingState {
  /** the last epoch whose boundary work ran */
  epoch: number;
  /** timestamp of the first block after genesis: the emission clock's zero (docs/staking.md) */
  emissionStart: number;
  /** timestamp of the last block */
  lastTimestamp: number;
  /** NTV minted as block rewards so far */
  emitted: bigint;
  /** scheduled emission held back by the density multiplier, available to later full blocks */
  carry: bigint;
  totalStaked: bigint;
  /** every registered validator (staking accounts), in registration order */
  validators: Uint8Array[];
  /** the active set (staking accounts), by stake descending */
  active: Uint8Array[];
}

/** Precision of the reward-per-share accumulator (docs/staking.md "Rewards"). */
export const REWARD_PRECISION = 10n ** 18n;
const NEVER = (1n << 64n) - 1n;

// Keys and record layouts are generated from the ABI table (abi/state.mjs → src/abi/state.ts).
export { validatorKey, consensusKeyIndexKey, delegationKey, unbondingKey, STAKING_STATE_KEY, delegatorIndexKey, evidenceKey };

/** The record of 0x10 account (layout: abi/state.mjs Validator) as the staking methods show it. */
export function decodeValidatorRecord(account: Uint8Array, b: Uint8Array): ValidatorRecord {
  const r = decodeValidatorFields(b);
  if (r.version !== 1) throw new Error('unknown validator record version');
  return {
    consensusKey: r.consensusKey, address: Uint8Array.from(account), stake: r.selfStake + r.delegated, performanceBps: r.performanceBps,
    jailed: r.jailed, jailReleaseTime: Number(r.jailReleaseTime), missedInRow: r.missedInRow, commissionBps: r.commissionBps, active: r.active,
    selfStake: r.selfStake, delegated: r.delegated,
    lastCommissionChange: r.lastCommissionChange === NEVER ? undefined : Number(r.lastCommissionChange), offences: r.offences,
    blocksProposed: r.blocksProposed, blocksMissed: r.blocksMissed, createdHeight: Number(r.createdHeight), createdTime: Number(r.createdTime),
    accRewardPerShare: r.accRewardPerShare, rewardPool: r.rewardPool, totalRewards: r.totalRewards,
    pendingConsensusKey: r.hasPendingKey ? r.pendingKey : undefined, lastRotationEpoch: r.lastRotationEpoch === NEVER ? undefined : Number(r.lastRotationEpoch),
    poolEnabled: r.poolEnabled, minDelegation: r.minDelegation, autoCompoundDefault: r.autoCompoundDefault, bundlesIncluded: r.bundlesIncluded,
    name: r.name, description: r.description, website: r.website, avatarUrl: r.avatarUrl, poolName: r.poolName,
  };
}

/** The record of 0x12 validator delegator (abi/state.mjs Delegation). */
export function decodeDelegation(validator: Uint8Array, delegator: Uint8Array, b: Uint8Array): DelegationRecord {
  const r = decodeDelegationFields(b);
  return {
    validator: Uint8Array.from(validator), delegator: Uint8Array.from(delegator),
    amount: r.amount, rewardDebt: r.rewardDebt, pending: r.pending, autoCompound: r.autoCompound, since: Number(r.since),
  };
}

/** The unbonding list of 0x13 account (abi/state.mjs Unbonding). */
export function decodeUnbonding(b: Uint8Array): UnbondingEntry[] {
  return decodeUnbondingFields(b).entries.map((e) => ({ amount: e.amount, releaseTime: Number(e.releaseTime) }));
}

/** The singleton 0x14 (abi/state.mjs StakingState). */
export function decodeStakingState(b: Uint8Array): StakingState {
  const r = decodeStakingStateFields(b);
  if (r.version !== 1) throw new Error('unknown staking state version');
  return {
    epoch: Number(r.epoch), emissionStart: Number(r.emissionStart), lastTimestamp: Number(r.lastTimestamp),
    emitted: r.emitted, carry: r.carry, totalStaked: r.totalStaked, validators: r.validators, active: r.active,
  };
}

const EMPTY_STATE: StakingState = { epoch: 0, emissionStart: 0, lastTimestamp: 0, emitted: 0n, carry: 0n, totalStaked: 0n, validators: [], active: [] };

export function readStakingState(state: StateReadable): StakingState {
  const b = state.get(STAKING_STATE_KEY);
  return b ? decodeStakingState(b) : { ...EMPTY_STATE, validators: [], active: [] };
}

export function readValidator(state: StateReadable, account: Uint8Array): ValidatorRecord | undefined {
  const b = state.get(validatorKey(account));
  return b ? decodeValidatorRecord(account, b) : undefined;
}

/** The staking account of a consensus key (current keys only; a queued rotation is not indexed yet). */
export function accountOfConsensusKey(state: StateReadable, consensusKey: Uint8Array): Uint8Array | undefined {
  const b = state.get(consensusKeyIndexKey(consensusKey));
  return b ? Uint8Array.from(b) : undefined;
}

export function readDelegation(state: StateReadable, validator: Uint8Array, delegator: Uint8Array): DelegationRecord | undefined {
  const b = state.get(delegationKey(validator, delegator));
  return b ? decodeDelegation(validator, delegator, b) : undefined;
}

export function readUnbonding(state: StateReadable, account: Uint8Array): UnbondingEntry[] {
  const b = state.get(unbondingKey(account));
  return b ? decodeUnbonding(b) : [];
}

/** The validators an account delegates to (0x18, abi/state.mjs AccountList), its own included. */
export function readDelegatorValidators(state: StateReadable, delegator: Uint8Array): Uint8Array[] {
  const b = state.get(delegatorIndexKey(delegator));
  return b ? decodeAccountListFields(b).accounts : [];
}

/** Rewards a delegation would receive if settled now (the core's settle rule, without the pool cap). */
export function accruedRewards(v: ValidatorRecord, d: DelegationRecord): bigint {
  const owed = (d.amount * v.accRewardPerShare) / REWARD_PRECISION - d.rewardDebt;
  const capped = owed > v.rewardPool ? v.rewardPool : owed;
  return d.pending + (capped > 0n ? capped : 0n);
}

/** Every registered validator, full records, sorted by consensus key bytes. */
export function readValidatorRecords(state: StateReadable): ValidatorRecord[] {
  const out: ValidatorRecord[] = [];
  for (const account of readStakingState(state).validators) {
    const v = readValidator(state, account);
    if (v) out.push(v);
  }
  return out.sort((a, b) => Buffer.compare(a.consensusKey, b.consensusKey));
}

/** Contract A: the validator set from committed state, sorted by consensus key bytes. */
export function readValidatorSet(state: StateReadable): ValidatorInfo[] {
  return readValidatorRecords(state).map((v) => ({
    consensusKey: v.consensusKey, address: v.address, stake: v.stake, performanceBps: v.performanceBps, jailed: v.jailed,
    jailReleaseTime: v.jailReleaseTime, missedInRow: v.missedInRow, commissionBps: v.commissionBps, active: v.active,
  }));
}

/** The active validators only (what leader selection and vote weights count). */
export function activeValidators(state: StateReadable): ValidatorInfo[] {
  return readValidatorSet(state).filter((v) => v.active && !v.jailed);
}

export { chainParams, type ChainParams };
