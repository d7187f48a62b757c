// Upgrade governance (spec §3 "Node upgrade", §4.13, §8, §9.4; bundle-format disc. 15–17;
// docs/upgrades.md). A plan names a release and the first height it executes; it is approved by
// the governance mode the chain's genesis recorded (0x5C), so every node stops at the same block:
//   seed-authority: the account of the upgrade authority approves or rejects with one vote (or
//     approves by scheduling the plan itself);
//   full: active validators vote, weighted by their bonded stake (self + delegated); the plan
//     passes when the approving stake reaches quorum% of the active stake, and is rejected once it
//     no longer can.
// The protocol governance account 0x00…09 acts as the authority in both modes (a passed protocol
// proposal can schedule, approve or cancel an upgrade). One plan is pending or approved at a time.
// After the bundles of every block, `upgradesEndBlock` expires a pending plan whose voting period
// ended or whose height is next, and marks an approved plan applied at its height: that block is
// the first one the new release executes (the host refuses to execute it with a binary that does
// not implement the plan: src/domains/upgrades/reader.ts). UPGRADE_GRACE_BLOCKS from there, skipped leaders
// are not counted as missed (assembly/domains/staking/rewards.ts endBlock, `inUpgradeGrace`).

import * as S from "../../status";
import * as U from "../../u128";
import { KEY } from "../../keys";
import { lookup, exists, setValue, beginWrite, valPtr, valLen } from "../../state";
import { ctxHeight, GOVERNANCE } from "../../context";
import { emitUpgradeCancelled, emitUpgradeScheduled, emitUpgradeVoted } from "../../events-gen";
import { bufNew, bufSetLen, bufU8, bufU32, bufU64, bufBytes, bufPtr, bufLen, bytesEq, isZero } from "../../mem";
import { singletonEntry, validatorEntry } from "../../keys";
import { stakingState, stActiveCount, stActive, stakingEnabled, loadParams, vTotal } from "../staking/validators";
import {
  P_UPGRADE_CONFIG, P_UPGRADE_PLAN, P_UPGRADE_STATE, P_UPGRADE_VOTE,
  R_UPGRADE_CONFIG_AUTHORITY, R_UPGRADE_CONFIG_BYTES, R_UPGRADE_CONFIG_MODE, R_UPGRADE_CONFIG_QUORUM_PCT, R_UPGRADE_CONFIG_VOTING_PERIOD,
  R_UPGRADE_PLAN_DEADLINE, R_UPGRADE_PLAN_DECIDED_HEIGHT,
  R_UPGRADE_PLAN_HEIGHT, R_UPGRADE_PLAN_NO, R_UPGRADE_PLAN_PROPOSER, R_UPGRADE_PLAN_STATE, R_UPGRADE_PLAN_YES,
  R_UPGRADE_STATE_ACTIVE, R_UPGRADE_STATE_ACTIVE_DATA, R_UPGRADE_STATE_APPLIED_HEIGHT,
  UPGRADE_DEFAULT_QUORUM, UPGRADE_DEFAULT_VOTING_PERIOD, UPGRADE_GRACE_BLOCKS, UPGRADE_MAX_VOTING_PERIOD, UPGRADE_NAME_MAX, UPGRADE_URL_MAX,
  R_VALIDATOR_ACTIVE, R_VALIDATOR_JAILED,
} from "../../abi";
import { OPR_SCHEDULE_UPGRADE_NAME, OPR_SCHEDULE_UPGRADE_NAME_LEN, OPR_SCHEDULE_UPGRADE_HEIGHT, OPR_SCHEDULE_UPGRADE_BINARY_URL, OPR_SCHEDULE_UPGRADE_BINARY_URL_LEN, OPR_SCHEDULE_UPGRADE_CHECKSUM, OPR_VOTE_UPGRADE_NAME, OPR_VOTE_UPGRADE_NAME_LEN, OPR_VOTE_UPGRADE_APPROVE, OPR_CANCEL_UPGRADE_NAME, OPR_CANCEL_UPGRADE_NAME_LEN } from "../../decode-ops";

