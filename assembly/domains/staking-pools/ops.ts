// Token staking pools (spec §4.10; docs/staking-pools.md): CreateStakingPool (100), StakeToPool
// (101), UnstakeFromPool (102), ClaimPoolRewards (103), FundStakingPool (104).
//
// Accumulated reward per share (constant work per operation however many stakers): each operation
// first accrues the blocks since the pool's last update — reward = min(reward_rate × blocks, what
// the reward account holds beyond what is already allocated) — into accRewardPerShare (scaled by
// STAKING_POOL_ACC_SCALE), then settles the sender's position. Rewards therefore stop when the
// source is empty, and the claims never exceed what the reward account received: `allocated`
// counts what stakers are owed and is held back from later accruals. Blocks with nothing staked
// accrue nothing. Height and time come from the block context only.
//
// Pool address (stake escrow) = Blake3("ntv.staking-pool.v1" ‖ id u64 LE), shown as Nx6…; reward
// account = Blake3("ntv.staking-pool-rewards.v1" ‖ pool).

import * as S from "../../status";
import * as U from "../../u128";
import * as M from "../../amm";
import { balanceEntry, poolStakeEntry, stakingPoolEntry, tokenEntry } from "../../keys";
import { deleteValue, exists, setValue, valPtr } from "../../state";
import { balLoad } from "../../ledger";
import { ctxHeight, ctxTimestamp } from "../../context";
import { MAX_LOCK_SECONDS } from "../dex/ops";
import { deriveAddress, ld, moveAmount, nextId, st128 } from "../../ops/escrow";
import { emitStakingPoolCreated } from "../../events-gen";
import {
  P_STAKING_POOL_COUNT, STAKING_POOL_ACC_SCALE,
  R_SPOOL_VERSION, R_SPOOL_ID, R_SPOOL_CREATOR, R_SPOOL_STAKE_MINT, R_SPOOL_REWARD_MINT, R_SPOOL_REWARD_RATE, R_SPOOL_LOCK_PERIOD,
  R_SPOOL_CAPACITY, R_SPOOL_PER_USER_CAP, R_SPOOL_TOTAL_STAKED, R_SPOOL_ACC_REWARD_PER_SHARE, R_SPOOL_LAST_HEIGHT,
  R_SPOOL_ALLOCATED, R_SPOOL_PAID, R_SPOOL_STAKERS, R_SPOOL_CREATED_AT, R_SPOOL_CREATED_HEIGHT, R_SPOOL_BYTES,
  R_PSTAKE_AMOUNT, R_PSTAKE_ACC_SNAPSHOT, R_PSTAKE_PENDING, R_PSTAKE_UNLOCK_AT, R_PSTAKE_BYTES,
  OPF_CREATE_STAKING_POOL_CAPACITY, OPF_CREATE_STAKING_POOL_LOCK_PERIOD, OPF_CREATE_STAKING_POOL_PER_USER_CAP, OPF_CREATE_STAKING_POOL_REWARD_RATE, OPF_CREATE_STAKING_POOL_REWARD_SOURCE,
  OPF_STAKE_TO_POOL_AMOUNT,
  OPF_UNSTAKE_FROM_POOL_AMOUNT,
  OPF_FUND_STAKING_POOL_AMOUNT,
} from "../../abi";

const REC = memory.data(R_SPOOL_BYTES);
const POS = memory.data(R_PSTAKE_BYTES);
const ADDR = memory.data(32);
const REWARDS = memory.data(32);
/** "ntv.staking-pool.v1" (19 ASCII bytes) */
const DOMAIN = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x73, 0x74, 0x61, 0x6b, 0x69, 0x6e, 0x67, 0x2d, 0x70, 0x6f, 0x6f, 0x6c, 0x2e, 0x76, 0x31]);
/** "ntv.staking-pool-rewards.v1" (27 ASCII bytes) */
const REWARD_DOMAIN = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x73, 0x74, 0x61, 0x6b, 0x69, 0x6e, 0x67, 0x2d, 0x70, 0x6f, 0x6f, 0x6c,
  0x2d, 0x72, 0x65, 0x77, 0x61, 0x72, 0x64, 0x73, 0x2e, 0x76, 0x31]);



/** Load the pool at `addr` into REC and its reward account into REWARDS; 0 when absent. */
function loadPool(addr: usize): usize {
  let e = stakingPoolEntry(addr);
  if (!exists(e)) return 0;
  memory.copy(REC, valPtr(e), R_SPOOL_BYTES);
  deriveAddress(REWARD_DOMAIN, 27, addr, 32, REWARDS);
  return e;
}

