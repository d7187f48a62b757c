// Staking records: chain parameters, validator and delegation records, the staking state and its
// lists (docs/staking.md "State layout"; src/chain/validator-set.ts decodes the same bytes).
// Fixed-size fields are updated in place (beginWrite with the same length keeps the bytes where
// they are and journals the old copy); records whose strings change are rebuilt.

import * as U from "../../u128";
import * as AMM from "../../amm";
import { P_CHAIN_PARAMS, P_STAKING_STATE, GOV_MIN_VOTING_PERIOD, GOV_MAX_VOTING_PERIOD, R_CHAIN_PARAMS_JAIL_DURATIONS_DATA, R_GOV_PARAMS_BYTES, R_GOV_PARAMS_VOTING_PERIOD_BLOCKS, R_GOV_PARAMS_QUORUM_BPS, R_GOV_PARAMS_THRESHOLD_BPS, R_DELEGATION_AMOUNT, R_DELEGATION_AUTO_COMPOUND, R_DELEGATION_BYTES, R_DELEGATION_PENDING, R_DELEGATION_REWARD_DEBT, R_DELEGATION_SINCE, R_STAKING_STATE_TOTAL_STAKED, R_STAKING_STATE_VALIDATORS, R_VALIDATOR_ACC_REWARD_PER_SHARE, R_VALIDATOR_ACTIVE, R_VALIDATOR_BLOCKS_MISSED, R_VALIDATOR_BLOCKS_PROPOSED, R_VALIDATOR_CONSENSUS_KEY, R_VALIDATOR_CREATED_HEIGHT, R_VALIDATOR_CREATED_TIME, R_VALIDATOR_DELEGATED, R_VALIDATOR_LAST_COMMISSION_CHANGE, R_VALIDATOR_LAST_ROTATION_EPOCH, R_VALIDATOR_NAME, R_VALIDATOR_PERFORMANCE_BPS, R_VALIDATOR_REWARD_POOL, R_VALIDATOR_SELF_STAKE, R_CHAIN_PARAMS_COMMISSION_COOLDOWN_BLOCKS, R_CHAIN_PARAMS_EPOCH_LENGTH, R_CHAIN_PARAMS_JAIL_DURATIONS, R_CHAIN_PARAMS_MAX_ACTIVE_VALIDATORS, R_CHAIN_PARAMS_MAX_COMMISSION_BPS, R_CHAIN_PARAMS_MIN_STAKE, R_CHAIN_PARAMS_SLOT_LENGTH, R_CHAIN_PARAMS_UNBONDING_SECONDS, R_ACCOUNT_LIST_ACCOUNTS_DATA, R_STAKING_STATE_VALIDATORS_DATA } from "../../abi";
import {
  singletonEntry, validatorEntry, delegationEntry, autoCompoundEntry, delegatorIndexEntry,
} from "../../keys";
import { beginWrite, deleteValue, exists, setValue, valLen, valPtr } from "../../state";
import { bufNew, bufSetLen, bufLen, bufPtr, bufBytes, bufU32, bytesEq } from "../../mem";
import { ctxTimestamp } from "../../context";

export const NEVER: u64 = 0xFFFFFFFFFFFFFFFF;
/** Scale of the reward-per-share accumulator (docs/staking.md "Rewards"). */
export const PRECISION: u64 = 1_000_000_000_000_000_000;

// ---- chain parameters (0x15; src/chain/chain-params.ts) ------------------------------------------

export let pEpochLength: u64 = 1800;
export let pMaxActive: u32 = 100;
export let pMinStakeLo: u64 = 1_000_000_000_000;
export let pMinStakeHi: u64 = 0;
export let pUnbonding: u64 = 21 * 86400;
export let pCooldown: u64 = 50400;
export let pMaxCommission: u32 = 5000;
export let pJailPtr: usize = 0; // u64 durations in the params record
export let pJailCount: u32 = 0;
const DEFAULT_JAIL = memory.data<u64>([3600, 86400, 604800, 2592000]);
/** false when genesis wrote no parameters: a ledger without staking (the core tests' minimal genesis). */
export let stakingEnabled: bool = false;

