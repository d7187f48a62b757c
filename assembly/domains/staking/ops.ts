// Staking operations (bundle-format discriminants 4–14, 36, 119; docs/staking.md "Operations";
// spec §3 validator/stake/commission/consensus-key rows, §7.8, §8). The staking account of a
// validator is the bundle's user; `validator` fields name a validator by its staking account.
// A refused operation returns its status and the bundle checkpoint reverts whatever it wrote (spec §7.5).

import * as S from "../../status";
import * as U from "../../u128";
import {
  balanceEntry, consensusKeyEntry, delegationEntry, delegatorIndexEntry, autoCompoundEntry, unbondingEntry, validatorEntry, evidenceEntry,
} from "../../keys";
import { beginWrite, deleteValue, exists, setValue, valLen, valPtr } from "../../state";
import { credit, debit } from "../../ledger";
import { bufNew, bufSetLen, bufLen, bufPtr, bufBytes, bufU32, bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp, NTV_MINT } from "../../context";
import { blake3 } from "../../blake3";
import {
  loadParams, pMinStakeLo, pMinStakeHi, pUnbonding, pCooldown, pMaxCommission, pEpochLength, jailDuration, NEVER, createValidator, vw, vAddStake, selfAtMinimum, rewriteStrings, delegationFor, settle, setDelegationAmount, dropIfEmpty, listAdd, listRemove, listCount, listItem, stakingState, stAddValidator, stAddTotal, stActivate, deactivate, validatorOf,
} from "./validators";
import { OP_CLAIM_REWARDS, OP_CLAIM_UNSTAKE, OP_DELEGATE, OP_REPORT_DOUBLE_SIGN, OP_ROTATE_CONSENSUS_KEY, OP_SET_AUTO_COMPOUND, OP_SET_COMMISSION, OP_SET_POOL_CONFIG, OP_SET_VALIDATOR_METADATA, OP_STAKE, OP_UNDELEGATE, OP_UNJAIL, OP_UNSTAKE, R_DELEGATION_AMOUNT, R_DELEGATION_AUTO_COMPOUND, R_DELEGATION_PENDING, R_VALIDATOR_AUTO_COMPOUND_DEFAULT, R_VALIDATOR_COMMISSION_BPS, R_VALIDATOR_CONSENSUS_KEY, R_VALIDATOR_HAS_PENDING_KEY, R_VALIDATOR_JAILED, R_VALIDATOR_JAIL_RELEASE_TIME, R_VALIDATOR_LAST_COMMISSION_CHANGE, R_VALIDATOR_LAST_ROTATION_EPOCH, R_VALIDATOR_MIN_DELEGATION, R_VALIDATOR_MISSED_IN_ROW, R_VALIDATOR_OFFENCES, R_VALIDATOR_PENDING_KEY, R_VALIDATOR_POOL_ENABLED, R_VALIDATOR_SELF_STAKE, R_UNBONDING_ENTRIES_DATA, R_UNBONDING_ENTRY_BYTES, R_UNBONDING_ENTRY_AMOUNT, R_UNBONDING_ENTRY_RELEASE_TIME, OPF_DELEGATE_AMOUNT, OPF_SET_AUTO_COMPOUND_ENABLE, OPF_UNDELEGATE_AMOUNT, OPF_UNSTAKE_AMOUNT, OPF_STAKE_AMOUNT, OPF_STAKE_VALIDATOR_PUBKEY, OPF_SET_POOL_CONFIG_POOL_NAME, OPF_SET_POOL_CONFIG_POOL_NAME_DATA, OPF_REPORT_DOUBLE_SIGN_HEADER_A, OPF_REPORT_DOUBLE_SIGN_HEADER_A_DATA, OPF_REPORT_DOUBLE_SIGN_HEIGHT } from "../../abi";
import {
  EV_UNSTAKED, EV_UNDELEGATED,
} from "../../abi";
import {
  emitAutoCompoundSet, emitCommissionSet, emitConsensusKeyRotationQueued, emitDelegated, emitDoubleSignReported, emitPoolConfigSet,
  emitRewardsClaimed, emitStaked, emitUnstakeClaimed, emitUndelegated, emitUnstaked, emitValidatorMetadataSet, emitValidatorUnjailed,
} from "../../events-gen";

