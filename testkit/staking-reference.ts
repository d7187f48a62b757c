// Bigint reference of the staking economics (docs/staking.md "Emission", "Rewards"): the emission
// schedule, one block's split, and the accumulator split among delegators, written plainly so the
// core's u64/u128 limb math can be checked against it. Also a supply audit over a state map.

import { decodeTokenRecord } from '../src/core/records.js';
import type { StakingEvent } from '../src/core/events.js';
import {
  decodeDelegation, decodeUnbonding, decodeValidatorRecord, StakingPrefix, REWARD_PRECISION,
} from '../src/chain/validator-set.js';

export const NTV_UNIT = 10n ** 9n;
export const YEAR = 31_536_000n;
/** Yearly emission, years 1–10, in whole NTV. */
export const RATES_NTV = [13_000_000n, 13_000_000n, 8_000_000n, 6_800_000n, 5_800_000n, 4_900_000n, 4_200_000n, 3_500_000n, 3_000_000n, 2_520_000n];
export const RATES = RATES_NTV.map((r) => r * NTV_UNIT);
export const EMISSION_TOTAL = 64_720_000n * NTV_UNIT;

export function emissionTarget(s: bigint): bigint {
  const y = s / YEAR;
  if (y >= 10n) return EMISSION_TOTAL;
  let cum = 0n;
  for (let i = 0n; i < y; i++) cum += RATES[Number(i)]!;
  return cum + (RATES[Number(y)]! * (s - y * YEAR)) / YEAR;
}

export function densityBps(gasUsed: bigint, gasLimit: bigint): bigint {
  if (gasLimit === 0n) return 5000n;
  const used = gasUsed > gasLimit ? gasLimit : gasUsed;
  return 5000n + (15000n * used) / gasLimit;
}

export interface EmissionState { start: bigint; last: bigint; emitted: bigint; carry: bigint }

/** One block's emission: what the treasury gets, what the proposer side is paid, the new state. */
export function blockEmission(s: EmissionState, ts: bigint, gasUsed: bigint, gasLimit: bigint, perfBps: bigint | undefined) {
  if (s.start === 0n) return { treasury: 0n, paid: 0n, state: { ...s, start: ts, last: ts } };
  if (ts <= s.last) return { treasury: 0n, paid: 0n, state: s };
  const base = emissionTarget(ts - s.start) - emissionTarget(s.last - s.start);
  const treasury = (base * 1500n) / 10000n;
  const pBase = base - treasury;
  const want = (pBase * densityBps(gasUsed, gasLimit)) / 10000n;
  let carry = s.carry;
  let proposer: bigint;
  if (want <= pBase) {
    carry += pBase - want;
    proposer = want;
  } else {
    const extra = want - pBase < carry ? want - pBase : carry;
    carry -= extra;
    proposer = pBase + extra;
  }
  const paid = perfBps === undefined ? 0n : (proposer * perfBps) / 10000n;
  carry += proposer - paid;
  return { treasury, paid, state: { start: s.start, last: ts, emitted: s.emitted + treasury + paid, carry } };
}

/**
 * The epoch boundary: what emptier blocks and performance discounts held back and no fuller block
 * drew on goes to the treasury, so emitted equals the schedule at every boundary.
 */
export function epochRelease(s: EmissionState) {
  return { released: s.carry, state: { ...s, emitted: s.emitted + s.carry, carry: 0n } };
}

/** The proposer side after commission: commission to the validator, the rest per unit of stake. */
export function split(paid: bigint, commissionBps: bigint, totalStake: bigint) {
  let commission = (paid * commissionBps) / 10000n;
  let rest = paid - commission;
  if (totalStake === 0n) {
    commission = paid;
    rest = 0n;
  }
  const accIncrement = totalStake === 0n ? 0n : (rest * REWARD_PRECISION) / totalStake;
  return { commission, rest, accIncrement };
}

export const performanceBps = (proposed: bigint, missed: bigint) => 5000n + (5000n * (proposed + 3n)) / (proposed + missed + 5n);

/**
 * Where every NTV raw unit is: balances + self/delegated stake + unbonding + unclaimed rewards +
 * validators' undistributed reward pools. Must equal the NTV record's total_supply.
 */
