// End of every block: proposer and miss accounting, the block reward and, at an epoch boundary,
// queued key rotations, auto-compounding and the active set (docs/staking.md; spec §1.8, §3, §8).
// Runs after the block's bundles, inside the block checkpoint, in u64/u128 checked integer math.

import { inUpgradeGrace } from "../upgrades/ops";
import * as U from "../../u128";
import * as AMM from "../../amm";
import { balanceEntry, consensusKeyEntry, delegationEntry, autoCompoundEntry, delegatorIndexEntry, tokenEntry, validatorEntry } from "../../keys";
import { beginWrite, deleteValue, exists, setValue, valLen, valPtr } from "../../state";
import { credit, tokenSupplyOffset } from "../../ledger";
import { bufNew, bufSetLen, bufBytes, bufPtr, bytesCmp } from "../../mem";
import { PROPOSER, TREASURY, NTV_MINT } from "../../context";
import {
  loadParams, stakingEnabled, pEpochLength, pMaxActive, PRECISION,
  vw, vTotal, vAddStake, selfAtMinimum, updatePerformance, delegationFor, settle, setDelegationAmount, listAdd, listCount, listItem,
  stakingState, sw, stValidatorCount, stValidator, stSetActive, stAddTotal, validatorOf,
} from "./validators";
import { R_DELEGATION_AMOUNT, R_DELEGATION_PENDING, R_STAKING_STATE_CARRY, R_STAKING_STATE_EMISSION_START, R_STAKING_STATE_EMITTED, R_STAKING_STATE_EPOCH, R_STAKING_STATE_LAST_TIMESTAMP, R_VALIDATOR_ACC_REWARD_PER_SHARE, R_VALIDATOR_ACTIVE, R_VALIDATOR_BLOCKS_MISSED, R_VALIDATOR_BLOCKS_PROPOSED, R_VALIDATOR_BUNDLES_INCLUDED, R_VALIDATOR_COMMISSION_BPS, R_VALIDATOR_CONSENSUS_KEY, R_VALIDATOR_HAS_PENDING_KEY, R_VALIDATOR_JAILED, R_VALIDATOR_MISSED_IN_ROW, R_VALIDATOR_PENDING_KEY, R_VALIDATOR_PERFORMANCE_BPS, R_VALIDATOR_REWARD_POOL, R_VALIDATOR_TOTAL_REWARDS } from "../../abi";

/** Seconds in an emission year (365 days). */
export const YEAR: u64 = 31_536_000;
/**
 * Yearly emission in raw NTV (9 decimals) for years 1–10 (spec §1.8: 13M in years 1–2, 64.72M in
 * ten years; years 3–10 decline, docs/staking.md "Emission schedule").
 */
const RATES = memory.data<u64>([
  13_000_000_000_000_000, 13_000_000_000_000_000, 8_000_000_000_000_000, 6_800_000_000_000_000, 5_800_000_000_000_000,
  4_900_000_000_000_000, 4_200_000_000_000_000, 3_500_000_000_000_000, 3_000_000_000_000_000, 2_520_000_000_000_000,
]);
/** 64,720,000 NTV: the sum of RATES, the 4% of supply not allocated at genesis. */
export const EMISSION_TOTAL: u64 = 64_720_000_000_000_000;

/**
 * Scheduled cumulative emission s seconds after the emission start: whole years plus the running
 * year's rate × elapsed / YEAR, rounded down. Per-block amounts are differences of this, so rounding
 * never accumulates and ten years give exactly EMISSION_TOTAL.
 */
export function emissionTarget(s: u64): u64 {
  let y = s / YEAR;
  if (y >= 10) return EMISSION_TOTAL;
  let cum: u64 = 0;
  for (let i: u64 = 0; i < y; i++) cum += load<u64>(RATES + (<usize>i << 3));
  U.mul64(load<u64>(RATES + (<usize>y << 3)), s - y * YEAR);
  U.divSmall(U.lo, U.hi, <u32>YEAR);
  return cum + U.lo; // < 13e15 · 1: fits
}