/** Whether a ChainParams record is well formed and in range (the host validates the same). */
export function paramsValid(p: usize, n: u32): bool {
  if (n < <u32>R_CHAIN_PARAMS_JAIL_DURATIONS_DATA || load<u8>(p) != 1) return false;
  let count = load<u32>(p + R_CHAIN_PARAMS_JAIL_DURATIONS);
  if (count < 1 || count > 16) return false;
  // An optional governance tail (docs/governance.md "Parameters"): count u8 = 1, voting_period_blocks
  // u64, quorum_bps u16, threshold_bps u16, in the ranges a ParameterChange allows.
  let base = <u32>R_CHAIN_PARAMS_JAIL_DURATIONS_DATA + count * 8;
  if (n == base + 1 + R_GOV_PARAMS_BYTES) {
    let t = p + base + 1; // after the tail's count u8
    let period = load<u64>(t + R_GOV_PARAMS_VOTING_PERIOD_BLOCKS), quorum = load<u16>(t + R_GOV_PARAMS_QUORUM_BPS), threshold = load<u16>(t + R_GOV_PARAMS_THRESHOLD_BPS);
    if (load<u8>(t - 1) != 1 || period < GOV_MIN_VOTING_PERIOD || period > GOV_MAX_VOTING_PERIOD) return false;
    if (quorum < 1 || quorum > 10000 || threshold < 5000 || threshold > 9999) return false;
  } else if (n != base) return false;
  if (load<u64>(p + R_CHAIN_PARAMS_EPOCH_LENGTH) == 0 || load<u64>(p + R_CHAIN_PARAMS_SLOT_LENGTH) == 0) return false;
  let maxActive = load<u32>(p + R_CHAIN_PARAMS_MAX_ACTIVE_VALIDATORS);
  if (maxActive < 1 || maxActive > 1000) return false;
  if ((load<u64>(p + R_CHAIN_PARAMS_MIN_STAKE) | load<u64>(p + R_CHAIN_PARAMS_MIN_STAKE, 8)) == 0) return false;
  if (load<u16>(p + R_CHAIN_PARAMS_MAX_COMMISSION_BPS) > 10000) return false;
  for (let i: u32 = 0; i < count; i++) if (load<u64>(p + R_CHAIN_PARAMS_JAIL_DURATIONS_DATA + (<usize>i << 3)) == 0) return false;
  return true;
}

/** Load the parameters from state (once per block and per genesis). */
export function loadParams(): void {
  let e = singletonEntry(P_CHAIN_PARAMS);
  if (!exists(e)) {
    stakingEnabled = false;
    pEpochLength = 1800; pMaxActive = 100; pMinStakeLo = 1_000_000_000_000; pMinStakeHi = 0;
    pUnbonding = 21 * 86400; pCooldown = 50400; pMaxCommission = 5000; pJailPtr = DEFAULT_JAIL; pJailCount = 4;
    return;
  }
  let p = valPtr(e);
  stakingEnabled = true;
  pEpochLength = load<u64>(p + R_CHAIN_PARAMS_EPOCH_LENGTH);
  pMaxActive = load<u32>(p + R_CHAIN_PARAMS_MAX_ACTIVE_VALIDATORS);
  pMinStakeLo = load<u64>(p + R_CHAIN_PARAMS_MIN_STAKE);
  pMinStakeHi = load<u64>(p + R_CHAIN_PARAMS_MIN_STAKE, 8);
  pUnbonding = load<u64>(p + R_CHAIN_PARAMS_UNBONDING_SECONDS);
  pCooldown = load<u64>(p + R_CHAIN_PARAMS_COMMISSION_COOLDOWN_BLOCKS);
  pMaxCommission = <u32>load<u16>(p + R_CHAIN_PARAMS_MAX_COMMISSION_BPS);
  pJailCount = load<u32>(p + R_CHAIN_PARAMS_JAIL_DURATIONS);
  pJailPtr = p + R_CHAIN_PARAMS_JAIL_DURATIONS_DATA;
}

/** Jail duration of the n-th offence (1-based); the last listed duration repeats (spec §8). */
export function jailDuration(offence: u32): u64 {
  let i: u32 = offence == 0 ? 0 : offence - 1;
  if (i >= pJailCount) i = pJailCount - 1;
  return load<u64>(pJailPtr + (<usize>i << 3));
}

