// The validator set as committed state holds it (docs/staking.md "State layout"; spec §2.4, §3).
// Read-only decoding of the core's staking records, shared by consensus (leader schedule, vote
// weights), import (certificate stake) and the staking RPC methods. The core (assembly/staking.ts)
// is the only writer; the layouts here mirror it byte for byte.

import { withPrefix } from '../core/records.js';
import { chainParams, type ChainParams } from './chain-params.js';

/** Anything with committed-state point reads (StateView, Core). */
export interface StateReadable {
  get(key: Uint8Array): Uint8Array | undefined;
}
export type StateView = StateReadable;

export const StakingPrefix = {
  /** account[32] → ValidatorRecord */
  VALIDATOR: 0x10,
  /** consensus_key[32] → account[32] */
  CONSENSUS_KEY: 0x11,
  /** validator_account[32] delegator[32] → DelegationRecord */
  DELEGATION: 0x12,
  /** account[32] → Vec<UnbondingEntry> */
  UNBONDING: 0x13,
  /** singleton → StakingState */
  STAKING_STATE: 0x14,
  /** singleton → ChainParams (src/chain/chain-params.ts) */
  CHAIN_PARAMS: 0x15,
  /** account[32] height u64 → u8 1: one double-sign offence per (validator, height) */
  EVIDENCE: 0x16,
  /** validator_account[32] → Vec<delegator[32]> with auto_compound on */
  AUTO_COMPOUND: 0x17,
  /** delegator[32] → Vec<validator_account[32]> it delegates to (its own validator included) */
  DELEGATOR_INDEX: 0x18,
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

const key = withPrefix;

export const validatorKey = (account: Uint8Array) => key(StakingPrefix.VALIDATOR, account);
export const consensusKeyIndexKey = (consensusKey: Uint8Array) => key(StakingPrefix.CONSENSUS_KEY, consensusKey);
export const delegationKey = (validator: Uint8Array, delegator: Uint8Array) => key(StakingPrefix.DELEGATION, validator, delegator);
export const unbondingKey = (account: Uint8Array) => key(StakingPrefix.UNBONDING, account);
export const STAKING_STATE_KEY = Uint8Array.of(StakingPrefix.STAKING_STATE);
export const delegatorIndexKey = (delegator: Uint8Array) => key(StakingPrefix.DELEGATOR_INDEX, delegator);
export function evidenceKey(account: Uint8Array, height: bigint | number): Uint8Array {
  const h = new Uint8Array(8);
  new DataView(h.buffer).setBigUint64(0, BigInt(height), true);
  return key(StakingPrefix.EVIDENCE, account, h);
}

class Reader {
  o = 0;
  private readonly dv: DataView;
  constructor(private readonly b: Uint8Array) {
    this.dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  u8(): number { return this.b[this.o++]!; }
  u16(): number { const v = this.dv.getUint16(this.o, true); this.o += 2; return v; }
  u32(): number { const v = this.dv.getUint32(this.o, true); this.o += 4; return v; }
  u64(): bigint { const v = this.dv.getBigUint64(this.o, true); this.o += 8; return v; }
  u128(): bigint { const lo = this.u64(); return lo | (this.u64() << 64n); }
  bytes(n: number): Uint8Array { const v = this.b.slice(this.o, this.o + n); this.o += n; return v; }
  string(): string { const n = this.u32(); return Buffer.from(this.bytes(n)).toString('utf8'); }
}

/**
 * ValidatorRecord (value of 0x10 account): version u8 = 1, consensus_key[32], self_stake u128,
 * delegated u128, commission_bps u16, last_commission_change u64 (MAX = never), jailed u8,
 * jail_release_time u64, offences u32, missed_in_row u32, blocks_proposed u64, blocks_missed u64,
 * performance_bps u16, active u8, created_height u64, created_time u64, acc_reward_per_share u128,
 * reward_pool u128, total_rewards u128, has_pending_key u8, pending_key[32], last_rotation_epoch u64
 * (MAX = never), pool_enabled u8, min_delegation u128, auto_compound_default u8, bundles_included u64
 * (fixed part: 242 bytes), then name, description, website, avatar_url, pool_name (u32 len + UTF-8).
 */
export function decodeValidatorRecord(account: Uint8Array, b: Uint8Array): ValidatorRecord {
  const r = new Reader(b);
  if (r.u8() !== 1) throw new Error('unknown validator record version');
  const consensusKey = r.bytes(32);
  const selfStake = r.u128();
  const delegated = r.u128();
  const commissionBps = r.u16();
  const lcc = r.u64();
  const jailed = r.u8() === 1;
  const jailReleaseTime = Number(r.u64());
  const offences = r.u32();
  const missedInRow = r.u32();
  const blocksProposed = r.u64();
  const blocksMissed = r.u64();
  const performanceBps = r.u16();
  const active = r.u8() === 1;
  const createdHeight = Number(r.u64());
  const createdTime = Number(r.u64());
  const accRewardPerShare = r.u128();
  const rewardPool = r.u128();
  const totalRewards = r.u128();
  const hasPending = r.u8() === 1;
  const pendingKey = r.bytes(32);
  const lre = r.u64();
  const poolEnabled = r.u8() === 1;
  const minDelegation = r.u128();
  const autoCompoundDefault = r.u8() === 1;
  const bundlesIncluded = r.u64();
  const name = r.string();
  const description = r.string();
  const website = r.string();
  const avatarUrl = r.string();
  const poolName = r.string();
  return {
    consensusKey, address: Uint8Array.from(account), stake: selfStake + delegated, performanceBps, jailed, jailReleaseTime,
    missedInRow, commissionBps, active, selfStake, delegated,
    lastCommissionChange: lcc === NEVER ? undefined : Number(lcc), offences, blocksProposed, blocksMissed,
    createdHeight, createdTime, accRewardPerShare, rewardPool, totalRewards,
    pendingConsensusKey: hasPending ? pendingKey : undefined, lastRotationEpoch: lre === NEVER ? undefined : Number(lre),
    poolEnabled, minDelegation, autoCompoundDefault, bundlesIncluded, name, description, website, avatarUrl, poolName,
  };
}

/** DelegationRecord: amount u128, reward_debt u128, pending u128, auto_compound u8, since u64 (57 bytes). */
export function decodeDelegation(validator: Uint8Array, delegator: Uint8Array, b: Uint8Array): DelegationRecord {
  const r = new Reader(b);
  return {
    validator: Uint8Array.from(validator), delegator: Uint8Array.from(delegator),
    amount: r.u128(), rewardDebt: r.u128(), pending: r.u128(), autoCompound: r.u8() === 1, since: Number(r.u64()),
  };
}

/** Unbonding list: u32 count, then per entry amount u128, release_time u64. */
export function decodeUnbonding(b: Uint8Array): UnbondingEntry[] {
  const r = new Reader(b);
  const n = r.u32();
  const out: UnbondingEntry[] = [];
  for (let i = 0; i < n; i++) out.push({ amount: r.u128(), releaseTime: Number(r.u64()) });
  return out;
}

/**
 * StakingState (singleton 0x14): version u8 = 1, epoch u64, emission_start u64, last_timestamp u64,
 * emitted u128, carry u128, total_staked u128, validators Vec<[32]>, active Vec<[32]>.
 */
export function decodeStakingState(b: Uint8Array): StakingState {
  const r = new Reader(b);
  if (r.u8() !== 1) throw new Error('unknown staking state version');
  const epoch = Number(r.u64());
  const emissionStart = Number(r.u64());
  const lastTimestamp = Number(r.u64());
  const emitted = r.u128();
  const carry = r.u128();
  const totalStaked = r.u128();
  const list = () => {
    const n = r.u32();
    const out: Uint8Array[] = [];
    for (let i = 0; i < n; i++) out.push(r.bytes(32));
    return out;
  };
  const validators = list();
  const active = list();
  return { epoch, emissionStart, lastTimestamp, emitted, carry, totalStaked, validators, active };
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

/** The validators an account delegates to (u32 count + 32-byte accounts), its own included. */
export function readDelegatorValidators(state: StateReadable, delegator: Uint8Array): Uint8Array[] {
  const b = state.get(delegatorIndexKey(delegator));
  if (!b) return [];
  const r = new Reader(b);
  const n = r.u32();
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) out.push(r.bytes(32));
  return out;
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