/** Entries per account (docs/staking.md "Limits"). */
// @ts-ignore: decorator
@inline const MAX_UNBONDING: u32 = 32;
// @ts-ignore: decorator
@inline const MAX_DELEGATIONS: u32 = 32;
// @ts-ignore: decorator
@inline const MAX_AUTO_COMPOUND: u32 = 2000;
/** The header bytes (src/chain/block.ts headerSigningBytes): height at 8, proposer_pubkey at 88. */
// @ts-ignore: decorator
@inline const HDR_HEIGHT: usize = 8;
// @ts-ignore: decorator
@inline const HDR_PUBKEY: usize = 88;
// @ts-ignore: decorator
@inline const HDR_MIN: u32 = 120;

const ubuf = bufNew(1024);
const HASH_A = memory.data(32);
const HASH_B = memory.data(32);
const ONE = memory.data<u8>([1]);
const SP = new StaticArray<usize>(5);
const SN = new StaticArray<u32>(5);
/** Bundle and operation index of the operation being executed, for its event (docs/staking.md "Events"). */
let evBundle: u32 = 0;
let evOp: u16 = 0;

/** Whether this op is one of the staking family (the dispatcher routes it here). */
export function isStakingOp(kind: u32): bool {
  return (kind >= OP_STAKE && kind <= OP_SET_VALIDATOR_METADATA) || kind == OP_REPORT_DOUBLE_SIGN || kind == OP_ROTATE_CONSENSUS_KEY;
}

export function execStaking(kind: u32, user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  loadParams();
  evBundle = bundleIndex;
  evOp = <u16>opIndex;
  if (kind == OP_STAKE) return stake(user, f);
  if (kind == OP_UNSTAKE) return unstake(user, user, load<u64>(f), load<u64>(f, OPF_UNSTAKE_AMOUNT + 8), EV_UNSTAKED);
  if (kind == OP_CLAIM_UNSTAKE) return claimUnstake(user);
  if (kind == OP_DELEGATE) return delegate(user, f, load<u64>(f, OPF_DELEGATE_AMOUNT), load<u64>(f, OPF_DELEGATE_AMOUNT + 8));
  if (kind == OP_UNDELEGATE) return unstake(user, f, load<u64>(f, OPF_UNDELEGATE_AMOUNT), load<u64>(f, OPF_UNDELEGATE_AMOUNT + 8), EV_UNDELEGATED);
  if (kind == OP_CLAIM_REWARDS) return claimRewards(user);
  if (kind == OP_SET_COMMISSION) return setCommission(user, <u32>load<u16>(f));
  if (kind == OP_UNJAIL) return unjail(user);
  if (kind == OP_SET_AUTO_COMPOUND) return setAutoCompound(user, f, load<u8>(f, OPF_SET_AUTO_COMPOUND_ENABLE) == 1);
  if (kind == OP_SET_POOL_CONFIG) return setPoolConfig(user, f);
  if (kind == OP_SET_VALIDATOR_METADATA) return setMetadata(user, f);
  if (kind == OP_REPORT_DOUBLE_SIGN) return reportDoubleSign(user, f);
  return rotateKey(user, f);
}

/** Stake{amount u128, validator_pubkey [32]}: create or top up the user's validator (spec §3). */
function stake(user: usize, f: usize): u32 {
  let lo = load<u64>(f), hi = load<u64>(f, OPF_STAKE_AMOUNT + 8);
  let key = f + OPF_STAKE_VALIDATOR_PUBKEY;
  if ((lo | hi) == 0) return S.ZERO_AMOUNT;
  let v = validatorOf(user);
  let created = v == 0;
  let st = stakingState();
  if (v != 0) {
    if (!bytesEq(valPtr(v) + R_VALIDATOR_CONSENSUS_KEY, key, 32)) return S.VALIDATOR_KEY_MISMATCH;
    let p = valPtr(v);
    if (U.add128(load<u64>(p + R_VALIDATOR_SELF_STAKE), load<u64>(p + R_VALIDATOR_SELF_STAKE, 8), lo, hi)) return S.AMOUNT_OVERFLOW;
    if (U.lt128(U.lo, U.hi, pMinStakeLo, pMinStakeHi)) return S.STAKE_BELOW_MINIMUM;
  } else {
    if (U.lt128(lo, hi, pMinStakeLo, pMinStakeHi)) return S.STAKE_BELOW_MINIMUM;
    if (exists(consensusKeyEntry(key))) return S.CONSENSUS_KEY_TAKEN;
    let ve = validatorEntry(user);
    if (!stAddValidator(st, user)) return S.TOO_MANY_ENTRIES;
    if (!listAdd(delegatorIndexEntry(user), user, MAX_DELEGATIONS)) return S.TOO_MANY_ENTRIES;
    createValidator(ve, key, ctxHeight, false); // joins the active set at the next epoch boundary
    setValue(consensusKeyEntry(key), user, 32);
    v = ve;
  }
  if (!debit(balanceEntry(user, NTV_MINT), lo, hi)) return S.INSUFFICIENT_BALANCE;
  addDelegation(v, user, user, lo, hi);
  // Staked{validator, consensus_key, amount, self_stake after, created}
  let self = valPtr(v) + R_VALIDATOR_SELF_STAKE;
  emitStaked(evBundle, evOp, user, key, lo, hi, load<u64>(self), load<u64>(self, 8), created ? 1 : 0);
  return S.OK;
}

