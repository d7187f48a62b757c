// The constant-product DEX (spec §4.2; facts.md "DEX"; docs/dex.md): CreatePool (disc. 28),
// AddLiquidity (29), RemoveLiquidity (30), Swap (31). The math is assembly/amm.ts, shared with the
// host's quotes. Invariants: every output rounds down and every required input rounds up (the
// pool's favour), so k = reserve0·reserve1 never decreases on a swap and no operation pays out
// more than it takes in; the pool address's balances always cover its reserves.
//
// Pool address = Blake3("ntv.amm-pool.v1" ‖ token0 ‖ token1) with token0 < token1 bytewise,
// shown as Nx8… (facts.md "Addresses"). The pool holds its tokens as ordinary 0x02 balances of
// that address; LP units are 0x08 records, not a token (they cannot be transferred, so a lock
// cannot be bypassed).

import * as S from "../../status";
import * as U from "../../u128";
import * as M from "../../amm";
import { balanceEntry, lpEntry, poolEntry, tokenEntry } from "../../keys";
import { exists, setValue, valPtr } from "../../state";
import { balLoad, balStore, credit, debit } from "../../ledger";
import { emitLiquidityAdded, emitLiquidityRemoved, emitPoolCreated, emitSwap } from "../../events-gen";
import { blake3 } from "../../blake3";
import { bytesCmp, bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp, NTV_MINT, TREASURY } from "../../context";
import { EV_LIQUIDITY_ADDED, EV_LIQUIDITY_REMOVED, R_POOL_BYTES, R_POOL_CREATED_AT, R_POOL_CREATED_HEIGHT, R_POOL_CREATOR, R_POOL_CREATOR_LOCKED_LP, R_POOL_LAST_UPDATE, R_POOL_LOCK_UNTIL, R_POOL_LP_SUPPLY, R_POOL_PRICE0_CUMULATIVE, R_POOL_PRICE1_CUMULATIVE, R_POOL_RESERVE0, R_POOL_RESERVE1, R_POOL_TOKEN0, R_POOL_TOKEN1, OPF_CREATE_POOL_AMOUNT_A, OPF_CREATE_POOL_AMOUNT_B, OPF_CREATE_POOL_LP_LOCK_DURATION, OPF_CREATE_POOL_TOKEN_B, OPF_ADD_LIQUIDITY_AMOUNT_A, OPF_ADD_LIQUIDITY_AMOUNT_B, OPF_ADD_LIQUIDITY_MIN_LP, OPF_ADD_LIQUIDITY_TOKEN_B, OPF_REMOVE_LIQUIDITY_LP_AMOUNT, OPF_REMOVE_LIQUIDITY_MIN_AMOUNT_A, OPF_REMOVE_LIQUIDITY_MIN_AMOUNT_B, OPF_REMOVE_LIQUIDITY_TOKEN_B, OPF_SWAP_AMOUNT_IN, OPF_SWAP_MIN_AMOUNT_OUT, OPF_SWAP_TO_TOKEN } from "../../abi";

/** Pool creation fee: 100 NTV (facts.md "DEX"), 9 decimals, to the treasury 0x00…03. */
// @ts-ignore: decorator
@inline export const POOL_CREATION_FEE: u64 = 100_000_000_000;
/** Longest LP lock a creator may set: 10 years of 365 days. */
// @ts-ignore: decorator
@inline export const MAX_LOCK_SECONDS: u64 = 315_360_000;

// PoolRecord (docs/dex.md "State layout"), 257 bytes, integers little-endian.

const REC = memory.data(257);
export const POOL = memory.data(32);
const T0 = memory.data(32);
const T1 = memory.data(32);
const PRE = memory.data(15 + 64);

/** "ntv.amm-pool.v1" (15 ASCII bytes): the pool address domain. */
const DOMAIN = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x61, 0x6d, 0x6d, 0x2d, 0x70, 0x6f, 0x6f, 0x6c, 0x2e, 0x76, 0x31]);

/** Sort the pair into T0 < T1; true when a was the larger (a is token1). */
function sortPair(a: usize, b: usize): bool {
  let swapped = bytesCmp(a, 32, b, 32) > 0;
  memory.copy(T0, swapped ? b : a, 32);
  memory.copy(T1, swapped ? a : b, 32);
  return swapped;
}