// Plan states (docs/upgrades.md "Plans").
// @ts-ignore: decorator
@inline export const PLAN_PENDING: u8 = 0;
// @ts-ignore: decorator
@inline export const PLAN_APPROVED: u8 = 1;
// @ts-ignore: decorator
@inline export const PLAN_REJECTED: u8 = 2;
// @ts-ignore: decorator
@inline export const PLAN_CANCELLED: u8 = 3;
// @ts-ignore: decorator
@inline export const PLAN_EXPIRED: u8 = 4;
// @ts-ignore: decorator
@inline export const PLAN_APPLIED: u8 = 5;

// @ts-ignore: decorator
@inline const MODE_SEED_AUTHORITY: u8 = 0;
// @ts-ignore: decorator
@inline const MODE_FULL: u8 = 1;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;

const buf = bufNew(2048);
const NAME = memory.data(64);
const ONE = memory.data<u8>([1]);
const ZERO = memory.data<u8>([0]);

// The governance configuration, read from 0x5C (absent: the defaults of spec §4.20/§8).
let cMode: u8 = MODE_SEED_AUTHORITY;
let cQuorum: u32 = UPGRADE_DEFAULT_QUORUM;
let cPeriod: u64 = UPGRADE_DEFAULT_VOTING_PERIOD;
const AUTHORITY = memory.data(32);

function loadConfig(): void {
  let e = singletonEntry(P_UPGRADE_CONFIG);
  if (!exists(e)) {
    cMode = MODE_SEED_AUTHORITY;
    cQuorum = UPGRADE_DEFAULT_QUORUM;
    cPeriod = UPGRADE_DEFAULT_VOTING_PERIOD;
    memory.fill(AUTHORITY, 0, 32);
    return;
  }
  let p = valPtr(e);
  cMode = load<u8>(p + R_UPGRADE_CONFIG_MODE);
  cQuorum = <u32>load<u8>(p + R_UPGRADE_CONFIG_QUORUM_PCT);
  cPeriod = load<u64>(p + R_UPGRADE_CONFIG_VOTING_PERIOD);
  memory.copy(AUTHORITY, p + R_UPGRADE_CONFIG_AUTHORITY, 32);
}

/**
 * Genesis: the UpgradeConfig record (abi/state.mjs) from the genesis trailer, checked: a known
 * mode, quorum 1–100, voting period 1–UPGRADE_MAX_VOTING_PERIOD, version 1, exact length.
 */
export function genesisUpgradeConfig(p: usize, n: u32): bool {
  if (n != R_UPGRADE_CONFIG_BYTES || load<u8>(p) != RECORD_VERSION) return false;
  let mode = load<u8>(p + R_UPGRADE_CONFIG_MODE);
  let q = load<u8>(p + R_UPGRADE_CONFIG_QUORUM_PCT);
  let period = load<u64>(p + R_UPGRADE_CONFIG_VOTING_PERIOD);
  if (mode > MODE_FULL || q == 0 || q > 100 || period == 0 || period > UPGRADE_MAX_VOTING_PERIOD) return false;
  setValue(singletonEntry(P_UPGRADE_CONFIG), p, n);
  return true;
}

/** 0x5D name → UpgradePlan. */
function planEntry(name: usize, n: u32): usize {
  store<u8>(KEY, P_UPGRADE_PLAN);
  memory.copy(KEY + 1, name, n);
  return lookup(KEY, n + 1);
}

/** 0x5E voter[32] name → u8 approve. */
function voteEntry(voter: usize, name: usize, n: u32): usize {
  store<u8>(KEY, P_UPGRADE_VOTE);
  memory.copy(KEY + 1, voter, 32);
  memory.copy(KEY + 33, name, n);
  return lookup(KEY, n + 33);
}