/** Accrue the blocks since lastHeight into accRewardPerShare and allocated (REC in memory). */
function accrue(): void {
  let last = ld(REC, R_SPOOL_LAST_HEIGHT);
  if (ctxHeight <= last) return;
  let tL = ld(REC, R_SPOOL_TOTAL_STAKED), tH = ld(REC, R_SPOOL_TOTAL_STAKED + 8);
  if ((tL | tH) == 0) {
    store<u64>(REC + R_SPOOL_LAST_HEIGHT, ctxHeight); // nothing staked: nothing accrues
    return;
  }
  let wL: u64 = U64.MAX_VALUE, wH: u64 = U64.MAX_VALUE; // rate × blocks, saturating
  if (!U.mul128x64(ld(REC, R_SPOOL_REWARD_RATE), ld(REC, R_SPOOL_REWARD_RATE + 8), ctxHeight - last)) {
    wL = U.lo;
    wH = U.hi;
  }
  let aL = ld(REC, R_SPOOL_ALLOCATED), aH = ld(REC, R_SPOOL_ALLOCATED + 8);
  balLoad(balanceEntry(REWARDS, REC + R_SPOOL_REWARD_MINT));
  let vL: u64 = 0, vH: u64 = 0; // what the reward account holds beyond the allocated
  if (!U.sub128(U.lo, U.hi, aL, aH)) {
    vL = U.lo;
    vH = U.hi;
  }
  if (U.lt128(vL, vH, wL, wH)) {
    wL = vL;
    wH = vH;
  }
  if ((wL | wH) == 0) {
    store<u64>(REC + R_SPOOL_LAST_HEIGHT, ctxHeight); // the source is empty: these blocks pay nothing
    return;
  }
  // An increment or accumulator past u128 (a reward over 3.4·10^20 per staked raw unit) stops accrual.
  let fits = M.mulDiv(wL, wH, STAKING_POOL_ACC_SCALE, 0, tL, tH);
  let iL = U.lo, iH = U.hi;
  if (fits && (iL | iH) == 0) return; // under one unit per share yet: the blocks stay unaccrued until it is
  if (!fits || U.add128(ld(REC, R_SPOOL_ACC_REWARD_PER_SHARE), ld(REC, R_SPOOL_ACC_REWARD_PER_SHARE + 8), iL, iH)) {
    store<u64>(REC + R_SPOOL_LAST_HEIGHT, ctxHeight);
    return;
  }
  st128(REC + R_SPOOL_ACC_REWARD_PER_SHARE, U.lo, U.hi);
  U.add128(aL, aH, wL, wH); // ≤ the reward account's balance
  st128(REC + R_SPOOL_ALLOCATED, U.lo, U.hi);
  store<u64>(REC + R_SPOOL_LAST_HEIGHT, ctxHeight);
}

/** Load `who`'s position into POS (zero when absent) and settle it to the pool's accumulator. */
function settle(se: usize): void {
  if (exists(se)) memory.copy(POS, valPtr(se), R_PSTAKE_BYTES);
  else memory.fill(POS, 0, R_PSTAKE_BYTES);
  let accL = ld(REC, R_SPOOL_ACC_REWARD_PER_SHARE), accH = ld(REC, R_SPOOL_ACC_REWARD_PER_SHARE + 8);
  U.sub128(accL, accH, ld(POS, R_PSTAKE_ACC_SNAPSHOT), ld(POS, R_PSTAKE_ACC_SNAPSHOT + 8)); // the accumulator only grows
  // amount·Δacc/scale ≤ the rewards allocated since the snapshot, so it fits, and so does the sum.
  M.mulDiv(ld(POS, R_PSTAKE_AMOUNT), ld(POS, R_PSTAKE_AMOUNT + 8), U.lo, U.hi, STAKING_POOL_ACC_SCALE, 0);
  U.add128(ld(POS, R_PSTAKE_PENDING), ld(POS, R_PSTAKE_PENDING + 8), U.lo, U.hi);
  st128(POS + R_PSTAKE_PENDING, U.lo, U.hi);
  st128(POS + R_PSTAKE_ACC_SNAPSHOT, accL, accH);
}

/** Write POS back, or delete it once nothing is staked or pending. */
function storePosition(se: usize): void {
  if ((ld(POS, R_PSTAKE_AMOUNT) | ld(POS, R_PSTAKE_AMOUNT + 8) | ld(POS, R_PSTAKE_PENDING) | ld(POS, R_PSTAKE_PENDING + 8)) == 0) {
    if (exists(se)) deleteValue(se);
  } else setValue(se, POS, R_PSTAKE_BYTES);
}

