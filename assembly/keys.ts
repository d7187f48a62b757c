// State key builders (docs/core-abi.md "State layout"): a one-byte prefix then fixed fields.
// Each builder writes into the static KEY scratch and returns the key length; `lookup` copies it.

import { lookup } from "./state";

export const KEY = memory.data(320);

// @ts-ignore: decorator
@inline export const P_ACCOUNT: u8 = 0x01;
// @ts-ignore: decorator
@inline export const P_BALANCE: u8 = 0x02;
// @ts-ignore: decorator
@inline export const P_TOKEN: u8 = 0x03;
// @ts-ignore: decorator
@inline export const P_SYMBOL: u8 = 0x04;
// @ts-ignore: decorator
@inline export const P_RESERVED: u8 = 0x05;
// @ts-ignore: decorator
@inline export const P_KEY: u8 = 0x06;
// @ts-ignore: decorator
@inline export const P_BUCKET: u8 = 0xf0;
// @ts-ignore: decorator
@inline export const P_NODE: u8 = 0xf1;

// @ts-ignore: decorator
@inline function copy32(dst: usize, src: usize): void {
  store<u64>(dst, load<u64>(src, 0), 0);
  store<u64>(dst, load<u64>(src, 8), 8);
  store<u64>(dst, load<u64>(src, 16), 16);
  store<u64>(dst, load<u64>(src, 24), 24);
}

/** The entry of key `prefix ‖ a[32]`. */
function entry32(prefix: u8, a: usize): usize {
  store<u8>(KEY, prefix);
  copy32(KEY + 1, a);
  return lookup(KEY, 33);
}

/** The entry of key `prefix ‖ a[32] ‖ b[32]`. */
function entry64(prefix: u8, a: usize, b: usize): usize {
  store<u8>(KEY, prefix);
  copy32(KEY + 1, a);
  copy32(KEY + 33, b);
  return lookup(KEY, 65);
}

export function accountEntry(addr: usize): usize {
  return entry32(P_ACCOUNT, addr);
}

export function balanceEntry(addr: usize, mint: usize): usize {
  return entry64(P_BALANCE, addr, mint);
}

export function tokenEntry(mint: usize): usize {
  return entry32(P_TOKEN, mint);
}

export function keyRecordEntry(addr: usize, keyHash: usize): usize {
  return entry64(P_KEY, addr, keyHash);
}

/** ASCII upper-casing of a symbol into dst (symbols compare case-insensitively, spec §2.1). */
export function upperInto(dst: usize, src: usize, n: u32): void {
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(src + i);
    if (c >= 0x61 && c <= 0x7a) c -= 0x20;
    store<u8>(dst + i, c);
  }
}

/** 0x04 UPPER(symbol) (n ≤ 255). */
export function symbolEntry(sym: usize, n: u32): usize {
  store<u8>(KEY, P_SYMBOL);
  upperInto(KEY + 1, sym, n);
  return lookup(KEY, n + 1);
}

/** 0x05 UPPER(symbol). */
export function reservedEntry(sym: usize, n: u32): usize {
  store<u8>(KEY, P_RESERVED);
  upperInto(KEY + 1, sym, n);
  return lookup(KEY, n + 1);
}

// DEX and token-metadata records (docs/dex.md "State layout"; docs/core-abi.md "State layout").
// @ts-ignore: decorator
@inline export const P_POOL: u8 = 0x07;
// @ts-ignore: decorator
@inline export const P_LP: u8 = 0x08;
// @ts-ignore: decorator
@inline export const P_TOKEN_META: u8 = 0x09;

/** 0x07 pool_address[32] → PoolRecord. */
export function poolEntry(pool: usize): usize {
  return entry32(P_POOL, pool);
}

/** 0x08 pool_address[32] owner[32] → u128 LP balance (deleted at zero). */
export function lpEntry(pool: usize, owner: usize): usize {
  return entry64(P_LP, pool, owner);
}

/** 0x09 mint[32] → TokenMetadata (spec §2.3 metadata fields). */
export function tokenMetaEntry(mint: usize): usize {
  return entry32(P_TOKEN_META, mint);
}