/** A name: 1–64 of [A-Za-z0-9._-] (it is a path segment of the supervisor's layout, docs/upgrades.md). */
function validName(p: usize, n: u32): bool {
  if (n == 0 || n > UPGRADE_NAME_MAX) return false;
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(p + i);
    let ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c == 0x2e || c == 0x5f || c == 0x2d;
    if (!ok) return false;
  }
  // "." and ".." would name the layout's own directories.
  if (load<u8>(p) == 0x2e && (n == 1 || (n == 2 && load<u8>(p + 1) == 0x2e))) return false;
  return true;
}

// ---- the upgrade state singleton 0x5F: applied_height u64, active String, applied String ----

/** The active plan's name into NAME; its length (0: none). */
function activeName(): u32 {
  let e = singletonEntry(P_UPGRADE_STATE);
  if (!exists(e)) return 0;
  let p = valPtr(e);
  let n = load<u32>(p + R_UPGRADE_STATE_ACTIVE);
  memory.copy(NAME, p + R_UPGRADE_STATE_ACTIVE_DATA, n);
  return n;
}

/** Rewrite 0x5F with a new active name (and, when `applied`, the applied name and height). */
function writeState(active: usize, activeLen: u32, applied: bool, appliedName: usize, appliedLen: u32): void {
  let e = singletonEntry(P_UPGRADE_STATE);
  let height: u64 = 0;
  let oldApplied: usize = 0;
  let oldAppliedLen: u32 = 0;
  if (exists(e)) {
    let p = valPtr(e);
    height = load<u64>(p + R_UPGRADE_STATE_APPLIED_HEIGHT);
    let al = load<u32>(p + R_UPGRADE_STATE_ACTIVE);
    oldApplied = p + R_UPGRADE_STATE_ACTIVE_DATA + al + 4;
    oldAppliedLen = load<u32>(oldApplied - 4);
  }
  bufSetLen(buf, 0);
  bufU8(buf, RECORD_VERSION);
  bufU64(buf, applied ? ctxHeight : height);
  bufU32(buf, activeLen);
  bufBytes(buf, active, activeLen);
  if (applied) {
    bufU32(buf, appliedLen);
    bufBytes(buf, appliedName, appliedLen);
  } else {
    bufU32(buf, oldAppliedLen);
    bufBytes(buf, oldApplied, oldAppliedLen);
  }
  setValue(e, bufPtr(buf), bufLen(buf));
}

/** Whether `height` lies in the grace window of the last applied upgrade (spec §8: 100 blocks). */
export function inUpgradeGrace(height: u64): bool {
  let e = singletonEntry(P_UPGRADE_STATE);
  if (!exists(e)) return false;
  let applied = load<u64>(valPtr(e) + R_UPGRADE_STATE_APPLIED_HEIGHT);
  return applied != 0 && height >= applied && height - applied < UPGRADE_GRACE_BLOCKS;
}

/** Set a plan's state (and decided height) in place. */
function setPlanState(e: usize, state: u8): void {
  let w = beginWrite(e, <u32>valLen(e));
  store<u8>(w + R_UPGRADE_PLAN_STATE, state);
  store<u64>(w + R_UPGRADE_PLAN_DECIDED_HEIGHT, ctxHeight);
}

/** The user may act as the upgrade authority: 0x00…09, or the seed-authority key's account. */
function isAuthority(user: usize): bool {
  if (bytesEq(user, GOVERNANCE, 32)) return true;
  return cMode == MODE_SEED_AUTHORITY && !isZero(AUTHORITY, 32) && bytesEq(user, AUTHORITY, 32);
}

/** An active, unjailed validator's bonded stake (self + delegated) into U.lo/U.hi; false when none. */
function voterWeight(account: usize): bool {
  loadParams();
  if (!stakingEnabled) return false;
  let v = validatorEntry(account);
  if (!exists(v)) return false;
  let p = valPtr(v);
  if (load<u8>(p + R_VALIDATOR_ACTIVE) == 0 || load<u8>(p + R_VALIDATOR_JAILED) != 0) return false;
  vTotal(p);
  return (U.lo | U.hi) != 0;
}

