// A failed bundle can be included once (docs/core-abi.md "Failed bundles: fee and replay").
//
// Spec §5.8 keeps a failed bundle's nonce unconsumed so its sender can retry at the same nonce.
// Without more, the same signed bytes would then be valid again in the next block, and the next:
// anyone holding a copy could fill blocks with it. So the account record remembers the hashes of
// the bundles that failed at its current nonce, and a bundle whose hash is listed is invalid
// (ALREADY_INCLUDED). The list belongs to the nonce: the next success at that nonce rewrites the
// record without it (a used nonce already refuses every older bundle), and an entry whose bundle
// has expired is dropped the next time the list is written (block timestamps never decrease, so
// an expired bundle stays expired). An account that never fails keeps its 10-byte record.
//
//   0x01 account: nonce u64, key_count u16 [, count u8, count × (hash [32], expiry u64)]

import { blake3 } from "./blake3";
import { beginWrite, valLen, valPtr } from "./state";
import { bytesEq } from "./mem";

/** Unexpired failed bundles one nonce may hold; the next distinct failure consumes the nonce. */
// @ts-ignore: decorator
@inline export const MAX_FAILED_AT_NONCE: u32 = 16;
// @ts-ignore: decorator
@inline const ENTRY: u32 = 40;
// @ts-ignore: decorator
@inline const HEAD: u32 = 11;

/** Blake3-256 of the bundle being executed (the bundle hash, docs/bundle-format.md). */
export const BUNDLE_HASH = memory.data(32);
const scratch = memory.data(HEAD + MAX_FAILED_AT_NONCE * ENTRY);

/** Hash the bundle's bytes into BUNDLE_HASH (only when the account has a list or the bundle failed). */
export function hashBundle(bytes: usize, len: u32): void {
  blake3(bytes, len, BUNDLE_HASH);
}

/** Failed bundles listed in an account record (0 for the plain 10-byte record). */
export function failedCount(acct: usize): u32 {
  return valLen(acct) > 10 ? <u32>load<u8>(valPtr(acct), 10) : 0;
}

/** Whether BUNDLE_HASH is listed in the account record. */
export function failedListed(acct: usize): bool {
  let n = failedCount(acct);
  let p = valPtr(acct) + HEAD;
  for (let i: u32 = 0; i < n; i++) {
    if (bytesEq(p + i * ENTRY, BUNDLE_HASH, 32)) return true;
  }
  return false;
}

/** The failed bundle consumes `nonce`: the record returns to its plain form at nonce + 1. */
export function consumeNonce(acct: usize, nonce: u64, keyCount: u16): void {
  let p = beginWrite(acct, 10);
  store<u64>(p, nonce + 1, 0);
  store<u16>(p, keyCount, 8);
}

/**
 * The bundle in BUNDLE_HASH failed at `nonce`: list it with its expiry, dropping entries that
 * expired before `now`. When MAX_FAILED_AT_NONCE unexpired entries are already listed, the nonce
 * is consumed instead (the record returns to its plain form at nonce + 1), which bounds the record
 * at 651 bytes. Returns whether the nonce was consumed.
 */
export function recordFailure(acct: usize, nonce: u64, keyCount: u16, expiry: u64, now: u64): bool {
  let n = failedCount(acct);
  let src = valPtr(acct) + HEAD;
  let kept: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    let e = src + i * ENTRY;
    if (load<u64>(e, 32) < now) continue;
    memory.copy(scratch + HEAD + kept * ENTRY, e, ENTRY);
    kept++;
  }
  if (kept >= MAX_FAILED_AT_NONCE) {
    consumeNonce(acct, nonce, keyCount);
    return true;
  }
  let e = scratch + HEAD + kept * ENTRY;
  memory.copy(e, BUNDLE_HASH, 32);
  store<u64>(e, expiry, 32);
  kept++;
  let len = HEAD + kept * ENTRY;
  store<u64>(scratch, nonce, 0);
  store<u16>(scratch, keyCount, 8);
  store<u8>(scratch, <u8>kept, 10);
  memory.copy(beginWrite(acct, len), scratch, len);
  return false;
}