export function auditSupply(map: Map<string, Uint8Array>) {
  const NTV = '00'.repeat(32);
  let balances = 0n, staked = 0n, unbonding = 0n, pending = 0n, pools = 0n, supply = 0n;
  for (const [k, v] of map) {
    const key = Buffer.from(k, 'hex');
    const prefix = key[0];
    if (prefix === 0x02 && k.slice(66) === NTV) balances += Buffer.from(v).readBigUInt64LE(0) | (Buffer.from(v).readBigUInt64LE(8) << 64n);
    else if (prefix === 0x03 && k.slice(2) === NTV) supply = decodeTokenRecord(v).totalSupply;
    else if (prefix === StakingPrefix.VALIDATOR) {
      const r = decodeValidatorRecord(key.subarray(1), v);
      staked += r.selfStake + r.delegated;
      pools += r.rewardPool;
    } else if (prefix === StakingPrefix.DELEGATION) pending += decodeDelegation(key.subarray(1, 33), key.subarray(33), v).pending;
    else if (prefix === StakingPrefix.UNBONDING) for (const e of decodeUnbonding(v)) unbonding += e.amount;
  }
  return { balances, staked, unbonding, pending, pools, supply, sum: balances + staked + unbonding + pending + pools };
}

/**
 * The staking events (docs/staking.md "Events"), written from the page: each operation's kind and
 * data bytes, field by field, little-endian. The core's bytes must decode to what these decode to.
 */
export type RefStakingEvent = StakingEvent extends infer E ? (E extends unknown ? Omit<E, 'bundleIndex' | 'opIndex'> : never) : never;

const KIND_CODES: Record<RefStakingEvent['kind'], number> = {
  Staked: 59, Delegated: 60, Unstaked: 61, Undelegated: 62, UnstakeClaimed: 63, RewardsClaimed: 64, CommissionSet: 65,
  ValidatorUnjailed: 66, AutoCompoundSet: 67, PoolConfigSet: 68, ValidatorMetadataSet: 69, DoubleSignReported: 70, ConsensusKeyRotationQueued: 71,
};

/** The event's kind code and data bytes. */
export function stakingEventBytes(e: RefStakingEvent): { kind: number; data: Uint8Array } {
  const out: number[] = [];
  const raw = (b: Uint8Array) => out.push(...b);
  const int = (v: bigint | number, bytes: number) => {
    let x = BigInt(v);
    for (let i = 0; i < bytes; i++) {
      out.push(Number(x & 0xffn));
      x >>= 8n;
    }
  };
  const str = (s: string) => {
    const b = new TextEncoder().encode(s);
    int(b.length, 4);
    raw(b);
  };
  switch (e.kind) {
    case 'Staked': raw(e.validator); raw(e.consensusKey); int(e.amount, 16); int(e.selfStake, 16); int(e.created ? 1 : 0, 1); break;
    case 'Delegated': raw(e.validator); raw(e.delegator); int(e.amount, 16); int(e.delegation, 16); break;
    case 'Unstaked': case 'Undelegated': raw(e.validator); raw(e.delegator); int(e.amount, 16); int(e.remaining, 16); int(e.releaseTime, 8); break;
    case 'UnstakeClaimed': raw(e.account); int(e.amount, 16); int(e.pendingEntries, 4); break;
    case 'RewardsClaimed': raw(e.account); int(e.amount, 16); break;
    case 'CommissionSet': raw(e.validator); int(e.oldBps, 2); int(e.newBps, 2); break;
    case 'ValidatorUnjailed': raw(e.validator); break;
    case 'AutoCompoundSet': raw(e.validator); raw(e.delegator); int(e.enabled ? 1 : 0, 1); break;
    case 'PoolConfigSet': raw(e.validator); int(e.enabled ? 1 : 0, 1); int(e.minDelegation, 16); int(e.autoCompoundDefault ? 1 : 0, 1); raw(new TextEncoder().encode(e.name)); break;
    case 'ValidatorMetadataSet': raw(e.validator); str(e.name); str(e.description); str(e.website); str(e.avatarUrl); break;
    case 'DoubleSignReported': raw(e.validator); raw(e.consensusKey); raw(e.reporter); int(e.height, 8); int(e.offences, 4); int(e.jailedUntil, 8); break;
    case 'ConsensusKeyRotationQueued': raw(e.validator); raw(e.newKey); int(e.epoch, 8); break;
  }
  return { kind: KIND_CODES[e.kind], data: Uint8Array.from(out) };
}