/** Move amount into the (validator, delegator) delegation and the totals (all checked by the caller). */
function addDelegation(v: usize, validator: usize, delegator: usize, lo: u64, hi: u64): void {
  let d = delegationFor(validator, delegator, load<u8>(valPtr(v) + R_VALIDATOR_AUTO_COMPOUND_DEFAULT) == 1 && !bytesEq(validator, delegator, 32));
  if (load<u8>(valPtr(d) + R_DELEGATION_AUTO_COMPOUND) == 1) listAdd(autoCompoundEntry(validator), delegator, MAX_AUTO_COMPOUND);
  settle(v, d);
  let dp = valPtr(d);
  U.add128(load<u64>(dp + R_DELEGATION_AMOUNT), load<u64>(dp + R_DELEGATION_AMOUNT, 8), lo, hi); // ≤ supply
  setDelegationAmount(v, d, U.lo, U.hi);
  vAddStake(v, bytesEq(validator, delegator, 32), lo, hi, false);
  stAddTotal(lo, hi, false);
}

/** Delegate{validator [32], amount u128}. Delegating to one's own validator adds self stake. */
function delegate(user: usize, validator: usize, lo: u64, hi: u64): u32 {
  if ((lo | hi) == 0) return S.ZERO_AMOUNT;
  let v = validatorOf(validator);
  if (v == 0) return S.UNKNOWN_VALIDATOR;
  let own = bytesEq(user, validator, 32);
  let cur = validatorEntryDelegation(validator, user);
  let p = valPtr(v);
  let curLo: u64 = 0, curHi: u64 = 0;
  if (cur != 0) {
    curLo = load<u64>(valPtr(cur) + R_DELEGATION_AMOUNT);
    curHi = load<u64>(valPtr(cur) + R_DELEGATION_AMOUNT, 8);
  }
  if (U.add128(curLo, curHi, lo, hi)) return S.AMOUNT_OVERFLOW;
  if (!own && load<u8>(p + R_VALIDATOR_POOL_ENABLED) == 1 && U.lt128(U.lo, U.hi, load<u64>(p + R_VALIDATOR_MIN_DELEGATION), load<u64>(p + R_VALIDATOR_MIN_DELEGATION, 8))) {
    return S.DELEGATION_BELOW_MINIMUM;
  }
  if (cur == 0 && !listAdd(delegatorIndexEntry(user), validator, MAX_DELEGATIONS)) return S.TOO_MANY_ENTRIES;
  if (!debit(balanceEntry(user, NTV_MINT), lo, hi)) return S.INSUFFICIENT_BALANCE;
  addDelegation(v, validator, user, lo, hi);
  // Delegated{validator, delegator, amount, delegation after}
  let total = valPtr(delegationEntry(validator, user)) + R_DELEGATION_AMOUNT;
  emitDelegated(evBundle, evOp, validator, user, lo, hi, load<u64>(total), load<u64>(total, 8));
  return S.OK;
}

function validatorEntryDelegation(validator: usize, delegator: usize): usize {
  let d = delegationEntry(validator, delegator);
  return exists(d) ? d : 0;
}

