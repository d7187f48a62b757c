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

export function accountEntry(addr: usize): usize {
  store<u8>(KEY, P_ACCOUNT);
  copy32(KEY + 1, addr);
  return lookup(KEY, 33);
}

export function balanceEntry(addr: usize, mint: usize): usize {
  store<u8>(KEY, P_BALANCE);
  copy32(KEY + 1, addr);
  copy32(KEY + 33, mint);
  return lookup(KEY, 65);
}

export function tokenEntry(mint: usize): usize {
  store<u8>(KEY, P_TOKEN);
  copy32(KEY + 1, mint);
  return lookup(KEY, 33);
}

export function keyRecordEntry(addr: usize, keyHash: usize): usize {
  store<u8>(KEY, P_KEY);
  copy32(KEY + 1, addr);
  copy32(KEY + 33, keyHash);
  return lookup(KEY, 65);
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
  store<u8>(KEY, P_POOL);
  copy32(KEY + 1, pool);
  return lookup(KEY, 33);
}

/** 0x08 pool_address[32] owner[32] → u128 LP balance (deleted at zero). */
export function lpEntry(pool: usize, owner: usize): usize {
  store<u8>(KEY, P_LP);
  copy32(KEY + 1, pool);
  copy32(KEY + 33, owner);
  return lookup(KEY, 65);
}

/** 0x09 mint[32] → TokenMetadata (spec §2.3 metadata fields). */
export function tokenMetaEntry(mint: usize): usize {
  store<u8>(KEY, P_TOKEN_META);
  copy32(KEY + 1, mint);
  return lookup(KEY, 33);
}
