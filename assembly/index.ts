// The core's exports (docs/core-abi.md "Exports"). All buffers cross as (pointer, length) in the
// core's memory: the host writes arguments into the input region and reads results from the output.

import * as S from "./status";
import { bufNew, bufEnsure, bufPtr, bufLen, bufSetLen, bufBytes } from "./mem";
import { lookup, mark, revertTo, valLen, valPtr, cacheSize } from "./state";
import { applyBlock } from "./block";
import { applyGenesis } from "./genesis";
import { emissionTarget } from "./domains/staking/rewards";
import { commit, nodePtr, getDerived } from "./root";
import { eventsReset } from "./events";
import { blake3, blake3Keyed } from "./blake3";
import * as U from "./u128";
import * as AMM from "./amm";
import { scanBundles, transactionsRoot } from "./scan";
import { P_BUCKET } from "./abi";

const inBuf = bufNew(1 << 16);
const outBuf = bufNew(1 << 16);

/** A region of at least len bytes for the host to write the next call's argument into. */
export function input(len: u32): usize {
  return bufEnsure(inBuf, len);
}

export function output_ptr(): usize {
  return bufPtr(outBuf);
}

export function output_len(): u32 {
  return bufLen(outBuf);
}

/** Apply a GenesisConfig inside the open block (close it with commit_block). */
export function genesis(len: u32): u32 {
  bufSetLen(outBuf, 0);
  let st = applyGenesis(bufPtr(inBuf), len);
  if (st != S.OK) revertTo(0); // a refused genesis leaves no trace
  return st;
}

/** Apply a BlockInput; BlockResult in the output. */
export function apply_block(len: u32): u32 {
  let st = applyBlock(bufPtr(inBuf), len, outBuf);
  if (st != S.OK) {
    // A malformed block input is the host's fault: undo what the block did so far.
    revertTo(0);
    eventsReset();
    bufSetLen(outBuf, 0);
  }
  return st;
}

/** Close the open block: CommitResult { state_root, writes } in the output. */
export function commit_block(): u32 {
  commit(outBuf);
  return S.OK;
}

/** Undo everything since the open block began. */
export function revert_block(): void {
  revertTo(0);
  eventsReset();
  bufSetLen(outBuf, 0);
}

/** Pointer to the 32-byte committed state root (node 1). */
export function state_root(): usize {
  return nodePtr(1);
}

/** Read a key through the cache (sees the open block's writes); value in the output, -1 if absent. */
export function get(len: u32): i32 {
  let key = bufPtr(inBuf);
  bufSetLen(outBuf, 0);
  if (len == 0 || len > 255) return -1;
  if (load<u8>(key) >= P_BUCKET) return getDerived(key, len, outBuf);
  let e = lookup(key, len);
  let n = valLen(e);
  if (n < 0) return -1;
  bufBytes(outBuf, valPtr(e), <u32>n);
  return n;
}

/**
 * Per-bundle hash, decode summary and the transactions root of a block's bundle section
 * (docs/core-abi.md "Block scan"). Pure: safe while a block is open.
 */
export function scan_bundles(len: u32): u32 {
  return scanBundles(bufPtr(inBuf), len, outBuf);
}

/** The transactions root of n × 32-byte bundle hashes (docs/core-abi.md "Block scan"). */
export function transactions_root(len: u32): u32 {
  return transactionsRoot(bufPtr(inBuf), len, outBuf);
}

/** Test hook: the scheduled cumulative emission s seconds after the emission start (assembly/domains/staking/rewards.ts). */
export function emission_target(s: u64): u64 {
  return emissionTarget(s);
}

/** Number of keys in the cache (diagnostics). */
export function cache_size(): u32 {
  return cacheSize();
}

/** Test hook: Blake3 of the input region (len bytes) → 32 bytes of output. */
export function blake3_hash(len: u32): u32 {
  let p = bufEnsure(outBuf, 32);
  blake3(bufPtr(inBuf), len, p);
  bufSetLen(outBuf, 32);
  return S.OK;
}

/** Test hook: Blake3 keyed_hash; input = key[32] ‖ data (len bytes in all) → 32 bytes of output. */
export function blake3_keyed_hash(len: u32): u32 {
  let p = bufEnsure(outBuf, 32);
  blake3Keyed(bufPtr(inBuf), bufPtr(inBuf) + 32, len - 32, p);
  bufSetLen(outBuf, 32);
  return S.OK;
}

/**
 * Test hook for the u128 math: input a u128, b u128, c u64; op 0 add, 1 sub, 2 mul64(a.lo, c),
 * 3 mul128x64(a, c), 4 divSmall(a, c as u32). Output: flag u8 (overflow/underflow, or remainder
 * low byte for div — see the rem field), result u128, rem u64.
 */
export function u128_op(op: u32): u32 {
  let p = bufPtr(inBuf);
  let aLo = load<u64>(p, 0), aHi = load<u64>(p, 8), bLo = load<u64>(p, 16), bHi = load<u64>(p, 24);
  let c = load<u64>(p, 32);
  let flag = false;
  let rem: u64 = 0;
  if (op == 0) flag = U.add128(aLo, aHi, bLo, bHi);
  else if (op == 1) flag = U.sub128(aLo, aHi, bLo, bHi);
  else if (op == 2) U.mul64(aLo, c);
  else if (op == 3) flag = U.mul128x64(aLo, aHi, c);
  else rem = U.divSmall(aLo, aHi, <u32>c);
  let o = bufEnsure(outBuf, 25);
  store<u8>(o, flag ? 1 : 0);
  store<u64>(o + 1, U.lo);
  store<u64>(o + 9, U.hi);
  store<u64>(o + 17, rem);
  bufSetLen(outBuf, 25);
  return S.OK;
}