/**
 * ScheduleUpgrade { name, height, binary_url, checksum[32], info_url } (op record: +4 namePtr
 * +8 nameLen +12 heightPtr +16 binPtr +20 binLen +24 checksumPtr, info_url's Vec right after the
 * checksum). Order: INVALID_UPGRADE_NAME → INVALID_UPGRADE_URL → UPGRADE_HEIGHT_PASSED →
 * INVALID_UPGRADE_CHECKSUM → UPGRADE_NAME_TAKEN → UPGRADE_PLAN_ACTIVE → NOT_UPGRADE_VOTER (full
 * mode: only an active validator or 0x00…09 may propose).
 */
export function execScheduleUpgrade(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let name = <usize>load<u32>(op, OPR_SCHEDULE_UPGRADE_NAME);
  let nameLen = load<u32>(op, OPR_SCHEDULE_UPGRADE_NAME_LEN);
  let height = load<u64>(<usize>load<u32>(op, OPR_SCHEDULE_UPGRADE_HEIGHT));
  let bin = <usize>load<u32>(op, OPR_SCHEDULE_UPGRADE_BINARY_URL);
  let binLen = load<u32>(op, OPR_SCHEDULE_UPGRADE_BINARY_URL_LEN);
  let checksum = <usize>load<u32>(op, OPR_SCHEDULE_UPGRADE_CHECKSUM);
  let infoLen = load<u32>(checksum + 32);
  let info = checksum + 36;
  if (!validName(name, nameLen)) return S.INVALID_UPGRADE_NAME;
  if (binLen > UPGRADE_URL_MAX || infoLen > UPGRADE_URL_MAX) return S.INVALID_UPGRADE_URL;
  if (height <= ctxHeight) return S.UPGRADE_HEIGHT_PASSED;
  if (isZero(checksum, 32)) return S.INVALID_UPGRADE_CHECKSUM;
  let e = planEntry(name, nameLen);
  if (exists(e)) return S.UPGRADE_NAME_TAKEN;
  if (activeName() != 0) return S.UPGRADE_PLAN_ACTIVE;
  loadConfig();
  let authority = isAuthority(user);
  if (cMode == MODE_FULL && !authority && !voterWeight(user)) return S.NOT_UPGRADE_VOTER;
  let state = authority ? PLAN_APPROVED : PLAN_PENDING;
  // The deadline cannot overflow: height ≤ 2^64−1 and the period ≤ 10^6, checked with a saturating add.
  let deadline = ctxHeight + cPeriod;
  if (deadline < ctxHeight) deadline = <u64>-1;
  bufSetLen(buf, 0);
  bufU8(buf, RECORD_VERSION);
  bufU8(buf, state);
  bufBytes(buf, user, 32);
  bufU64(buf, height);
  bufU64(buf, ctxHeight);
  bufU64(buf, deadline);
  bufU64(buf, authority ? ctxHeight : 0);
  bufBytes(buf, checksum, 32);
  bufU64(buf, authority ? 1 : 0); // yes: seed-authority approval counts as 1
  bufU64(buf, 0);
  bufU64(buf, 0); // no
  bufU64(buf, 0);
  bufU32(buf, binLen);
  bufBytes(buf, bin, binLen);
  bufU32(buf, infoLen);
  bufBytes(buf, info, infoLen);
  setValue(e, bufPtr(buf), bufLen(buf));
  memory.copy(NAME, name, nameLen);
  writeState(NAME, nameLen, false, 0, 0);
  emitUpgradeScheduled(bundleIndex, <u16>opIndex, user, height, state, name, nameLen);
  return S.OK;
}

/**
 * Full mode: tally the votes of the current active set (≤ 100 validators, each weighted by its
 * bonded stake now) into the plan's yes/no; approve at yes·100 ≥ quorum·total, reject once
 * no·100 > (100 − quorum)·total (the rest could no longer pass it). Returns the new state.
 */
