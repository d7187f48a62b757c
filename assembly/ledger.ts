// Typed access to account and balance records (docs/core-abi.md "State layout").
//   0x01 account: nonce u64, key_count u16     0x02 balance: u128 (deleted at zero)

import * as S from "./status";
import * as U from "./u128";
import { beginWrite, deleteValue, E_KEY, E_KEYLEN, exists, valLen, valPtr } from "./state";
import { stableBlacklistEntry, stableBlacklistIndexEntry, tokenEntry } from "./keys";
import { P_BALANCE, TOKEN_FLAG_BLACKLIST, TOKEN_FLAG_PAUSED, R_TOKEN_NAME, R_TOKEN_NAME_DATA, R_TOKEN_FLAGS_AFTER_SYMBOL, R_TOKEN_TOTAL_SUPPLY_AFTER_SYMBOL, R_ACCOUNT_NONCE, R_ACCOUNT_KEY_COUNT, R_ACCOUNT_FAILED } from "./abi";
import { isZero } from "./mem";

// ---- STD-8 movement rules (spec §2.1, §7 item 4; docs/stablecoins.md "Where the rules hold") ----
// Every fungible balance moves through moveBalance (assembly/ops/transfer.ts) or credit/debit
// below, so the pause and blacklist rules of an STD-8 token are enforced here, once, for every
// path: Transfer, TransferFrom, EVM transfers, the DEX, schedules, and what later domains add.
// The cost for any other token is reading its TokenRecord.flags (bits 1 and 2 are never set on a
// non-STD-8 token); NTV (the zero mint) skips even that.

/** The status of the last credit/debit the STD-8 rules refused (0 = none); execOther reports it. */
export let guardRefusal: u32 = 0;
export function clearGuardRefusal(): void {
  guardRefusal = 0;
}

/**
 * Where TokenRecord.symbol's bytes end in a record at `vp` (after the variable name and symbol): the
 * fields after it lie at R_TOKEN_<FIELD>_AFTER_SYMBOL from here.
 */
// @ts-ignore: decorator
@inline export function tokenSymbolEnd(vp: usize): usize {
  let off: usize = R_TOKEN_NAME_DATA + <usize>load<u32>(vp + R_TOKEN_NAME);
  return off + 4 + <usize>load<u32>(vp + off); // the symbol: u32 length, then its bytes
}

/** Offset of TokenRecord.flags in a record at `vp` (after the variable name and symbol). */
// @ts-ignore: decorator
@inline export function tokenFlagsOffset(vp: usize): usize {
  return tokenSymbolEnd(vp) + R_TOKEN_FLAGS_AFTER_SYMBOL;
}

/** The STD-8 movement bits (paused, blacklist non-empty) of a token; 0 for NTV or an unknown token. */
export function movementFlags(mint: usize): u8 {
  if (isZero(mint, 32)) return 0;
  let e = tokenEntry(mint);
  if (!exists(e)) return 0;
  let vp = valPtr(e);
  return load<u8>(vp + tokenFlagsOffset(vp)) & (TOKEN_FLAG_PAUSED | TOKEN_FLAG_BLACKLIST);
}

/**
 * Whether `account` is blacklisted for `mint` (whose blacklist is not empty). The 0x43 index counts
 * blacklisted addresses by their last byte: an address whose byte counts none is not looked up in
 * 0x41 at all, so a movement of a coin with a blacklist costs one (always cached) index read, not
 * two first-touch lookups per pair of parties.
 */
export function blacklisted(mint: usize, account: usize): bool {
  let ix = stableBlacklistIndexEntry(mint);
  if (valLen(ix) != 1024 || load<u32>(valPtr(ix) + (<usize>load<u8>(account, 31) << 2)) == 0) return false;
  return exists(stableBlacklistEntry(mint, account));
}

/** OK, or why `account` may not send or receive `mint` now: TOKEN_PAUSED → ADDRESS_BLACKLISTED. */
export function stableGuard(mint: usize, account: usize): u32 {
  let f = movementFlags(mint);
  if (f == 0) return S.OK;
  if ((f & TOKEN_FLAG_PAUSED) != 0) return S.TOKEN_PAUSED;
  if (blacklisted(mint, account)) return S.ADDRESS_BLACKLISTED;
  return S.OK;
}