/**
 * Unstake{amount} (validator = user) and Undelegate{validator, amount}: the amount leaves the stake
 * into an unbonding entry released after the unbonding period (spec §3: 21 days). A validator whose
 * self stake falls below the minimum leaves the active set at once.
 */
function unstake(user: usize, validator: usize, lo: u64, hi: u64, eventKind: u8): u32 {
  if ((lo | hi) == 0) return S.ZERO_AMOUNT;
  let v = validatorOf(validator);
  if (v == 0) return bytesEq(user, validator, 32) ? S.NOT_VALIDATOR : S.UNKNOWN_VALIDATOR;
  let d = validatorEntryDelegation(validator, user);
  if (d == 0) return bytesEq(user, validator, 32) ? S.INSUFFICIENT_STAKE : S.NO_DELEGATION;
  let dp = valPtr(d);
  if (U.sub128(load<u64>(dp + R_DELEGATION_AMOUNT), load<u64>(dp + R_DELEGATION_AMOUNT, 8), lo, hi)) return S.INSUFFICIENT_STAKE;
  let restLo = U.lo, restHi = U.hi;
  let ue = unbondingEntry(user);
  let n: u32 = valLen(ue) >= 4 ? load<u32>(valPtr(ue)) : 0;
  if (n >= MAX_UNBONDING) return S.TOO_MANY_ENTRIES;
  settle(v, d);
  setDelegationAmount(v, d, restLo, restHi);
  let own = bytesEq(user, validator, 32);
  vAddStake(v, own, lo, hi, true);
  stAddTotal(lo, hi, true);
  if (own && !selfAtMinimum(valPtr(v))) deactivate(v, validator);
  // Append {amount, release_time}.
  bufSetLen(ubuf, 0);
  bufU32(ubuf, n + 1);
  if (n > 0) bufBytes(ubuf, valPtr(ue) + R_UNBONDING_ENTRIES_DATA, n * R_UNBONDING_ENTRY_BYTES);
  let q = bufPtr(ubuf) + bufLen(ubuf);
  bufSetLen(ubuf, bufLen(ubuf) + R_UNBONDING_ENTRY_BYTES);
  store<u64>(q + R_UNBONDING_ENTRY_AMOUNT, lo);
  store<u64>(q + R_UNBONDING_ENTRY_AMOUNT, hi, 8);
  store<u64>(q + R_UNBONDING_ENTRY_RELEASE_TIME, ctxTimestamp + pUnbonding);
  setValue(ue, bufPtr(ubuf), bufLen(ubuf));
  dropIfEmpty(validator, user, d);
  // Unstaked / Undelegated{validator, delegator, amount, remaining, release_time}
  if (eventKind == EV_UNSTAKED) emitUnstaked(evBundle, evOp, validator, user, lo, hi, restLo, restHi, ctxTimestamp + pUnbonding);
  else emitUndelegated(evBundle, evOp, validator, user, lo, hi, restLo, restHi, ctxTimestamp + pUnbonding);
  return S.OK;
}

/** ClaimUnstake: every unbonding entry whose release time has come is paid to the balance. */
function claimUnstake(user: usize): u32 {
  let ue = unbondingEntry(user);
  if (!exists(ue)) return S.NOTHING_TO_CLAIM;
  let p = valPtr(ue);
  let n = load<u32>(p);
  let sumLo: u64 = 0, sumHi: u64 = 0;
  bufSetLen(ubuf, 0);
  bufU32(ubuf, 0);
  let kept: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    let q = p + R_UNBONDING_ENTRIES_DATA + i * R_UNBONDING_ENTRY_BYTES;
    if (load<u64>(q + R_UNBONDING_ENTRY_RELEASE_TIME) <= ctxTimestamp) {
      U.add128(sumLo, sumHi, load<u64>(q + R_UNBONDING_ENTRY_AMOUNT), load<u64>(q + R_UNBONDING_ENTRY_AMOUNT, 8)); // ≤ supply
      sumLo = U.lo;
      sumHi = U.hi;
    } else {
      bufBytes(ubuf, q, R_UNBONDING_ENTRY_BYTES);
      kept++;
    }
  }
  if ((sumLo | sumHi) == 0) return S.NOTHING_TO_CLAIM;
  if (!credit(balanceEntry(user, NTV_MINT), sumLo, sumHi)) return S.AMOUNT_OVERFLOW;
  if (kept == 0) {
    deleteValue(ue);
  } else {
    store<u32>(bufPtr(ubuf), kept);
    setValue(ue, bufPtr(ubuf), bufLen(ubuf));
  }
  // UnstakeClaimed{account, amount, pending_entries}
  emitUnstakeClaimed(evBundle, evOp, user, sumLo, sumHi, kept);
  return S.OK;
}