/** floor(a·m/d) for results that fit u64. */
function mulDivU64(a: u64, m: u64, d: u64): u64 {
  AMM.mulDiv(a, 0, m, 0, d, 0);
  return U.lo;
}

// Test hook results (emission_split export): the last block's split.
export let lastBase: u64 = 0;
export let lastTreasury: u64 = 0;
export let lastProposer: u64 = 0;
export let lastMultiplier: u64 = 0;

/** Density multiplier in bps: 0.5× for an empty block to 2.0× for a full one, by gas used / gas limit. */
export function densityBps(gasUsed: u64, gasLimit: u64): u64 {
  if (gasLimit == 0) return 5000;
  let used = gasUsed > gasLimit ? gasLimit : gasUsed;
  return 5000 + mulDivU64(15000, used, gasLimit);
}

/** Add to the NTV token record's total_supply (docs/core-abi.md TokenRecord; minted rewards are new supply). */
function addNtvSupply(amount: u64): void {
  let e = tokenEntry(NTV_MINT);
  if (!exists(e) || amount == 0) return;
  let p = valPtr(e);
  let off = tokenSupplyOffset(p);
  let w = beginWrite(e, <u32>valLen(e));
  U.add128(load<u64>(w + off), load<u64>(w + off, 8), amount, 0);
  store<u64>(w + off, U.lo);
  store<u64>(w + off, U.hi, 8);
}

/** The proposer side after commission, split pro rata through the reward-per-share accumulator. */
function distribute(v: usize, amount: u64): void {
  if (amount == 0) return;
  let p = valPtr(v);
  let comm = mulDivU64(amount, <u64>load<u16>(p + R_VALIDATOR_COMMISSION_BPS), 10000);
  let rest = amount - comm;
  vTotal(p);
  let totLo = U.lo, totHi = U.hi;
  if ((totLo | totHi) == 0) {
    comm = amount;
    rest = 0;
  }
  let w = vw(v);
  if (rest > 0) {
    AMM.mulDiv(rest, 0, PRECISION, 0, totLo, totHi);
    U.add128(load<u64>(w + R_VALIDATOR_ACC_REWARD_PER_SHARE), load<u64>(w + R_VALIDATOR_ACC_REWARD_PER_SHARE, 8), U.lo, U.hi); // ≤ emission·P/min stake
    store<u64>(w + R_VALIDATOR_ACC_REWARD_PER_SHARE, U.lo);
    store<u64>(w + R_VALIDATOR_ACC_REWARD_PER_SHARE, U.hi, 8);
    U.add128(load<u64>(w + R_VALIDATOR_REWARD_POOL), load<u64>(w + R_VALIDATOR_REWARD_POOL, 8), rest, 0);
    store<u64>(w + R_VALIDATOR_REWARD_POOL, U.lo);
    store<u64>(w + R_VALIDATOR_REWARD_POOL, U.hi, 8);
  }
  U.add128(load<u64>(w + R_VALIDATOR_TOTAL_REWARDS), load<u64>(w + R_VALIDATOR_TOTAL_REWARDS, 8), amount, 0);
  store<u64>(w + R_VALIDATOR_TOTAL_REWARDS, U.lo);
  store<u64>(w + R_VALIDATOR_TOTAL_REWARDS, U.hi, 8);
  // Commission is the validator's own: into its own delegation's pending rewards.
  let d = delegationFor(PROPOSER, PROPOSER, false);
  listAdd(delegatorIndexEntry(PROPOSER), PROPOSER, 0xffffffff);
  settle(v, d);
  if (comm > 0) {
    let dw = beginWrite(d, <u32>valLen(d));
    U.add128(load<u64>(dw + R_DELEGATION_PENDING), load<u64>(dw + R_DELEGATION_PENDING, 8), comm, 0);
    store<u64>(dw + R_DELEGATION_PENDING, U.lo);
    store<u64>(dw + R_DELEGATION_PENDING, U.hi, 8);
  }
}