/** POOL = Blake3(domain ‖ T0 ‖ T1). */
function derivePool(): void {
  memory.copy(PRE, DOMAIN, 15);
  memory.copy(PRE + 15, T0, 32);
  memory.copy(PRE + 47, T1, 32);
  blake3(PRE, 79, POOL);
}

// @ts-ignore: decorator
@inline function ld(p: usize, o: usize): u64 {
  return load<u64>(p + o);
}

/** Move an amount between two accounts' balances: INSUFFICIENT_BALANCE / AMOUNT_OVERFLOW. */
function move(from: usize, to: usize, mint: usize, lo: u64, hi: u64): u32 {
  if (!debit(balanceEntry(from, mint), lo, hi)) return S.INSUFFICIENT_BALANCE;
  if (!credit(balanceEntry(to, mint), lo, hi)) return S.AMOUNT_OVERFLOW;
  return S.OK;
}

/** Does `who` hold at least lo/hi of mint? */
function covers(who: usize, mint: usize, lo: u64, hi: u64): bool {
  balLoad(balanceEntry(who, mint));
  return !U.lt128(U.lo, U.hi, lo, hi);
}

/**
 * TWAP (docs/dex.md "TWAP"): before reserves change, add the prices of the reserves that held
 * since the last update, weighted by the seconds elapsed (block timestamps, never a clock).
 */
function updateTwap(rec: usize): void {
  let last = ld(rec, R_POOL_LAST_UPDATE);
  if (ctxTimestamp > last) {
    let el = ctxTimestamp - last;
    let r0l = ld(rec, R_POOL_RESERVE0), r0h = ld(rec, R_POOL_RESERVE0 + 8);
    let r1l = ld(rec, R_POOL_RESERVE1), r1h = ld(rec, R_POOL_RESERVE1 + 8);
    M.accumulate(rec + R_POOL_PRICE0_CUMULATIVE, r1l, r1h, r0l, r0h, el); // price of token0 in token1
    M.accumulate(rec + R_POOL_PRICE1_CUMULATIVE, r0l, r0h, r1l, r1h, el); // price of token1 in token0
    store<u64>(rec + R_POOL_LAST_UPDATE, ctxTimestamp);
  }
}

/** Load the pool of (a, b) into REC; 0 when absent. Sets T0/T1/POOL. */
function loadPool(a: usize, b: usize): usize {
  sortPair(a, b);
  derivePool();
  let pe = poolEntry(POOL);
  if (!exists(pe)) return 0;
  memory.copy(REC, valPtr(pe), R_POOL_BYTES);
  return pe;
}

/** CreatePool { token_a[32], token_b[32], amount_a u128, amount_b u128, lp_lock_duration u64 }. */
export function execCreatePool(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  return createPoolFor(user, user, f, f + OPF_CREATE_POOL_TOKEN_B, ld(f, OPF_CREATE_POOL_AMOUNT_A), ld(f, OPF_CREATE_POOL_AMOUNT_A + 8), ld(f, OPF_CREATE_POOL_AMOUNT_B), ld(f, OPF_CREATE_POOL_AMOUNT_B + 8), ld(f, OPF_CREATE_POOL_LP_LOCK_DURATION), bundleIndex, opIndex);
}

/** The creator's LP units of the last createPoolFor (what its lock covers). */
export let createdLpLo: u64 = 0;
export let createdLpHi: u64 = 0;

/**
 * CreatePool's rules with the funds taken from `payer` (the 100 NTV fee and both amounts) and the
 * pool's creator, its LP units and their lock given to `owner`. CreatePool is payer = owner = the
 * sender; a presale's finalization pays from its escrow for its creator (assembly/domains/presales/ops.ts).
 */