// ---- validator record (0x10): fields at R_VALIDATOR_* (assembly/abi.ts, from abi/state.mjs) ----------

/** Performance of a validator with no record of proposals yet (facts.md: new validators 0.8). */
// @ts-ignore: decorator
@inline export const NEW_PERFORMANCE: u16 = 8000;

const vbuf = bufNew(2048);

/** A new validator record with empty strings (defaults of spec §2.4). */
export function createValidator(e: usize, key: usize, height: u64, active: bool): void {
  bufSetLen(vbuf, 0);
  let p = bufPtr(vbuf);
  memory.fill(p, 0, R_VALIDATOR_NAME + 20);
  store<u8>(p, 1);
  memory.copy(p + R_VALIDATOR_CONSENSUS_KEY, key, 32);
  store<u64>(p + R_VALIDATOR_LAST_COMMISSION_CHANGE, NEVER);
  store<u16>(p + R_VALIDATOR_PERFORMANCE_BPS, NEW_PERFORMANCE);
  store<u8>(p + R_VALIDATOR_ACTIVE, active ? 1 : 0);
  store<u64>(p + R_VALIDATOR_CREATED_HEIGHT, height);
  store<u64>(p + R_VALIDATOR_CREATED_TIME, ctxTimestamp);
  store<u64>(p + R_VALIDATOR_LAST_ROTATION_EPOCH, NEVER);
  setValue(e, p, <u32>R_VALIDATOR_NAME + 20); // five empty strings
}

/** In-place write access to a validator record's fixed fields. */
// @ts-ignore: decorator
@inline export function vw(e: usize): usize {
  return beginWrite(e, <u32>valLen(e));
}

/** The pointer of string i (0 name, 1 description, 2 website, 3 avatar_url, 4 pool_name) of a record. */
export function vString(p: usize, i: u32): usize {
  let o = p + R_VALIDATOR_NAME;
  for (let k: u32 = 0; k < i; k++) o += 4 + load<u32>(o);
  return o;
}

/**
 * Rebuild a validator record with new strings: for each of the five, a (ptr, len) or ptr 0 to keep
 * the current one.
 */
export function rewriteStrings(e: usize, ps: StaticArray<usize>, ns: StaticArray<u32>): void {
  let p = valPtr(e);
  bufSetLen(vbuf, 0);
  bufBytes(vbuf, p, <u32>R_VALIDATOR_NAME);
  for (let i: u32 = 0; i < 5; i++) {
    if (ps[i] != 0) {
      bufU32(vbuf, ns[i]);
      bufBytes(vbuf, ps[i], ns[i]);
    } else {
      let s = vString(p, i);
      bufBytes(vbuf, s, 4 + load<u32>(s));
    }
  }
  setValue(e, bufPtr(vbuf), bufLen(vbuf));
}

/** Add (or with sub, remove) to the self or delegated stake of a validator; false on under/overflow. */
export function vAddStake(e: usize, self: bool, lo: u64, hi: u64, sub: bool): bool {
  let p = valPtr(e);
  let off = self ? R_VALIDATOR_SELF_STAKE : R_VALIDATOR_DELEGATED;
  let f = sub ? U.sub128(load<u64>(p + off), load<u64>(p + off, 8), lo, hi) : U.add128(load<u64>(p + off), load<u64>(p + off, 8), lo, hi);
  if (f) return false;
  let w = vw(e);
  store<u64>(w + off, U.lo);
  store<u64>(w + off, U.hi, 8);
  return true;
}

/** Total stake (self + delegated) into U.lo/U.hi. */
export function vTotal(p: usize): void {
  U.add128(load<u64>(p + R_VALIDATOR_SELF_STAKE), load<u64>(p + R_VALIDATOR_SELF_STAKE, 8), load<u64>(p + R_VALIDATOR_DELEGATED), load<u64>(p + R_VALIDATOR_DELEGATED, 8));
}

/** Whether the self stake reaches the minimum stake. */
export function selfAtMinimum(p: usize): bool {
  return !U.lt128(load<u64>(p + R_VALIDATOR_SELF_STAKE), load<u64>(p + R_VALIDATOR_SELF_STAKE, 8), pMinStakeLo, pMinStakeHi);
}