/** ClaimRewards: settle every delegation of the user (its own validator's included) and pay out. */
function claimRewards(user: usize): u32 {
  let idx = delegatorIndexEntry(user);
  let n = listCount(idx);
  let sumLo: u64 = 0, sumHi: u64 = 0;
  // Iterate over a copy: dropping an empty delegation rewrites the index.
  bufSetLen(ubuf, 0);
  if (n > 0) bufBytes(ubuf, listItem(idx, 0), n << 5);
  for (let i: u32 = 0; i < n; i++) {
    let validator = bufPtr(ubuf) + (<usize>i << 5);
    let v = validatorOf(validator);
    let d = validatorEntryDelegation(validator, user);
    if (v == 0 || d == 0) continue;
    settle(v, d);
    let dw = beginWrite(d, <u32>valLen(d));
    U.add128(sumLo, sumHi, load<u64>(dw + R_DELEGATION_PENDING), load<u64>(dw + R_DELEGATION_PENDING, 8));
    sumLo = U.lo;
    sumHi = U.hi;
    store<u64>(dw + R_DELEGATION_PENDING, 0);
    store<u64>(dw + R_DELEGATION_PENDING, 0, 8);
  }
  if ((sumLo | sumHi) == 0) return S.NOTHING_TO_CLAIM;
  if (!credit(balanceEntry(user, NTV_MINT), sumLo, sumHi)) return S.AMOUNT_OVERFLOW;
  for (let i: u32 = 0; i < n; i++) {
    let validator = bufPtr(ubuf) + (<usize>i << 5);
    let d = validatorEntryDelegation(validator, user);
    if (d != 0) dropIfEmpty(validator, user, d);
  }
  // RewardsClaimed{account, amount}
  emitRewardsClaimed(evBundle, evOp, user, sumLo, sumHi);
  return S.OK;
}

/** SetCommission{rate u16}: at most max_commission_bps, one change per cooldown (spec §3, §8). */
function setCommission(user: usize, rate: u32): u32 {
  let v = validatorOf(user);
  if (v == 0) return S.NOT_VALIDATOR;
  if (rate > pMaxCommission) return S.COMMISSION_TOO_HIGH;
  let last = load<u64>(valPtr(v) + R_VALIDATOR_LAST_COMMISSION_CHANGE);
  if (last != NEVER && ctxHeight < last + pCooldown) return S.COMMISSION_COOLDOWN;
  let old = load<u16>(valPtr(v) + R_VALIDATOR_COMMISSION_BPS);
  let w = vw(v);
  store<u16>(w + R_VALIDATOR_COMMISSION_BPS, <u16>rate);
  store<u64>(w + R_VALIDATOR_LAST_COMMISSION_CHANGE, ctxHeight);
  // CommissionSet{validator, old_bps, new_bps}
  emitCommissionSet(evBundle, evOp, user, old, <u16>rate);
  return S.OK;
}

/** Unjail: only once the jail period has ended (spec §3, §7.8); the set is rejoined at the next epoch. */
function unjail(user: usize): u32 {
  let v = validatorOf(user);
  if (v == 0) return S.NOT_VALIDATOR;
  let p = valPtr(v);
  if (load<u8>(p + R_VALIDATOR_JAILED) == 0) return S.NOT_JAILED;
  if (ctxTimestamp < load<u64>(p + R_VALIDATOR_JAIL_RELEASE_TIME)) return S.JAIL_NOT_EXPIRED;
  let w = vw(v);
  store<u8>(w + R_VALIDATOR_JAILED, 0);
  store<u32>(w + R_VALIDATOR_MISSED_IN_ROW, 0);
  emitValidatorUnjailed(evBundle, evOp, user);
  return S.OK;
}