export function createPoolFor(payer: usize, user: usize, ta: usize, tb: usize, aLo: u64, aHi: u64, bLo: u64, bHi: u64, dur: u64,
                              bundleIndex: u32, opIndex: u32): u32 {
  if (bytesEq(ta, tb, 32)) return S.IDENTICAL_TOKENS;
  if ((aLo | aHi) == 0 || (bLo | bHi) == 0) return S.ZERO_AMOUNT;
  if (!exists(tokenEntry(ta)) || !exists(tokenEntry(tb))) return S.UNKNOWN_TOKEN;
  if (dur > MAX_LOCK_SECONDS) return S.INVALID_LOCK_DURATION;
  let swapped = sortPair(ta, tb);
  let a0l = swapped ? bLo : aLo, a0h = swapped ? bHi : aHi;
  let a1l = swapped ? aLo : bLo, a1h = swapped ? aHi : bHi;
  derivePool();
  let pe = poolEntry(POOL);
  if (exists(pe)) return S.POOL_EXISTS;
  // Uniswap v2 first mint: sqrt(a0·a1) LP, of which 1,000 are locked forever.
  M.sqrtProduct(a0l, a0h, a1l, a1h);
  let lpl = U.lo, lph = U.hi;
  if (!U.lt128(M.MINIMUM_LIQUIDITY, 0, lpl, lph)) return S.INSUFFICIENT_LIQUIDITY;
  U.sub128(lpl, lph, M.MINIMUM_LIQUIDITY, 0);
  let mineL = U.lo, mineH = U.hi;
  // The 100 NTV creation fee goes to the treasury 0x00…03 (docs/dex.md "Fees").
  let st = move(payer, TREASURY, NTV_MINT, POOL_CREATION_FEE, 0);
  if (st != S.OK) return st;
  st = move(payer, POOL, T0, a0l, a0h);
  if (st != S.OK) return st;
  st = move(payer, POOL, T1, a1l, a1h);
  if (st != S.OK) return st;
  // The pool's own balances may hold earlier donations; reserves track only what was deposited.
  if (!credit(lpEntry(POOL, user), mineL, mineH)) return S.AMOUNT_OVERFLOW;
  createdLpLo = mineL;
  createdLpHi = mineH;
  memory.fill(REC, 0, R_POOL_BYTES);
  store<u8>(REC, 1); // version
  memory.copy(REC + R_POOL_TOKEN0, T0, 32);
  memory.copy(REC + R_POOL_TOKEN1, T1, 32);
  store<u64>(REC + R_POOL_RESERVE0, a0l);
  store<u64>(REC + R_POOL_RESERVE0 + 8, a0h);
  store<u64>(REC + R_POOL_RESERVE1, a1l);
  store<u64>(REC + R_POOL_RESERVE1 + 8, a1h);
  store<u64>(REC + R_POOL_LP_SUPPLY, lpl);
  store<u64>(REC + R_POOL_LP_SUPPLY + 8, lph);
  memory.copy(REC + R_POOL_CREATOR, user, 32);
  store<u64>(REC + R_POOL_CREATED_AT, ctxTimestamp);
  store<u64>(REC + R_POOL_CREATED_HEIGHT, ctxHeight);
  store<u64>(REC + R_POOL_LOCK_UNTIL, ctxTimestamp + dur); // ≤ 2^64: timestamps are unix seconds
  if (dur > 0) {
    store<u64>(REC + R_POOL_CREATOR_LOCKED_LP, mineL);
    store<u64>(REC + R_POOL_CREATOR_LOCKED_LP + 8, mineH);
  }
  store<u64>(REC + R_POOL_LAST_UPDATE, ctxTimestamp);
  setValue(pe, REC, R_POOL_BYTES);
  // PoolCreated: pool token0 token1 creator amount0 amount1 lp_supply lock_until fee (200 bytes)
  emitPoolCreated(bundleIndex, <u16>opIndex, POOL, T0, T1, user, a0l, a0h, a1l, a1h, lpl, lph, ctxTimestamp + dur, POOL_CREATION_FEE, 0);
  return S.OK;
}