/**
 * performance_bps = 5000 + 5000·(proposed + 3)/(proposed + missed + 5): 0.5 to 1.0 by the share of
 * its turns a validator used, starting from 0.8 with no record (a prior of 3 used of 5, facts.md).
 */
export function updatePerformance(e: usize): void {
  let p = valPtr(e);
  let proposed = load<u64>(p + R_VALIDATOR_BLOCKS_PROPOSED);
  let missed = load<u64>(p + R_VALIDATOR_BLOCKS_MISSED);
  let num = proposed + 3;
  let den = proposed + missed + 5;
  // u64 counts: 5000·num cannot overflow for any reachable block count (< 2^51).
  let perf = <u16>(5000 + (5000 * num) / den);
  if (load<u16>(p + R_VALIDATOR_PERFORMANCE_BPS) != perf) store<u16>(vw(e) + R_VALIDATOR_PERFORMANCE_BPS, perf);
}

// ---- delegation record (0x12) --------------------------------------------------------------------

const dzero = memory.data(64);

/** The delegation entry, created empty (auto_compound as given) when absent. */
export function delegationFor(validator: usize, delegator: usize, auto: bool): usize {
  let d = delegationEntry(validator, delegator);
  if (!exists(d)) {
    let p = beginWrite(d, R_DELEGATION_BYTES);
    memory.copy(p, dzero, R_DELEGATION_BYTES);
    store<u8>(p + R_DELEGATION_AUTO_COMPOUND, auto ? 1 : 0);
    store<u64>(p + R_DELEGATION_SINCE, ctxTimestamp);
  }
  return d;
}

/**
 * Bring a delegation's rewards up to date with its validator's accumulator: pending +=
 * floor(amount·acc/P) − debt, never more than the validator's reward pool holds (rounding dust
 * stays in the pool, so no NTV is created), then debt = floor(amount·acc/P).
 */
export function settle(v: usize, d: usize): void {
  let vp = valPtr(v);
  let dp = valPtr(d);
  AMM.mulDiv(load<u64>(dp + R_DELEGATION_AMOUNT), load<u64>(dp + R_DELEGATION_AMOUNT, 8), load<u64>(vp + R_VALIDATOR_ACC_REWARD_PER_SHARE), load<u64>(vp + R_VALIDATOR_ACC_REWARD_PER_SHARE, 8), PRECISION, 0);
  let fullLo = U.lo, fullHi = U.hi;
  let owedLo: u64 = 0, owedHi: u64 = 0;
  if (!U.sub128(fullLo, fullHi, load<u64>(dp + R_DELEGATION_REWARD_DEBT), load<u64>(dp + R_DELEGATION_REWARD_DEBT, 8))) {
    owedLo = U.lo;
    owedHi = U.hi;
  }
  let poolLo = load<u64>(vp + R_VALIDATOR_REWARD_POOL), poolHi = load<u64>(vp + R_VALIDATOR_REWARD_POOL, 8);
  if (U.lt128(poolLo, poolHi, owedLo, owedHi)) {
    owedLo = poolLo;
    owedHi = poolHi;
  }
  if ((owedLo | owedHi) != 0) {
    U.sub128(poolLo, poolHi, owedLo, owedHi);
    let w = vw(v);
    store<u64>(w + R_VALIDATOR_REWARD_POOL, U.lo);
    store<u64>(w + R_VALIDATOR_REWARD_POOL, U.hi, 8);
  }
  let dw = beginWrite(d, R_DELEGATION_BYTES);
  U.add128(load<u64>(dw + R_DELEGATION_PENDING), load<u64>(dw + R_DELEGATION_PENDING, 8), owedLo, owedHi); // ≤ total emission
  store<u64>(dw + R_DELEGATION_PENDING, U.lo);
  store<u64>(dw + R_DELEGATION_PENDING, U.hi, 8);
  store<u64>(dw + R_DELEGATION_REWARD_DEBT, fullLo);
  store<u64>(dw + R_DELEGATION_REWARD_DEBT, fullHi, 8);
}

