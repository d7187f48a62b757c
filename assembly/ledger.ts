// Typed access to account and balance records (docs/core-abi.md "State layout").
//   0x01 account: nonce u64, key_count u16     0x02 balance: u128 (deleted at zero)

import * as U from "./u128";
import { beginWrite, deleteValue, valLen, valPtr } from "./state";

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

/** Add to a balance; false on u128 overflow (nothing written). */
export function credit(e: usize, l: u64, h: u64): bool {
  balLoad(e);
  if (U.add128(U.lo, U.hi, l, h)) return false;
  balStore(e, U.lo, U.hi);
  return true;
}

/** Subtract from a balance; false when it is too low (nothing written). */
export function debit(e: usize, l: u64, h: u64): bool {
  balLoad(e);
  if (U.sub128(U.lo, U.hi, l, h)) return false;
  balStore(e, U.lo, U.hi);
  return true;
}

export function accNonce(e: usize): u64 {
  return valLen(e) >= 10 ? load<u64>(valPtr(e), 0) : 0;
}
export function accKeyCount(e: usize): u16 {
  return valLen(e) >= 10 ? load<u16>(valPtr(e), 8) : 0;
}
export function accStore(e: usize, nonce: u64, keyCount: u16): void {
  let p = beginWrite(e, 10);
  store<u64>(p, nonce, 0);
  store<u16>(p, keyCount, 8);
}