/** AddLiquidity { token_a[32], token_b[32], amount_a u128, amount_b u128, min_lp u128 }. */
export function execAddLiquidity(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let ta = f, tb = f + OPF_ADD_LIQUIDITY_TOKEN_B;
  let aLo = ld(f, OPF_ADD_LIQUIDITY_AMOUNT_A), aHi = ld(f, OPF_ADD_LIQUIDITY_AMOUNT_A + 8), bLo = ld(f, OPF_ADD_LIQUIDITY_AMOUNT_B), bHi = ld(f, OPF_ADD_LIQUIDITY_AMOUNT_B + 8);
  let minL = ld(f, OPF_ADD_LIQUIDITY_MIN_LP), minH = ld(f, OPF_ADD_LIQUIDITY_MIN_LP + 8);
  if (bytesEq(ta, tb, 32)) return S.IDENTICAL_TOKENS;
  if ((aLo | aHi) == 0 || (bLo | bHi) == 0) return S.ZERO_AMOUNT;
  if (!exists(tokenEntry(ta)) || !exists(tokenEntry(tb))) return S.UNKNOWN_TOKEN;
  let swapped = bytesCmp(ta, 32, tb, 32) > 0;
  let pe = loadPool(ta, tb);
  if (pe == 0) return S.POOL_NOT_FOUND;
  let d0l = swapped ? bLo : aLo, d0h = swapped ? bHi : aHi;
  let d1l = swapped ? aLo : bLo, d1h = swapped ? aHi : bHi;
  let r0l = ld(REC, R_POOL_RESERVE0), r0h = ld(REC, R_POOL_RESERVE0 + 8);
  let r1l = ld(REC, R_POOL_RESERVE1), r1h = ld(REC, R_POOL_RESERVE1 + 8);
  let sl = ld(REC, R_POOL_LP_SUPPLY), sh = ld(REC, R_POOL_LP_SUPPLY + 8);
  if (!M.liquidityFor(d0l, d0h, d1l, d1h, r0l, r0h, r1l, r1h, sl, sh)) return S.AMOUNT_OVERFLOW;
  let u0l = M.used0Lo, u0h = M.used0Hi, u1l = M.used1Lo, u1h = M.used1Hi;
  let ml = M.mintedLo, mh = M.mintedHi;
  if ((ml | mh) == 0) return S.INSUFFICIENT_LIQUIDITY_MINTED;
  if (U.lt128(ml, mh, minL, minH)) return S.SLIPPAGE_EXCEEDED;
  let st = move(user, POOL, T0, u0l, u0h);
  if (st != S.OK) return st;
  st = move(user, POOL, T1, u1l, u1h);
  if (st != S.OK) return st;
  updateTwap(REC);
  if (U.add128(r0l, r0h, u0l, u0h)) return S.AMOUNT_OVERFLOW;
  store<u64>(REC + R_POOL_RESERVE0, U.lo);
  store<u64>(REC + R_POOL_RESERVE0 + 8, U.hi);
  if (U.add128(r1l, r1h, u1l, u1h)) return S.AMOUNT_OVERFLOW;
  store<u64>(REC + R_POOL_RESERVE1, U.lo);
  store<u64>(REC + R_POOL_RESERVE1 + 8, U.hi);
  if (U.add128(sl, sh, ml, mh)) return S.AMOUNT_OVERFLOW;
  store<u64>(REC + R_POOL_LP_SUPPLY, U.lo);
  store<u64>(REC + R_POOL_LP_SUPPLY + 8, U.hi);
  if (!credit(lpEntry(POOL, user), ml, mh)) return S.AMOUNT_OVERFLOW;
  setValue(pe, REC, R_POOL_BYTES);
  liquidityEvent(EV_LIQUIDITY_ADDED, user, u0l, u0h, u1l, u1h, ml, mh, bundleIndex, opIndex);
  return S.OK;
}

/** LiquidityAdded / LiquidityRemoved: pool provider amount0 amount1 lp (112 bytes). */
function liquidityEvent(kind: u8, user: usize, a0l: u64, a0h: u64, a1l: u64, a1h: u64, ll: u64, lh: u64,
                        bundleIndex: u32, opIndex: u32): void {
  if (kind == EV_LIQUIDITY_ADDED) emitLiquidityAdded(bundleIndex, <u16>opIndex, POOL, user, a0l, a0h, a1l, a1h, ll, lh);
  else emitLiquidityRemoved(bundleIndex, <u16>opIndex, POOL, user, a0l, a0h, a1l, a1h, ll, lh);
}