function tally(e: usize, name: usize, nameLen: u32): u8 {
  let st = stakingState();
  let n = stActiveCount(st);
  let tLo: u64 = 0, tHi: u64 = 0, yLo: u64 = 0, yHi: u64 = 0, nLo: u64 = 0, nHi: u64 = 0;
  for (let i: u32 = 0; i < n; i++) {
    // Copy the account out: the entries below may grow the cache, never move it (assembly/state.ts).
    let account = stActive(st, i);
    memory.copy(ACCOUNT, account, 32);
    let v = validatorEntry(ACCOUNT);
    if (!exists(v)) continue;
    let p = valPtr(v);
    if (load<u8>(p + R_VALIDATOR_JAILED) != 0) continue;
    vTotal(p);
    let wLo = U.lo, wHi = U.hi;
    U.add128(tLo, tHi, wLo, wHi); // bounded by the NTV supply
    tLo = U.lo; tHi = U.hi;
    let ve = voteEntry(ACCOUNT, name, nameLen);
    if (!exists(ve)) continue;
    if (load<u8>(valPtr(ve)) == 1) {
      U.add128(yLo, yHi, wLo, wHi);
      yLo = U.lo; yHi = U.hi;
    } else {
      U.add128(nLo, nHi, wLo, wHi);
      nLo = U.lo; nHi = U.hi;
    }
  }
  let w = beginWrite(e, <u32>valLen(e));
  store<u64>(w + R_UPGRADE_PLAN_YES, yLo);
  store<u64>(w + R_UPGRADE_PLAN_YES, yHi, 8);
  store<u64>(w + R_UPGRADE_PLAN_NO, nLo);
  store<u64>(w + R_UPGRADE_PLAN_NO, nHi, 8);
  if ((tLo | tHi) == 0) return PLAN_PENDING;
  // Stake sums are bounded by the NTV supply (< 2^64), so ×100 cannot overflow u128; checked anyway.
  U.mul128x64(yLo, yHi, 100);
  let y100Lo = U.lo, y100Hi = U.hi;
  U.mul128x64(tLo, tHi, <u64>cQuorum);
  if (!U.lt128(y100Lo, y100Hi, U.lo, U.hi)) return PLAN_APPROVED;
  U.mul128x64(nLo, nHi, 100);
  let n100Lo = U.lo, n100Hi = U.hi;
  U.mul128x64(tLo, tHi, <u64>(100 - cQuorum));
  if (U.lt128(U.lo, U.hi, n100Lo, n100Hi)) return PLAN_REJECTED;
  return PLAN_PENDING;
}
const ACCOUNT = memory.data(32);

/**
 * VoteUpgrade { name, approve } (op record: +4 namePtr +8 nameLen +12 approve). Order:
 * UPGRADE_NOT_FOUND → UPGRADE_NOT_PENDING → UPGRADE_HEIGHT_PASSED (from the block before the
 * plan's height on: an approval must be committed before that block) → UPGRADE_VOTING_CLOSED →
 * NOT_UPGRADE_VOTER → ALREADY_VOTED_UPGRADE.
 */
