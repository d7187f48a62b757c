// Escrow accounts of the presale and staking-pool domains (docs/presales.md, docs/staking-pools.md):
// an escrow is an ordinary account whose address is Blake3(domain tag ‖ id u64 LE), so it has no
// key and only its domain's rules move its balances; every movement goes through moveBalance
// (assembly/ops/transfer.ts) with its Transfer event, so rules on token movements cover escrows too.

import * as S from "../status";
import { balanceEntry, KEY } from "../keys";
import { lookup, setValue, valLen, valPtr } from "../state";
import { blake3 } from "../blake3";
import { moveBalance } from "./transfer";

const AMT = memory.data(16);
const PRE = memory.data(64);
const ID8 = memory.data(8);

/** Move lo/hi of `token` from `from` to `to` (nothing, and no event, for zero). */
export function moveAmount(from: usize, to: usize, token: usize, lo: u64, hi: u64, bundleIndex: u32, opIndex: u32): u32 {
  if ((lo | hi) == 0) return S.OK;
  store<u64>(AMT, lo);
  store<u64>(AMT, hi, 8);
  return moveBalance(balanceEntry(from, token), from, to, token, AMT, bundleIndex, opIndex);
}

/** out = Blake3(tag[tagLen] ‖ tail[tailLen]) (tagLen + tailLen ≤ 64). */
export function deriveAddress(tag: usize, tagLen: u32, tail: usize, tailLen: u32, out: usize): void {
  memory.copy(PRE, tag, tagLen);
  memory.copy(PRE + tagLen, tail, tailLen);
  blake3(PRE, tagLen + tailLen, out);
}

/** Increment the u64 counter at the one-byte key `prefix` and derive the new id's address into `out`. */
export function nextId(prefix: u8, tag: usize, tagLen: u32, out: usize): u64 {
  store<u8>(KEY, prefix);
  let e = lookup(KEY, 1);
  let id: u64 = (valLen(e) == 8 ? load<u64>(valPtr(e)) : 0) + 1;
  store<u64>(ID8, id);
  setValue(e, ID8, 8);
  deriveAddress(tag, tagLen, ID8, 8, out);
  return id;
}

/** The u64 at p + o (record fields; u128 fields are two of them, low first). */
// @ts-ignore: decorator
@inline export function ld(p: usize, o: usize): u64 {
  return load<u64>(p + o);
}
/** Store a u128 as its two little-endian halves. */
// @ts-ignore: decorator
@inline export function st128(p: usize, lo: u64, hi: u64): void {
  store<u64>(p, lo);
  store<u64>(p + 8, hi);
}
