// The core's exports (docs/core-abi.md "Exports"). All buffers cross as (pointer, length) in the
// core's memory: the host writes arguments into the input region and reads results from the output.

import * as S from "./status";
import { bufNew, bufEnsure, bufPtr, bufLen, bufSetLen, bufBytes } from "./mem";
import { lookup, mark, revertTo, valLen, valPtr, cacheSize } from "./state";
import { applyBlock } from "./block";
import { applyGenesis } from "./genesis";
import { commit, nodePtr, getDerived } from "./root";
import { eventsReset } from "./events";
import { blake3, blake3Keyed } from "./blake3";
import * as U from "./u128";

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
  if (load<u8>(key) >= 0xf0) return getDerived(key, len, outBuf);
  let e = lookup(key, len);
  let n = valLen(e);
  if (n < 0) return -1;
  bufBytes(outBuf, valPtr(e), <u32>n);
  return n;
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