/**
 * The AMM's read math for the host (docs/dex.md "Quotes"), the same functions execution uses
 * (assembly/amm.ts), so a quote equals the execution. Input: little-endian u128 arguments; output:
 * status u32 (0 OK, 1 no liquidity / cannot pay, 2 overflow) then u128 results.
 *   op 0 exact-in   (in, r_in, r_out)        → out, fee, impact_bps
 *   op 1 exact-out  (out, r_in, r_out)       → in, fee, impact_bps
 *   op 2 add        (d0, d1, r0, r1, supply) → used0, used1, minted
 *   op 3 remove     (lp, r0, r1, supply)     → out0, out1
 *   op 4 first mint (a0, a1)                 → total LP, provider LP (total − 1,000, or 0)
 *   op 5 bench      (in, r0, r1, n u64)      → r0, r1 after n round trips (2n swaps) in the module
 */
export function amm_math(op: u32): u32 {
  let p = bufPtr(inBuf);
  let st: u32 = 0;
  let o = bufEnsure(outBuf, 52);
  let r0l: u64 = 0, r0h: u64 = 0, r1l: u64 = 0, r1h: u64 = 0, r2l: u64 = 0, r2h: u64 = 0;
  let aL = load<u64>(p, 0), aH = load<u64>(p, 8), bL = load<u64>(p, 16), bH = load<u64>(p, 24);
  let cL = load<u64>(p, 32), cH = load<u64>(p, 40), dL = load<u64>(p, 48), dH = load<u64>(p, 56);
  if (op == 0 || op == 1) {
    let inL = aL, inH = aH;
    if (op == 0) {
      if (!AMM.amountOut(aL, aH, bL, bH, cL, cH)) st = 1;
      r0l = U.lo; r0h = U.hi;
    } else {
      st = AMM.amountIn(aL, aH, bL, bH, cL, cH);
      inL = U.lo; inH = U.hi;
      r0l = inL; r0h = inH;
    }
    if (st == 0) {
      // fee = in − floor(in·997/1000): the part of the input that stays in the pool as the fee.
      AMM.mulDiv(inL, inH, AMM.FEE_KEPT, 0, AMM.FEE_DEN, 0);
      U.sub128(inL, inH, U.lo, U.hi);
      r1l = U.lo; r1h = U.hi;
      AMM.impactBps(inL, inH, bL, bH);
      r2l = U.lo; r2h = U.hi;
    }
  } else if (op == 2) {
    let sL = load<u64>(p, 64), sH = load<u64>(p, 72);
    if (!AMM.liquidityFor(aL, aH, bL, bH, cL, cH, dL, dH, sL, sH)) st = 2;
    r0l = AMM.used0Lo; r0h = AMM.used0Hi; r1l = AMM.used1Lo; r1h = AMM.used1Hi; r2l = AMM.mintedLo; r2h = AMM.mintedHi;
  } else if (op == 3) {
    AMM.mulDiv(aL, aH, bL, bH, dL, dH);
    r0l = U.lo; r0h = U.hi;
    AMM.mulDiv(aL, aH, cL, cH, dL, dH);
    r1l = U.lo; r1h = U.hi;
  } else if (op == 4) {
    AMM.sqrtProduct(aL, aH, bL, bH);
    r0l = U.lo; r0h = U.hi;
    if (U.sub128(r0l, r0h, AMM.MINIMUM_LIQUIDITY, 0)) { r1l = 0; r1h = 0; st = 1; } else { r1l = U.lo; r1h = U.hi; }
  } else if (op == 5) {
    let n = load<u64>(p, 48);
    let x0l = bL, x0h = bH, x1l = cL, x1h = cH;
    for (let i: u64 = 0; i < n; i++) {
      AMM.amountOut(aL, aH, x0l, x0h, x1l, x1h);
      let oL = U.lo, oH = U.hi;
      U.add128(x0l, x0h, aL, aH); x0l = U.lo; x0h = U.hi;
      U.sub128(x1l, x1h, oL, oH); x1l = U.lo; x1h = U.hi;
      AMM.amountOut(oL, oH, x1l, x1h, x0l, x0h);
      let bl = U.lo, bh = U.hi;
      U.add128(x1l, x1h, oL, oH); x1l = U.lo; x1h = U.hi;
      U.sub128(x0l, x0h, bl, bh); x0l = U.lo; x0h = U.hi;
    }
    r0l = x0l; r0h = x0h; r1l = x1l; r1h = x1h;
  } else {
    st = 3;
  }
  store<u32>(o, st);
  store<u64>(o + 4, r0l);
  store<u64>(o + 12, r0h);
  store<u64>(o + 20, r1l);
  store<u64>(o + 28, r1h);
  store<u64>(o + 36, r2l);
  store<u64>(o + 44, r2h);
  bufSetLen(outBuf, 52);
  return S.OK;
}