/** The block's emission: treasury 15%, proposer side 85% × density × performance (docs/staking.md). */
function emit(st: usize, ts: u64, gasUsed: u64, gasLimit: u64, pv: usize): void {
  let sp = valPtr(st);
  let start = load<u64>(sp + R_STAKING_STATE_EMISSION_START);
  let last = load<u64>(sp + R_STAKING_STATE_LAST_TIMESTAMP);
  lastBase = 0; lastTreasury = 0; lastProposer = 0; lastMultiplier = densityBps(gasUsed, gasLimit);
  if (start == 0) {
    // The first block starts the emission clock (docs/staking.md: the testnet genesis time is a
    // fixed date, so counting from it would pay months of rewards into block 1).
    let w = sw(st);
    store<u64>(w + R_STAKING_STATE_EMISSION_START, ts);
    store<u64>(w + R_STAKING_STATE_LAST_TIMESTAMP, ts);
    return;
  }
  if (ts <= last) return;
  let base = emissionTarget(ts - start) - emissionTarget(last - start);
  let treasury = mulDivU64(base, 1500, 10000);
  let pBase = base - treasury;
  let m = lastMultiplier;
  let want = mulDivU64(pBase, m, 10000);
  let carry = load<u64>(sp + R_STAKING_STATE_CARRY);
  let proposer: u64;
  if (want <= pBase) {
    carry += pBase - want; // an emptier block leaves the rest of its share for fuller ones
    proposer = want;
  } else {
    let extra = want - pBase;
    if (extra > carry) extra = carry; // a fuller block is paid only from what emptier ones left
    carry -= extra;
    proposer = pBase + extra;
  }
  let paid: u64 = 0;
  if (pv != 0) {
    paid = mulDivU64(proposer, <u64>load<u16>(valPtr(pv) + R_VALIDATOR_PERFORMANCE_BPS), 10000);
  }
  carry += proposer - paid; // the performance discount, or no validator to pay
  if (treasury > 0) credit(balanceEntry(TREASURY, NTV_MINT), treasury, 0); // ≤ supply: no overflow
  if (paid > 0) distribute(pv, paid);
  let w = sw(st);
  store<u64>(w + R_STAKING_STATE_CARRY, carry);
  store<u64>(w + R_STAKING_STATE_CARRY, 0, 8);
  U.add128(load<u64>(w + R_STAKING_STATE_EMITTED), load<u64>(w + R_STAKING_STATE_EMITTED, 8), treasury + paid, 0);
  store<u64>(w + R_STAKING_STATE_EMITTED, U.lo);
  store<u64>(w + R_STAKING_STATE_EMITTED, U.hi, 8);
  store<u64>(w + R_STAKING_STATE_LAST_TIMESTAMP, ts);
  addNtvSupply(treasury + paid);
  lastBase = base; lastTreasury = treasury; lastProposer = paid;
}

const listCopy = bufNew(64 * 1024);
const SORT_IDX = memory.data(4 * 1000);
const SORT_LO = memory.data(8 * 1000);
const SORT_HI = memory.data(8 * 1000);
const activeOut = bufNew(32 * 1000);

/** Queued consensus key rotations take effect (spec §3: applied at the next epoch boundary). */
function applyRotations(st: usize): void {
  let n = stValidatorCount(st);
  for (let i: u32 = 0; i < n; i++) {
    let account = stValidator(st, i);
    let v = validatorEntry(account);
    if (!exists(v) || load<u8>(valPtr(v) + R_VALIDATOR_HAS_PENDING_KEY) == 0) continue;
    let w = vw(v);
    let fresh = consensusKeyEntry(w + R_VALIDATOR_PENDING_KEY);
    if (!exists(fresh)) {
      // Taken meanwhile by another validator's Stake: the rotation is dropped.
      deleteValue(consensusKeyEntry(w + R_VALIDATOR_CONSENSUS_KEY));
      setValue(consensusKeyEntry(w + R_VALIDATOR_PENDING_KEY), account, 32);
      memory.copy(w + R_VALIDATOR_CONSENSUS_KEY, w + R_VALIDATOR_PENDING_KEY, 32);
    }
    store<u8>(w + R_VALIDATOR_HAS_PENDING_KEY, 0);
    memory.fill(w + R_VALIDATOR_PENDING_KEY, 0, 32);
  }
}