/** SetAutoCompound{validator [32], enable bool}: the user's delegation to that validator. */
function setAutoCompound(user: usize, validator: usize, enable: bool): u32 {
  if (validatorOf(validator) == 0) return S.UNKNOWN_VALIDATOR;
  let d = validatorEntryDelegation(validator, user);
  if (d == 0) return S.NO_DELEGATION;
  let ac = autoCompoundEntry(validator);
  if (enable) {
    if (!listAdd(ac, user, MAX_AUTO_COMPOUND)) return S.TOO_MANY_ENTRIES;
  } else {
    listRemove(ac, user);
  }
  store<u8>(beginWrite(d, <u32>valLen(d)) + R_DELEGATION_AUTO_COMPOUND, enable ? 1 : 0);
  // AutoCompoundSet{validator, delegator, enabled}
  emitAutoCompoundSet(evBundle, evOp, validator, user, enable ? 1 : 0);
  return S.OK;
}

// @ts-ignore: decorator
@inline const MAX_NAME: u32 = 64;
// @ts-ignore: decorator
@inline const MAX_DESCRIPTION: u32 = 512;
// @ts-ignore: decorator
@inline const MAX_URL: u32 = 256;

/** SetPoolConfig{pool_enabled bool, pool_name String, min_delegation u128, auto_compound_default bool}: validator only. */
function setPoolConfig(user: usize, f: usize): u32 {
  let v = validatorOf(user);
  if (v == 0) return S.NOT_VALIDATOR;
  let enabled = load<u8>(f);
  let nameLen = load<u32>(f, OPF_SET_POOL_CONFIG_POOL_NAME);
  let name = f + OPF_SET_POOL_CONFIG_POOL_NAME_DATA;
  let q = name + nameLen;
  if (nameLen > MAX_NAME) return S.INVALID_VALIDATOR_METADATA;
  let w = vw(v);
  store<u8>(w + R_VALIDATOR_POOL_ENABLED, enabled);
  memory.copy(w + R_VALIDATOR_MIN_DELEGATION, q, 16);
  store<u8>(w + R_VALIDATOR_AUTO_COMPOUND_DEFAULT, load<u8>(q, 16));
  for (let i = 0; i < 5; i++) SP[i] = 0;
  SP[4] = name;
  SN[4] = nameLen;
  if (nameLen == 0) SP[4] = ONE; // an empty name: any non-zero pointer with length 0
  rewriteStrings(v, SP, SN);
  // PoolConfigSet{validator, enabled, min_delegation, auto_compound_default, name (rest)}
  emitPoolConfigSet(evBundle, evOp, user, enabled, load<u64>(q), load<u64>(q, 8), load<u8>(q, 16), name, nameLen);
  return S.OK;
}

/** SetValidatorMetadata{name, description, website, avatar_url}: validator only (spec §2.4). */
function setMetadata(user: usize, f: usize): u32 {
  let v = validatorOf(user);
  if (v == 0) return S.NOT_VALIDATOR;
  let o = f;
  for (let i = 0; i < 4; i++) {
    let n = load<u32>(o);
    let max = i == 0 ? MAX_NAME : i == 1 ? MAX_DESCRIPTION : MAX_URL;
    if (n > max) return S.INVALID_VALIDATOR_METADATA;
    SP[i] = n == 0 ? ONE : o + 4;
    SN[i] = n;
    o += 4 + n;
  }
  SP[4] = 0;
  rewriteStrings(v, SP, SN);
  // ValidatorMetadataSet{validator, the operation's four Borsh strings (rest)}
  let len = <u32>(o - f);
  emitValidatorMetadataSet(evBundle, evOp, user, f, len);
  return S.OK;
}

/**
 * RotateConsensusKey{new_consensus_pubkey [32]} (disc. 119): at most one per epoch, queued and
 * applied at the next epoch boundary (spec §3, §8).
 */
function rotateKey(user: usize, key: usize): u32 {
  let v = validatorOf(user);
  if (v == 0) return S.NOT_VALIDATOR;
  let p = valPtr(v);
  let epoch = ctxHeight / pEpochLength;
  if (load<u8>(p + R_VALIDATOR_HAS_PENDING_KEY) == 1) return S.ROTATION_LIMIT;
  let last = load<u64>(p + R_VALIDATOR_LAST_ROTATION_EPOCH);
  if (last != NEVER && last == epoch) return S.ROTATION_LIMIT;
  if (bytesEq(p + R_VALIDATOR_CONSENSUS_KEY, key, 32) || exists(consensusKeyEntry(key))) return S.CONSENSUS_KEY_TAKEN;
  let w = vw(v);
  store<u8>(w + R_VALIDATOR_HAS_PENDING_KEY, 1);
  memory.copy(w + R_VALIDATOR_PENDING_KEY, key, 32);
  store<u64>(w + R_VALIDATOR_LAST_ROTATION_EPOCH, epoch);
  // ConsensusKeyRotationQueued{validator, new_key, epoch}
  emitConsensusKeyRotationQueued(evBundle, evOp, user, key, epoch);
  return S.OK;
}