/** Set a settled delegation's amount and its debt to match. */
export function setDelegationAmount(v: usize, d: usize, lo: u64, hi: u64): void {
  let vp = valPtr(v);
  AMM.mulDiv(lo, hi, load<u64>(vp + R_VALIDATOR_ACC_REWARD_PER_SHARE), load<u64>(vp + R_VALIDATOR_ACC_REWARD_PER_SHARE, 8), PRECISION, 0);
  let dw = beginWrite(d, R_DELEGATION_BYTES);
  store<u64>(dw + R_DELEGATION_AMOUNT, lo);
  store<u64>(dw + R_DELEGATION_AMOUNT, hi, 8);
  store<u64>(dw + R_DELEGATION_REWARD_DEBT, U.lo);
  store<u64>(dw + R_DELEGATION_REWARD_DEBT, U.hi, 8);
}

/** Delete a delegation that holds nothing, with its index entries. */
export function dropIfEmpty(validator: usize, delegator: usize, d: usize): void {
  let dp = valPtr(d);
  if ((load<u64>(dp + R_DELEGATION_AMOUNT) | load<u64>(dp + R_DELEGATION_AMOUNT, 8) | load<u64>(dp + R_DELEGATION_PENDING) | load<u64>(dp + R_DELEGATION_PENDING, 8)) != 0) return;
  if (load<u8>(dp + R_DELEGATION_AUTO_COMPOUND) == 1) listRemove(autoCompoundEntry(validator), delegator);
  listRemove(delegatorIndexEntry(delegator), validator);
  deleteValue(d);
}

// ---- lists of 32-byte items (u32 count, items) ---------------------------------------------------

const lbuf = bufNew(64 * 1024);

export function listCount(e: usize): u32 {
  return valLen(e) >= 4 ? load<u32>(valPtr(e)) : 0;
}
export function listItem(e: usize, i: u32): usize {
  return valPtr(e) + R_ACCOUNT_LIST_ACCOUNTS_DATA + (<usize>i << 5);
}
export function listIndex(e: usize, item: usize): i32 {
  let n = listCount(e);
  for (let i: u32 = 0; i < n; i++) if (bytesEq(listItem(e, i), item, 32)) return <i32>i;
  return -1;
}
/** Append when absent; false when the list already holds `max` items. */
export function listAdd(e: usize, item: usize, max: u32): bool {
  if (listIndex(e, item) >= 0) return true;
  let n = listCount(e);
  if (n >= max) return false;
  bufSetLen(lbuf, 0);
  bufU32(lbuf, n + 1);
  if (n > 0) bufBytes(lbuf, valPtr(e) + R_ACCOUNT_LIST_ACCOUNTS_DATA, n << 5);
  bufBytes(lbuf, item, 32);
  setValue(e, bufPtr(lbuf), bufLen(lbuf));
  return true;
}
export function listRemove(e: usize, item: usize): void {
  let i = listIndex(e, item);
  if (i < 0) return;
  let n = listCount(e);
  if (n == 1) {
    deleteValue(e);
    return;
  }
  bufSetLen(lbuf, 0);
  bufU32(lbuf, n - 1);
  let p = valPtr(e) + R_ACCOUNT_LIST_ACCOUNTS_DATA;
  bufBytes(lbuf, p, <u32>i << 5);
  bufBytes(lbuf, p + ((<usize>i + 1) << 5), (n - 1 - <u32>i) << 5);
  setValue(e, bufPtr(lbuf), bufLen(lbuf));
}

// ---- staking state (0x14) ------------------------------------------------------------------------

/** Registered validators at most (docs/staking.md "Limits"). */
// @ts-ignore: decorator
@inline export const MAX_VALIDATORS: u32 = 1000;

const sbuf = bufNew(80 * 1024);

/** The staking state entry, created empty when absent. */
export function stakingState(): usize {
  let e = singletonEntry(P_STAKING_STATE);
  if (!exists(e)) {
    let p = beginWrite(e, <u32>R_STAKING_STATE_VALIDATORS + 8);
    memory.fill(p, 0, R_STAKING_STATE_VALIDATORS + 8); // both lists empty: two u32 counts
    store<u8>(p, 1);
  }
  return e;
}

// @ts-ignore: decorator
@inline export function sw(e: usize): usize {
  return beginWrite(e, <u32>valLen(e));
}

