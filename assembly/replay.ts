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
import { R_ACCOUNT_NONCE, R_ACCOUNT_KEY_COUNT, R_ACCOUNT_FAILED, R_ACCOUNT_FAILED_DATA, R_FAILED_BUNDLE_EXPIRY, R_FAILED_BUNDLE_BYTES } from "./abi";

/** Unexpired failed bundles one nonce may hold; the next distinct failure consumes the nonce. */
// @ts-ignore: decorator
@inline export const MAX_FAILED_AT_NONCE: u32 = 16;

/** Blake3-256 of the bundle being executed (the bundle hash, docs/bundle-format.md). */
export const BUNDLE_HASH = memory.data(32);
const scratch = memory.data(<i32>R_ACCOUNT_FAILED_DATA + MAX_FAILED_AT_NONCE * R_FAILED_BUNDLE_BYTES);

/** Hash the bundle's bytes into BUNDLE_HASH (only when the account has a list or the bundle failed). */
export function hashBundle(bytes: usize, len: u32): void {
  blake3(bytes, len, BUNDLE_HASH);
}

/** Failed bundles listed in an account record (0 for the plain 10-byte record). */
export function failedCount(acct: usize): u32 {
  return valLen(acct) > <i32>R_ACCOUNT_FAILED ? <u32>load<u8>(valPtr(acct) + R_ACCOUNT_FAILED) : 0;
}

/** Whether BUNDLE_HASH is listed in the account record. */
export function failedListed(acct: usize): bool {
  let n = failedCount(acct);
  let p = valPtr(acct) + R_ACCOUNT_FAILED_DATA;
  for (let i: u32 = 0; i < n; i++) {
    if (bytesEq(p + i * R_FAILED_BUNDLE_BYTES, BUNDLE_HASH, 32)) return true;
  }
  return false;
}

/** The failed bundle consumes `nonce`: the record returns to its plain form at nonce + 1. */
export function consumeNonce(acct: usize, nonce: u64, keyCount: u16): void {
  let p = beginWrite(acct, <u32>R_ACCOUNT_FAILED);
  store<u64>(p + R_ACCOUNT_NONCE, nonce + 1);
  store<u16>(p + R_ACCOUNT_KEY_COUNT, keyCount);
}

/**
 * The bundle in BUNDLE_HASH failed at `nonce`: list it with its expiry, dropping entries that
 * expired before `now`. When MAX_FAILED_AT_NONCE unexpired entries are already listed, the nonce
 * is consumed instead (the record returns to its plain form at nonce + 1), which bounds the record
 * at 651 bytes. Returns whether the nonce was consumed.
 */
export function recordFailure(acct: usize, nonce: u64, keyCount: u16, expiry: u64, now: u64): bool {
  let n = failedCount(acct);
  let src = valPtr(acct) + R_ACCOUNT_FAILED_DATA;
  let kept: u32 = 0;
  for (let i: u32 = 0; i < n; i++) {
    let e = src + i * R_FAILED_BUNDLE_BYTES;
    if (load<u64>(e + R_FAILED_BUNDLE_EXPIRY) < now) continue;
    memory.copy(scratch + R_ACCOUNT_FAILED_DATA + kept * R_FAILED_BUNDLE_BYTES, e, R_FAILED_BUNDLE_BYTES);
    kept++;
  }
  if (kept >= MAX_FAILED_AT_NONCE) {
    consumeNonce(acct, nonce, keyCount);
    return true;
  }
  let e = scratch + R_ACCOUNT_FAILED_DATA + kept * R_FAILED_BUNDLE_BYTES;
  memory.copy(e, BUNDLE_HASH, 32);
  store<u64>(e + R_FAILED_BUNDLE_EXPIRY, expiry);
  kept++;
  let len = <u32>R_ACCOUNT_FAILED_DATA + kept * R_FAILED_BUNDLE_BYTES;
  store<u64>(scratch + R_ACCOUNT_NONCE, nonce);
  store<u16>(scratch + R_ACCOUNT_KEY_COUNT, keyCount);
  store<u8>(scratch + R_ACCOUNT_FAILED, <u8>kept);
  memory.copy(beginWrite(acct, len), scratch, len);
  return false;
}