/**
 * ReportDoubleSign{validator [32] consensus key, height u64, header_a Vec<u8>, sig_a [64],
 * header_b Vec<u8>, sig_b [64]}: the host verified both signatures at admission; the
 * core checks what it can without Ed25519: two different headers of that key at that height.
 * Jail escalates with the validator's offences (spec §8: 1 h, 24 h, 7 d, 30 d); no slashing.
 */
function reportDoubleSign(user: usize, f: usize): u32 {
  let key = f;
  let height = load<u64>(f, OPF_REPORT_DOUBLE_SIGN_HEIGHT);
  let aLen = load<u32>(f, OPF_REPORT_DOUBLE_SIGN_HEADER_A);
  let a = f + OPF_REPORT_DOUBLE_SIGN_HEADER_A_DATA;
  let bLen = load<u32>(a + aLen + 64);
  let b = a + aLen + 68;
  let acctE = consensusKeyEntry(key);
  if (!exists(acctE)) return S.UNKNOWN_VALIDATOR;
  if (aLen < HDR_MIN || bLen < HDR_MIN) return S.INVALID_EVIDENCE;
  if (load<u64>(a + HDR_HEIGHT) != height || load<u64>(b + HDR_HEIGHT) != height) return S.INVALID_EVIDENCE;
  if (!bytesEq(a + HDR_PUBKEY, key, 32) || !bytesEq(b + HDR_PUBKEY, key, 32)) return S.INVALID_EVIDENCE;
  blake3(a, aLen, HASH_A);
  blake3(b, bLen, HASH_B);
  if (bytesEq(HASH_A, HASH_B, 32)) return S.INVALID_EVIDENCE;
  let account = valPtr(acctE);
  let ev = evidenceEntry(account, height);
  if (exists(ev)) return S.DUPLICATE_EVIDENCE;
  let v = validatorOf(account);
  if (v == 0) return S.UNKNOWN_VALIDATOR;
  setValue(ev, ONE, 1);
  let offences = load<u32>(valPtr(v) + R_VALIDATOR_OFFENCES) + 1;
  let release = ctxTimestamp + jailDuration(offences);
  let w = vw(v);
  store<u32>(w + R_VALIDATOR_OFFENCES, offences);
  store<u8>(w + R_VALIDATOR_JAILED, 1);
  if (release > load<u64>(w + R_VALIDATOR_JAIL_RELEASE_TIME)) store<u64>(w + R_VALIDATOR_JAIL_RELEASE_TIME, release);
  let until = load<u64>(w + R_VALIDATOR_JAIL_RELEASE_TIME);
  deactivate(v, account);
  // DoubleSignReported{validator, consensus_key, reporter, height, offences, jailed_until}
  emitDoubleSignReported(evBundle, evOp, account, key, user, height, offences, until);

  return S.OK;
}

/**
 * A genesis validator: self stake taken from `source`'s NTV balance, active from
 * block 1. Returns false when the configuration is inconsistent (INVALID_GENESIS).
 */
export function genesisValidator(key: usize, account: usize, lo: u64, hi: u64, source: usize): bool {
  loadParams();
  if (U.lt128(lo, hi, pMinStakeLo, pMinStakeHi)) return false;
  if (exists(consensusKeyEntry(key)) || validatorOf(account) != 0) return false;
  if (!debit(balanceEntry(source, NTV_MINT), lo, hi)) return false;
  let st = stakingState();
  if (!stAddValidator(st, account)) return false;
  listAdd(delegatorIndexEntry(account), account, MAX_DELEGATIONS);
  let v = validatorEntry(account);
  createValidator(v, key, 0, true);
  setValue(consensusKeyEntry(key), account, 32);
  stActivate(stakingState(), account);
  addDelegation(v, account, account, lo, hi);
  return true;
}