/** Delegations with auto_compound on restake their settled rewards (spec §4.10 svc_setAutoCompound). */
function autoCompound(st: usize): void {
  let n = stValidatorCount(st);
  for (let i: u32 = 0; i < n; i++) {
    let account = stValidator(st, i);
    let v = validatorEntry(account);
    let ac = autoCompoundEntry(account);
    let m = listCount(ac);
    if (!exists(v) || m == 0) continue;
    bufSetLen(listCopy, 0);
    bufBytes(listCopy, listItem(ac, 0), m << 5);
    for (let k: u32 = 0; k < m; k++) {
      let delegator = bufPtr(listCopy) + (<usize>k << 5);
      let d = delegationEntry(account, delegator);
      if (!exists(d)) continue;
      settle(v, d);
      let dp = valPtr(d);
      let pLo = load<u64>(dp + R_DELEGATION_PENDING), pHi = load<u64>(dp + R_DELEGATION_PENDING, 8);
      if ((pLo | pHi) == 0) continue;
      U.add128(load<u64>(dp + R_DELEGATION_AMOUNT), load<u64>(dp + R_DELEGATION_AMOUNT, 8), pLo, pHi); // ≤ supply
      let aLo = U.lo, aHi = U.hi;
      let dw = beginWrite(d, <u32>valLen(d));
      store<u64>(dw + R_DELEGATION_PENDING, 0);
      store<u64>(dw + R_DELEGATION_PENDING, 0, 8);
      setDelegationAmount(v, d, aLo, aHi);
      vAddStake(v, bytesCmp(account, 32, delegator, 32) == 0, pLo, pHi, false);
      stAddTotal(pLo, pHi, false);
    }
  }
}

/**
 * The active set: validators not jailed whose self stake reaches the minimum, by total stake
 * (ties: account bytes ascending), at most max_active_validators (spec §3, §8).
 */
function recomputeActive(st: usize): void {
  let n = stValidatorCount(st);
  let c: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    let v = validatorEntry(stValidator(st, i));
    if (!exists(v)) continue;
    let p = valPtr(v);
    if (load<u8>(p + R_VALIDATOR_JAILED) == 1 || !selfAtMinimum(p)) continue;
    vTotal(p);
    // Insertion sort (≤ 1,000 validators, once per epoch).
    let j = c;
    while (j > 0) {
      let q = load<u32>(SORT_IDX + ((<usize>j - 1) << 2));
      let qLo = load<u64>(SORT_LO + ((<usize>j - 1) << 3)), qHi = load<u64>(SORT_HI + ((<usize>j - 1) << 3));
      let before = U.lt128(qLo, qHi, U.lo, U.hi) ||
        (qLo == U.lo && qHi == U.hi && bytesCmp(stValidator(st, i), 32, stValidator(st, q), 32) < 0);
      if (!before) break;
      store<u32>(SORT_IDX + (<usize>j << 2), q);
      store<u64>(SORT_LO + (<usize>j << 3), qLo);
      store<u64>(SORT_HI + (<usize>j << 3), qHi);
      j--;
    }
    store<u32>(SORT_IDX + (<usize>j << 2), i);
    store<u64>(SORT_LO + (<usize>j << 3), U.lo);
    store<u64>(SORT_HI + (<usize>j << 3), U.hi);
    c++;
  }
  let take = c < pMaxActive ? c : pMaxActive;
  // Flags: clear everyone, then set the chosen.
  for (let i: u32 = 0; i < n; i++) {
    let v = validatorEntry(stValidator(st, i));
    if (exists(v) && load<u8>(valPtr(v) + R_VALIDATOR_ACTIVE) == 1) store<u8>(vw(v) + R_VALIDATOR_ACTIVE, 0);
  }
  bufSetLen(activeOut, 0);
  for (let k: u32 = 0; k < take; k++) {
    let account = stValidator(st, load<u32>(SORT_IDX + (<usize>k << 2)));
    store<u8>(vw(validatorEntry(account)) + R_VALIDATOR_ACTIVE, 1);
    bufBytes(activeOut, account, 32);
  }
  stSetActive(st, bufPtr(activeOut), take);
}