/** RemoveLiquidity { token_a[32], token_b[32], lp_amount u128, min_amount_a u128, min_amount_b u128 }. */
export function execRemoveLiquidity(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let ta = f, tb = f + OPF_REMOVE_LIQUIDITY_TOKEN_B;
  let lpl = ld(f, OPF_REMOVE_LIQUIDITY_LP_AMOUNT), lph = ld(f, OPF_REMOVE_LIQUIDITY_LP_AMOUNT + 8);
  let minAl = ld(f, OPF_REMOVE_LIQUIDITY_MIN_AMOUNT_A), minAh = ld(f, OPF_REMOVE_LIQUIDITY_MIN_AMOUNT_A + 8), minBl = ld(f, OPF_REMOVE_LIQUIDITY_MIN_AMOUNT_B), minBh = ld(f, OPF_REMOVE_LIQUIDITY_MIN_AMOUNT_B + 8);
  if (bytesEq(ta, tb, 32)) return S.IDENTICAL_TOKENS;
  if ((lpl | lph) == 0) return S.ZERO_AMOUNT;
  if (!exists(tokenEntry(ta)) || !exists(tokenEntry(tb))) return S.UNKNOWN_TOKEN;
  let swapped = bytesCmp(ta, 32, tb, 32) > 0;
  let pe = loadPool(ta, tb);
  if (pe == 0) return S.POOL_NOT_FOUND;
  let le = lpEntry(POOL, user);
  balLoad(le);
  let hl = U.lo, hh = U.hi;
  if (U.sub128(hl, hh, lpl, lph)) return S.INSUFFICIENT_LP_BALANCE;
  let restL = U.lo, restH = U.hi;
  // The creator's initial LP stays until the lock ends (spec §4.2 lp_lock_duration).
  if (bytesEq(user, REC + R_POOL_CREATOR, 32) && ctxTimestamp < ld(REC, R_POOL_LOCK_UNTIL)
      && U.lt128(restL, restH, ld(REC, R_POOL_CREATOR_LOCKED_LP), ld(REC, R_POOL_CREATOR_LOCKED_LP + 8))) {
    return S.LP_LOCKED;
  }
  let r0l = ld(REC, R_POOL_RESERVE0), r0h = ld(REC, R_POOL_RESERVE0 + 8);
  let r1l = ld(REC, R_POOL_RESERVE1), r1h = ld(REC, R_POOL_RESERVE1 + 8);
  let sl = ld(REC, R_POOL_LP_SUPPLY), sh = ld(REC, R_POOL_LP_SUPPLY + 8);
  // lp ≤ holdings ≤ supply − 1,000, so both shares fit and leave every reserve positive.
  M.mulDiv(lpl, lph, r0l, r0h, sl, sh);
  let o0l = U.lo, o0h = U.hi;
  M.mulDiv(lpl, lph, r1l, r1h, sl, sh);
  let o1l = U.lo, o1h = U.hi;
  if ((o0l | o0h) == 0 || (o1l | o1h) == 0) return S.INSUFFICIENT_OUTPUT_AMOUNT;
  let oAl = swapped ? o1l : o0l, oAh = swapped ? o1h : o0h;
  let oBl = swapped ? o0l : o1l, oBh = swapped ? o0h : o1h;
  if (U.lt128(oAl, oAh, minAl, minAh) || U.lt128(oBl, oBh, minBl, minBh)) return S.SLIPPAGE_EXCEEDED;
  updateTwap(REC);
  U.sub128(r0l, r0h, o0l, o0h);
  store<u64>(REC + R_POOL_RESERVE0, U.lo);
  store<u64>(REC + R_POOL_RESERVE0 + 8, U.hi);
  U.sub128(r1l, r1h, o1l, o1h);
  store<u64>(REC + R_POOL_RESERVE1, U.lo);
  store<u64>(REC + R_POOL_RESERVE1 + 8, U.hi);
  U.sub128(sl, sh, lpl, lph);
  store<u64>(REC + R_POOL_LP_SUPPLY, U.lo);
  store<u64>(REC + R_POOL_LP_SUPPLY + 8, U.hi);
  balStore(le, restL, restH);
  let st = move(POOL, user, T0, o0l, o0h);
  if (st != S.OK) return st;
  st = move(POOL, user, T1, o1l, o1h);
  if (st != S.OK) return st;
  setValue(pe, REC, R_POOL_BYTES);
  liquidityEvent(EV_LIQUIDITY_REMOVED, user, o0l, o0h, o1l, o1h, lpl, lph, bundleIndex, opIndex);
  return S.OK;
}

