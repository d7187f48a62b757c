// Transfer (bundle-format disc. 0; docs/core-abi.md "Rules"): amount > 0, the token exists, the
// sender's balance covers the amount (the fee was already taken, so an NTV transfer also needs
// amount + fee); a transfer to oneself is allowed and changes only the fee and nonce.

import * as S from "../status";
import * as U from "../u128";
import { balanceEntry, tokenEntry } from "../keys";
import { exists } from "../state";
import { balLoad, balStore } from "../ledger";
import { beginEvent } from "../events";
import { bytesEq, isZero } from "../mem";
import { EV_TRANSFER } from "../abi";

/** `payer` is the sender's NTV balance entry, already looked up for the fee. */
export function execTransfer(user: usize, fields: usize, bundleIndex: u32, opIndex: u32, payer: usize): u32 {
  let to = fields;
  let token = fields + 32;
  let amtLo = load<u64>(fields, 64);
  let amtHi = load<u64>(fields, 72);
  if ((amtLo | amtHi) == 0) return S.ZERO_AMOUNT;
  if (!exists(tokenEntry(token))) return S.UNKNOWN_TOKEN;
  let from = isZero(token, 32) ? payer : balanceEntry(user, token); // NTV: the mint is 32 zero bytes
  balLoad(from);
  if (U.sub128(U.lo, U.hi, amtLo, amtHi)) return S.INSUFFICIENT_BALANCE;
  if (!bytesEq(to, user, 32)) {
    let rest0 = U.lo, rest1 = U.hi;
    let dst = balanceEntry(to, token);
    balLoad(dst);
    if (U.add128(U.lo, U.hi, amtLo, amtHi)) return S.AMOUNT_OVERFLOW;
    balStore(dst, U.lo, U.hi);
    balStore(from, rest0, rest1);
  }
  let d = beginEvent(bundleIndex, <u16>opIndex, EV_TRANSFER, 112);
  memory.copy(d, user, 32);
  memory.copy(d + 32, to, 32);
  memory.copy(d + 64, token, 32);
  memory.copy(d + 96, fields + 64, 16);
  return S.OK;
}