export function stValidatorCount(e: usize): u32 {
  return load<u32>(valPtr(e) + R_STAKING_STATE_VALIDATORS);
}
export function stValidator(e: usize, i: u32): usize {
  return valPtr(e) + R_STAKING_STATE_VALIDATORS_DATA + (<usize>i << 5);
}
function activeListPtr(p: usize): usize {
  return p + R_STAKING_STATE_VALIDATORS_DATA + (<usize>load<u32>(p + R_STAKING_STATE_VALIDATORS) << 5);
}
export function stActiveCount(e: usize): u32 {
  return load<u32>(activeListPtr(valPtr(e)));
}
export function stActive(e: usize, i: u32): usize {
  return activeListPtr(valPtr(e)) + 4 + (<usize>i << 5);
}

/** Rebuild the state with a validator appended (add != 0) and/or a new active list. */
function rebuild(e: usize, addValidator: usize, active: usize, activeCount: u32): void {
  let p = valPtr(e);
  let n = load<u32>(p + R_STAKING_STATE_VALIDATORS);
  bufSetLen(sbuf, 0);
  bufBytes(sbuf, p, <u32>R_STAKING_STATE_VALIDATORS);
  bufU32(sbuf, addValidator != 0 ? n + 1 : n);
  bufBytes(sbuf, p + R_STAKING_STATE_VALIDATORS_DATA, n << 5);
  if (addValidator != 0) bufBytes(sbuf, addValidator, 32);
  if (active != 0) {
    bufU32(sbuf, activeCount);
    bufBytes(sbuf, active, activeCount << 5);
  } else {
    let a = activeListPtr(p);
    bufBytes(sbuf, a, 4 + (load<u32>(a) << 5));
  }
  setValue(e, bufPtr(sbuf), bufLen(sbuf));
}

export function stAddValidator(e: usize, account: usize): bool {
  if (stValidatorCount(e) >= MAX_VALIDATORS) return false;
  rebuild(e, account, 0, 0);
  return true;
}

export function stSetActive(e: usize, list: usize, count: u32): void {
  rebuild(e, 0, list, count);
}

const abuf = bufNew(32 * 1024);

/** Add an account to the active list (genesis validators are active from block 1). */
export function stActivate(e: usize, account: usize): void {
  let n = stActiveCount(e);
  bufSetLen(abuf, 0);
  bufBytes(abuf, stActive(e, 0), n << 5);
  bufBytes(abuf, account, 32);
  stSetActive(e, bufPtr(abuf), n + 1);
}

/** Leave the active set at once (jailed, or self stake below the minimum; docs/staking.md). */
export function deactivate(v: usize, account: usize): void {
  let vp = valPtr(v);
  if (load<u8>(vp + R_VALIDATOR_ACTIVE) == 0) return;
  store<u8>(vw(v) + R_VALIDATOR_ACTIVE, 0);
  let e = stakingState();
  let n = stActiveCount(e);
  bufSetLen(abuf, 0);
  let kept: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    let a = stActive(e, i);
    if (bytesEq(a, account, 32)) continue;
    bufBytes(abuf, a, 32);
    kept++;
  }
  stSetActive(e, bufPtr(abuf), kept);
}

/** total_staked += / −= amount (bounded by the NTV supply, so it cannot overflow). */
export function stAddTotal(lo: u64, hi: u64, sub: bool): void {
  let e = stakingState();
  let w = sw(e);
  if (sub) U.sub128(load<u64>(w + R_STAKING_STATE_TOTAL_STAKED), load<u64>(w + R_STAKING_STATE_TOTAL_STAKED, 8), lo, hi);
  else U.add128(load<u64>(w + R_STAKING_STATE_TOTAL_STAKED), load<u64>(w + R_STAKING_STATE_TOTAL_STAKED, 8), lo, hi);
  store<u64>(w + R_STAKING_STATE_TOTAL_STAKED, U.lo);
  store<u64>(w + R_STAKING_STATE_TOTAL_STAKED, U.hi, 8);
}

/** The validator record of an account, or 0 when it runs none. */
export function validatorOf(account: usize): usize {
  let e = validatorEntry(account);
  return exists(e) ? e : 0;
}