/** CreateStakingPool { token_mint, reward_source, reward_rate u128, lock_period u64, capacity u128, per_user_cap u128 }. */
export function execCreateStakingPool(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let rateL = ld(f, OPF_CREATE_STAKING_POOL_REWARD_RATE), rateH = ld(f, OPF_CREATE_STAKING_POOL_REWARD_RATE + 8), lock = ld(f, OPF_CREATE_STAKING_POOL_LOCK_PERIOD);
  let capL = ld(f, OPF_CREATE_STAKING_POOL_CAPACITY), capH = ld(f, OPF_CREATE_STAKING_POOL_CAPACITY + 8), perL = ld(f, OPF_CREATE_STAKING_POOL_PER_USER_CAP), perH = ld(f, OPF_CREATE_STAKING_POOL_PER_USER_CAP + 8);
  if (!exists(tokenEntry(f)) || !exists(tokenEntry(f + OPF_CREATE_STAKING_POOL_REWARD_SOURCE))) return S.UNKNOWN_TOKEN;
  if ((rateL | rateH) == 0 || lock > MAX_LOCK_SECONDS || ((capL | capH) != 0 && U.lt128(capL, capH, perL, perH))) return S.INVALID_STAKING_POOL;
  let id = nextId(P_STAKING_POOL_COUNT, DOMAIN, 19, ADDR);
  memory.fill(REC, 0, R_SPOOL_BYTES);
  store<u8>(REC + R_SPOOL_VERSION, 1);
  store<u64>(REC + R_SPOOL_ID, id);
  memory.copy(REC + R_SPOOL_CREATOR, user, 32);
  memory.copy(REC + R_SPOOL_STAKE_MINT, f, 64); // stake mint, reward mint
  st128(REC + R_SPOOL_REWARD_RATE, rateL, rateH);
  store<u64>(REC + R_SPOOL_LOCK_PERIOD, lock);
  st128(REC + R_SPOOL_CAPACITY, capL, capH);
  st128(REC + R_SPOOL_PER_USER_CAP, perL, perH);
  store<u64>(REC + R_SPOOL_LAST_HEIGHT, ctxHeight);
  store<u64>(REC + R_SPOOL_CREATED_AT, ctxTimestamp);
  store<u64>(REC + R_SPOOL_CREATED_HEIGHT, ctxHeight);
  setValue(stakingPoolEntry(ADDR), REC, R_SPOOL_BYTES);
  emitStakingPoolCreated(bundleIndex, <u16>opIndex, ADDR, user, f, f + OPF_CREATE_STAKING_POOL_REWARD_SOURCE); // the operation's stake mint, reward mint

  return S.OK;
}