/** Both parties of a movement: TOKEN_PAUSED → sender blacklisted → recipient blacklisted. */
export function stableGuardMove(mint: usize, from: usize, to: usize): u32 {
  let f = movementFlags(mint);
  if (f == 0) return S.OK;
  if ((f & TOKEN_FLAG_PAUSED) != 0) return S.TOKEN_PAUSED;
  if (blacklisted(mint, from) || blacklisted(mint, to)) return S.ADDRESS_BLACKLISTED;
  return S.OK;
}

/** The guard of a balance entry (0x02 addr‖mint); other u128 entries (LP, multi-token) pass. */
function guardEntry(e: usize): bool {
  if (load<u32>(e, E_KEYLEN) != 65 || load<u8>(e + E_KEY) != P_BALANCE) return true;
  let st = stableGuard(e + E_KEY + 33, e + E_KEY + 1);
  if (st == S.OK) return true;
  guardRefusal = st;
  return false;
}

/** Offset of TokenRecord.total_supply in a record at `vp` (after the name, the symbol and decimals). */
export function tokenSupplyOffset(vp: usize): usize {
  return tokenSymbolEnd(vp) + R_TOKEN_TOTAL_SUPPLY_AFTER_SYMBOL;
}

/**
 * Add `lo,hi` to (or, with `sub`, take it from) the total supply of the token record in entry
 * `tokE`, in place: every mint and burn (STD-8, the bridge) changes the supply through here.
 * False on overflow/underflow, and nothing is written.
 */
export function tokenSupplyAdd(tokE: usize, lo: u64, hi: u64, sub: bool): bool {
  let n = <u32>valLen(tokE);
  let vp = valPtr(tokE);
  let so = tokenSupplyOffset(vp);
  let over = sub ? U.sub128(load<u64>(vp + so), load<u64>(vp + so, 8), lo, hi) : U.add128(load<u64>(vp + so), load<u64>(vp + so, 8), lo, hi);
  if (over) return false;
  let wp = beginWrite(tokE, n);
  store<u64>(wp + so, U.lo);
  store<u64>(wp + so, U.hi, 8);
  return true;
}

/** Balance of a 0x02 entry into U.lo/U.hi (0 when absent). */
export function balLoad(e: usize): void {
  if (valLen(e) == 16) {
    let p = valPtr(e);
    U.set128(load<u64>(p, 0), load<u64>(p, 8));
  } else {
    U.set128(0, 0);
  }
}

/** Store a balance; a zero balance deletes the key (state layout rule). */
export function balStore(e: usize, l: u64, h: u64): void {
  if ((l | h) == 0) {
    deleteValue(e);
    return;
  }
  let p = beginWrite(e, 16);
  store<u64>(p, l, 0);
  store<u64>(p, h, 8);
}

/**
 * Add to a balance; false on u128 overflow, or when the STD-8 rules refuse the recipient (then
 * guardRefusal says why and execOther answers with it). Nothing is written on false.
 */
export function credit(e: usize, l: u64, h: u64): bool {
  if (!guardEntry(e)) return false;
  balLoad(e);
  if (U.add128(U.lo, U.hi, l, h)) return false;
  balStore(e, U.lo, U.hi);
  return true;
}

/** Subtract from a balance; false when it is too low or the STD-8 rules refuse the holder (as credit). */
export function debit(e: usize, l: u64, h: u64): bool {
  if (!guardEntry(e)) return false;
  balLoad(e);
  if (U.sub128(U.lo, U.hi, l, h)) return false;
  balStore(e, U.lo, U.hi);
  return true;
}

export function accNonce(e: usize): u64 {
  return valLen(e) >= <i32>R_ACCOUNT_FAILED ? load<u64>(valPtr(e) + R_ACCOUNT_NONCE) : 0;
}
export function accKeyCount(e: usize): u16 {
  return valLen(e) >= <i32>R_ACCOUNT_FAILED ? load<u16>(valPtr(e) + R_ACCOUNT_KEY_COUNT) : 0;
}
export function accStore(e: usize, nonce: u64, keyCount: u16): void {
  let p = beginWrite(e, <u32>R_ACCOUNT_FAILED); // the plain record: no failed bundles listed
  store<u64>(p + R_ACCOUNT_NONCE, nonce);
  store<u16>(p + R_ACCOUNT_KEY_COUNT, keyCount);
}