/**
 * After the block's bundles. `missed`: consensus keys of leaders skipped before this proposer.
 * No-op for a genesis without chain parameters (a ledger without staking).
 */
export function endBlock(height: u64, ts: u64, gasUsed: u64, gasLimit: u64, okCount: u32, missed: usize, missedCount: u32): void {
  loadParams();
  if (!stakingEnabled || height == 0) return;
  let st = stakingState();
  let pv = validatorOf(PROPOSER);
  if (pv != 0) {
    let w = vw(pv);
    store<u64>(w + R_VALIDATOR_BLOCKS_PROPOSED, load<u64>(w + R_VALIDATOR_BLOCKS_PROPOSED) + 1);
    store<u32>(w + R_VALIDATOR_MISSED_IN_ROW, 0);
    store<u64>(w + R_VALIDATOR_BUNDLES_INCLUDED, load<u64>(w + R_VALIDATOR_BUNDLES_INCLUDED) + <u64>okCount);
    updatePerformance(pv);
  }
  // spec §3/§8: in the 100 blocks from an applied upgrade, leaders skipped while nodes restart on
  // the new release are not counted as missed (docs/upgrades.md "Grace period").
  if (inUpgradeGrace(height)) missedCount = 0;
  for (let i: u32 = 0; i < missedCount; i++) {
    let ke = consensusKeyEntry(missed + (<usize>i << 5));
    if (!exists(ke)) continue;
    let v = validatorOf(valPtr(ke));
    if (v == 0) continue;
    let w = vw(v);
    store<u64>(w + R_VALIDATOR_BLOCKS_MISSED, load<u64>(w + R_VALIDATOR_BLOCKS_MISSED) + 1);
    store<u32>(w + R_VALIDATOR_MISSED_IN_ROW, load<u32>(w + R_VALIDATOR_MISSED_IN_ROW) + 1);
    updatePerformance(v);
  }
  emit(st, ts, gasUsed, gasLimit, pv);
  if (height % pEpochLength == 0) {
    releaseCarry(st);
    forgiveMisses(st);
    applyRotations(st);
    autoCompound(st);
    recomputeActive(st);
    store<u64>(sw(st) + R_STAKING_STATE_EPOCH, height / pEpochLength);
  }
}

/**
 * Epoch boundary: what the epoch's emptier blocks and performance discounts held back and no fuller
 * block drew on goes to the treasury, so the emission meets the schedule exactly at every boundary
 * (spec §1.8: 13M NTV a year in years 1–2, 64.72M over ten) while the density multiplier still moves
 * the proposers' share from empty to full blocks within the epoch (docs/staking.md "Rewards").
 */
function releaseCarry(st: usize): void {
  let carry = load<u64>(valPtr(st) + R_STAKING_STATE_CARRY);
  if (carry == 0) return;
  credit(balanceEntry(TREASURY, NTV_MINT), carry, 0); // ≤ the schedule: no overflow
  let w = sw(st);
  store<u64>(w + R_STAKING_STATE_CARRY, 0);
  U.add128(load<u64>(w + R_STAKING_STATE_EMITTED), load<u64>(w + R_STAKING_STATE_EMITTED, 8), carry, 0);
  store<u64>(w + R_STAKING_STATE_EMITTED, U.lo);
  store<u64>(w + R_STAKING_STATE_EMITTED, U.hi, 8);
  addNtvSupply(carry);
  lastTreasury += carry;
}

/**
 * Epoch boundary: every validator's run of consecutive misses starts again, so one that was skipped
 * after 3 misses (spec §2.4, docs/consensus.md "Rounds") gets its turns back. One still offline
 * costs at most 3 failovers an epoch; a validator back online leads and earns again.
 */
function forgiveMisses(st: usize): void {
  let n = stValidatorCount(st);
  for (let i: u32 = 0; i < n; i++) {
    let v = validatorEntry(stValidator(st, i));
    if (exists(v) && load<u32>(valPtr(v) + R_VALIDATOR_MISSED_IN_ROW) != 0) store<u32>(vw(v) + R_VALIDATOR_MISSED_IN_ROW, 0);
  }
}