/** Swap { from_token[32], to_token[32], amount_in u128, min_amount_out u128 } (exact in). */
export function execSwap(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  let tIn = f, tOut = f + OPF_SWAP_TO_TOKEN;
  let inL = ld(f, OPF_SWAP_AMOUNT_IN), inH = ld(f, OPF_SWAP_AMOUNT_IN + 8), minL = ld(f, OPF_SWAP_MIN_AMOUNT_OUT), minH = ld(f, OPF_SWAP_MIN_AMOUNT_OUT + 8);
  if (bytesEq(tIn, tOut, 32)) return S.IDENTICAL_TOKENS;
  if ((inL | inH) == 0) return S.ZERO_AMOUNT;
  if (!exists(tokenEntry(tIn)) || !exists(tokenEntry(tOut))) return S.UNKNOWN_TOKEN;
  let zeroForOne = bytesCmp(tIn, 32, tOut, 32) < 0;
  let pe = loadPool(tIn, tOut);
  if (pe == 0) return S.POOL_NOT_FOUND;
  if (!covers(user, tIn, inL, inH)) return S.INSUFFICIENT_BALANCE;
  let oIn: usize = zeroForOne ? R_POOL_RESERVE0 : R_POOL_RESERVE1;
  let oOut: usize = zeroForOne ? R_POOL_RESERVE1 : R_POOL_RESERVE0;
  let rinL = ld(REC, oIn), rinH = ld(REC, oIn + 8), routL = ld(REC, oOut), routH = ld(REC, oOut + 8);
  if (U.add128(rinL, rinH, inL, inH)) return S.AMOUNT_OVERFLOW;
  let nInL = U.lo, nInH = U.hi;
  M.amountOut(inL, inH, rinL, rinH, routL, routH);
  let outL = U.lo, outH = U.hi;
  if ((outL | outH) == 0) return S.INSUFFICIENT_OUTPUT_AMOUNT;
  if (U.lt128(outL, outH, minL, minH)) return S.SLIPPAGE_EXCEEDED;
  updateTwap(REC);
  let st = move(user, POOL, tIn, inL, inH);
  if (st != S.OK) return st;
  st = move(POOL, user, tOut, outL, outH);
  if (st != S.OK) return st;
  store<u64>(REC + oIn, nInL);
  store<u64>(REC + oIn + 8, nInH);
  U.sub128(routL, routH, outL, outH); // out < r_out (amm.ts)
  store<u64>(REC + oOut, U.lo);
  store<u64>(REC + oOut + 8, U.hi);
  setValue(pe, REC, R_POOL_BYTES);
  // Swap: pool trader token_in amount_in amount_out reserve0 reserve1 (160 bytes; token_out is the other)
  emitSwap(bundleIndex, <u16>opIndex, POOL, user, tIn, inL, inH, outL, outH, ld(REC, R_POOL_RESERVE0), ld(REC, R_POOL_RESERVE0 + 8), ld(REC, R_POOL_RESERVE1), ld(REC, R_POOL_RESERVE1 + 8));

  return S.OK;
}

/** Reserves of token a then token b of the (a, b) pool, for a Conditional schedule (assembly/domains/schedules/ops.ts). */
export let resALo: u64 = 0;
export let resAHi: u64 = 0;
export let resBLo: u64 = 0;
export let resBHi: u64 = 0;

/** Load the (a, b) pool's reserves into resA/resB; false when there is no such pool. */
export function poolReserves(a: usize, b: usize): bool {
  if (bytesEq(a, b, 32) || loadPool(a, b) == 0) return false;
  let aFirst = bytesCmp(a, 32, b, 32) < 0;
  let oa: usize = aFirst ? R_POOL_RESERVE0 : R_POOL_RESERVE1;
  let ob: usize = aFirst ? R_POOL_RESERVE1 : R_POOL_RESERVE0;
  resALo = ld(REC, oa); resAHi = ld(REC, oa + 8);
  resBLo = ld(REC, ob); resBHi = ld(REC, ob + 8);
  return true;
}

/** Is there a pool for the pair (a, b)? (a presale refuses a pair whose pool exists: docs/presales.md) */
export function poolExists(a: usize, b: usize): bool {
  sortPair(a, b);
  derivePool();
  return exists(poolEntry(POOL));
}