export function execVoteUpgrade(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let name = <usize>load<u32>(op, OPR_VOTE_UPGRADE_NAME);
  let nameLen = load<u32>(op, OPR_VOTE_UPGRADE_NAME_LEN);
  let approve = load<u32>(op, OPR_VOTE_UPGRADE_APPROVE) != 0;
  let e = nameLen <= UPGRADE_NAME_MAX ? planEntry(name, nameLen) : 0;
  if (e == 0 || !exists(e)) return S.UPGRADE_NOT_FOUND;
  let p = valPtr(e);
  if (load<u8>(p + R_UPGRADE_PLAN_STATE) != PLAN_PENDING) return S.UPGRADE_NOT_PENDING;
  if (ctxHeight >= load<u64>(p + R_UPGRADE_PLAN_HEIGHT)) return S.UPGRADE_HEIGHT_PASSED;
  if (ctxHeight > load<u64>(p + R_UPGRADE_PLAN_DEADLINE)) return S.UPGRADE_VOTING_CLOSED;
  loadConfig();
  let authority = isAuthority(user);
  if (!authority && (cMode == MODE_SEED_AUTHORITY || !voterWeight(user))) return S.NOT_UPGRADE_VOTER;
  let ve = voteEntry(user, name, nameLen);
  if (exists(ve)) return S.ALREADY_VOTED_UPGRADE;
  setValue(ve, approve ? ONE : ZERO, 1);
  let state: u8;
  if (authority) {
    // The authority decides alone (seed-authority; 0x00…09 in either mode).
    state = approve ? PLAN_APPROVED : PLAN_REJECTED;
    if (approve) {
      let w = beginWrite(e, <u32>valLen(e));
      store<u64>(w + R_UPGRADE_PLAN_YES, 1);
    }
  } else {
    state = tally(e, name, nameLen);
  }
  if (state != PLAN_PENDING) {
    setPlanState(e, state);
    if (state == PLAN_REJECTED) writeState(0, 0, false, 0, 0);
  }
  emitUpgradeVoted(bundleIndex, <u16>opIndex, user, approve ? 1 : 0, state, name, nameLen);
  return S.OK;
}

/**
 * CancelUpgrade { name } (op record: +4 namePtr +8 nameLen). Order: UPGRADE_NOT_FOUND →
 * UPGRADE_NOT_ACTIVE → UPGRADE_HEIGHT_PASSED → NOT_UPGRADE_AUTHORITY (the authority may cancel a
 * pending or approved plan; its proposer only while it is pending: in full mode an approved plan
 * is the validators' decision and only 0x00…09 can undo it).
 */
export function execCancelUpgrade(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let name = <usize>load<u32>(op, OPR_CANCEL_UPGRADE_NAME);
  let nameLen = load<u32>(op, OPR_CANCEL_UPGRADE_NAME_LEN);
  let e = nameLen <= UPGRADE_NAME_MAX ? planEntry(name, nameLen) : 0;
  if (e == 0 || !exists(e)) return S.UPGRADE_NOT_FOUND;
  let p = valPtr(e);
  let state = load<u8>(p + R_UPGRADE_PLAN_STATE);
  if (state != PLAN_PENDING && state != PLAN_APPROVED) return S.UPGRADE_NOT_ACTIVE;
  if (ctxHeight >= load<u64>(p + R_UPGRADE_PLAN_HEIGHT)) return S.UPGRADE_HEIGHT_PASSED;
  loadConfig();
  let proposer = state == PLAN_PENDING && bytesEq(user, p + R_UPGRADE_PLAN_PROPOSER, 32);
  if (!proposer && !isAuthority(user)) return S.NOT_UPGRADE_AUTHORITY;
  setPlanState(e, PLAN_CANCELLED);
  writeState(0, 0, false, 0, 0);
  emitUpgradeCancelled(bundleIndex, <u16>opIndex, user, name, nameLen);

  return S.OK;
}

/**
 * After the block's bundles (assembly/block.ts applyBlock), before the staking end of block: a
 * pending plan expires when its voting period is over or its height is the next block (an approval
 * must be committed before the block at the plan's height); an approved plan at or below this
 * height is applied: this block was executed by the release that implements it. One record read
 * when no plan is active.
 */
export function upgradesEndBlock(height: u64): void {
  let n = activeName();
  if (n == 0) return;
  let e = planEntry(NAME, n);
  let p = valPtr(e);
  let state = load<u8>(p + R_UPGRADE_PLAN_STATE);
  let planHeight = load<u64>(p + R_UPGRADE_PLAN_HEIGHT);
  if (state == PLAN_PENDING) {
    if (height >= load<u64>(p + R_UPGRADE_PLAN_DEADLINE) || height + 1 >= planHeight) {
      setPlanState(e, PLAN_EXPIRED);
      writeState(0, 0, false, 0, 0);
    }
  } else if (state == PLAN_APPROVED && height >= planHeight) {
    setPlanState(e, PLAN_APPLIED);
    writeState(0, 0, true, NAME, n);
  }
}