/** StakeToPool { pool, amount }: capacity and per-user cap; the lock restarts at each stake. */
export function execStakeToPool(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let aL = ld(f, OPF_STAKE_TO_POOL_AMOUNT), aH = ld(f, OPF_STAKE_TO_POOL_AMOUNT + 8);
  if ((aL | aH) == 0) return S.ZERO_AMOUNT;
  let pe = loadPool(f);
  if (pe == 0) return S.STAKING_POOL_NOT_FOUND;
  let capL = ld(REC, R_SPOOL_CAPACITY), capH = ld(REC, R_SPOOL_CAPACITY + 8);
  if (U.add128(ld(REC, R_SPOOL_TOTAL_STAKED), ld(REC, R_SPOOL_TOTAL_STAKED + 8), aL, aH)
      || ((capL | capH) != 0 && U.lt128(capL, capH, U.lo, U.hi))) return S.POOL_CAPACITY_EXCEEDED;
  let tL = U.lo, tH = U.hi;
  accrue();
  let se = poolStakeEntry(f, user);
  settle(se);
  let oL = ld(POS, R_PSTAKE_AMOUNT), oH = ld(POS, R_PSTAKE_AMOUNT + 8);
  let perL = ld(REC, R_SPOOL_PER_USER_CAP), perH = ld(REC, R_SPOOL_PER_USER_CAP + 8);
  U.add128(oL, oH, aL, aH); // ≤ the total, which fit
  if ((perL | perH) != 0 && U.lt128(perL, perH, U.lo, U.hi)) return S.POOL_USER_CAP_EXCEEDED;
  st128(POS + R_PSTAKE_AMOUNT, U.lo, U.hi);
  let st = moveAmount(user, f, REC + R_SPOOL_STAKE_MINT, aL, aH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  store<u64>(POS + R_PSTAKE_UNLOCK_AT, ctxTimestamp + ld(REC, R_SPOOL_LOCK_PERIOD)); // lock ≤ 10 years: no overflow
  if ((oL | oH) == 0) store<u32>(REC + R_SPOOL_STAKERS, load<u32>(REC + R_SPOOL_STAKERS) + 1);
  st128(REC + R_SPOOL_TOTAL_STAKED, tL, tH);
  storePosition(se);
  setValue(pe, REC, R_SPOOL_BYTES);
  return S.OK;
}

/** UnstakeFromPool { pool, amount }: after the lock; pending rewards stay claimable. */
export function execUnstakeFromPool(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let aL = ld(f, OPF_UNSTAKE_FROM_POOL_AMOUNT), aH = ld(f, OPF_UNSTAKE_FROM_POOL_AMOUNT + 8);
  if ((aL | aH) == 0) return S.ZERO_AMOUNT;
  let pe = loadPool(f);
  if (pe == 0) return S.STAKING_POOL_NOT_FOUND;
  let se = poolStakeEntry(f, user);
  accrue();
  settle(se);
  if (U.sub128(ld(POS, R_PSTAKE_AMOUNT), ld(POS, R_PSTAKE_AMOUNT + 8), aL, aH)) return S.INSUFFICIENT_POOL_STAKE;
  let restL = U.lo, restH = U.hi;
  if (ctxTimestamp < ld(POS, R_PSTAKE_UNLOCK_AT)) return S.POOL_STAKE_LOCKED;
  let st = moveAmount(f, user, REC + R_SPOOL_STAKE_MINT, aL, aH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  st128(POS + R_PSTAKE_AMOUNT, restL, restH);
  U.sub128(ld(REC, R_SPOOL_TOTAL_STAKED), ld(REC, R_SPOOL_TOTAL_STAKED + 8), aL, aH);
  st128(REC + R_SPOOL_TOTAL_STAKED, U.lo, U.hi);
  if ((restL | restH) == 0) store<u32>(REC + R_SPOOL_STAKERS, load<u32>(REC + R_SPOOL_STAKERS) - 1);
  storePosition(se);
  setValue(pe, REC, R_SPOOL_BYTES);
  return S.OK;
}

/** ClaimPoolRewards { pool }: the sender's pending rewards from the reward account. */
export function execClaimPoolRewards(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let pe = loadPool(f);
  if (pe == 0) return S.STAKING_POOL_NOT_FOUND;
  let se = poolStakeEntry(f, user);
  accrue();
  settle(se);
  let pL = ld(POS, R_PSTAKE_PENDING), pH = ld(POS, R_PSTAKE_PENDING + 8);
  if ((pL | pH) == 0) return S.NO_POOL_REWARDS;
  let st = moveAmount(REWARDS, user, REC + R_SPOOL_REWARD_MINT, pL, pH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  U.sub128(ld(REC, R_SPOOL_ALLOCATED), ld(REC, R_SPOOL_ALLOCATED + 8), pL, pH); // pending ≤ allocated
  st128(REC + R_SPOOL_ALLOCATED, U.lo, U.hi);
  U.add128(ld(REC, R_SPOOL_PAID), ld(REC, R_SPOOL_PAID + 8), pL, pH); // ≤ all ever funded
  st128(REC + R_SPOOL_PAID, U.lo, U.hi);
  st128(POS + R_PSTAKE_PENDING, 0, 0);
  storePosition(se);
  setValue(pe, REC, R_SPOOL_BYTES);
  return S.OK;
}

/** FundStakingPool { pool, amount }: into the reward account, after accruing the blocks before it. */
export function execFundStakingPool(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let aL = ld(f, OPF_FUND_STAKING_POOL_AMOUNT), aH = ld(f, OPF_FUND_STAKING_POOL_AMOUNT + 8);
  if ((aL | aH) == 0) return S.ZERO_AMOUNT;
  let pe = loadPool(f);
  if (pe == 0) return S.STAKING_POOL_NOT_FOUND;
  accrue();
  let st = moveAmount(user, REWARDS, REC + R_SPOOL_REWARD_MINT, aL, aH, bundleIndex, opIndex);
  if (st != S.OK) return st;
  setValue(pe, REC, R_SPOOL_BYTES);
  return S.OK;
}
