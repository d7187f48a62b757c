// Bigint reference of the staking economics (docs/staking.md "Emission", "Rewards"): the emission
// schedule, one block's split, and the accumulator split among delegators, written plainly so the
// core's u64/u128 limb math can be checked against it. Also a supply audit over a state map.

import { decodeTokenRecord } from '../../src/core/records.js';
import {
  decodeDelegation, decodeUnbonding, decodeValidatorRecord, StakingPrefix, REWARD_PRECISION,
} from '../../src/chain/validator-set.js';

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
