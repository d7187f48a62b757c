// Transfer (bundle-format disc. 0; docs/core-abi.md "Rules"): amount > 0, the token exists, the
// sender's balance covers the amount (the fee was already taken, so an NTV transfer also needs
// amount + fee); a transfer to oneself is allowed and changes only the fee and nonce.
// From an EVM transaction (auth 3) the Ethereum rules apply instead where wallets depend on them
// (docs/eth.md "EVM semantics", issue 42 item 2): an amount of 0 is a no-op that succeeds (a
// wallet cancels a pending transaction by a 0-value send to itself), and a token (not NTV) may not
// go to the zero address, as OpenZeppelin's ERC20 refuses it (TRANSFER_TO_ZERO_ADDRESS).

import * as S from "../status";
import * as U from "../u128";
import { balanceEntry, tokenEntry } from "../keys";
import { exists } from "../state";
import { balLoad, balStore, stableGuardMove } from "../ledger";
import { emitTransfer } from "../events-gen";
import { bytesEq, isZero } from "../mem";
import { AUTH_EVM, OPF_TRANSFER_TOKEN, OPF_TRANSFER_AMOUNT } from "../abi";

import { ctxAuth } from "../context";

/** `payer` is the sender's NTV balance entry, already looked up for the fee. */
export function execTransfer(user: usize, fields: usize, bundleIndex: u32, opIndex: u32, payer: usize): u32 {
  let to = fields;
  let token = fields + OPF_TRANSFER_TOKEN;
  let amtLo = load<u64>(fields, OPF_TRANSFER_AMOUNT);
  let amtHi = load<u64>(fields, OPF_TRANSFER_AMOUNT + 8);
  let evm = ctxAuth == AUTH_EVM;
  if ((amtLo | amtHi) == 0 && !evm) return S.ZERO_AMOUNT;
  if (!exists(tokenEntry(token))) return S.UNKNOWN_TOKEN;
  if (evm && !isZero(token, 32) && isZero(to, 32)) return S.TRANSFER_TO_ZERO_ADDRESS;
  let src = isZero(token, 32) ? payer : balanceEntry(user, token); // NTV: the mint is 32 zero bytes
  return moveBalance(src, user, to, token, fields + OPF_TRANSFER_AMOUNT, bundleIndex, opIndex);
}

/**
 * Move `amount` (u128 at `amount`) of `token` from `from`, whose balance entry is `src`, to `to`,
 * with its Transfer event: the one path by which a balance moves between accounts (Transfer,
 * TransferFrom), so a rule on token movements belongs here. The STD-8 rules first (TOKEN_PAUSED →
 * ADDRESS_BLACKLISTED, before any state change: assembly/ledger.ts), then INSUFFICIENT_BALANCE →
 * AMOUNT_OVERFLOW; to oneself or of 0 (an EVM transaction's, see above), nothing is written but
 * the event. Nothing is written on failure.
 */
export function moveBalance(src: usize, from: usize, to: usize, token: usize, amount: usize, bundleIndex: u32, opIndex: u32): u32 {
  let g = stableGuardMove(token, from, to);
  if (g != S.OK) return g;
  let amtLo = load<u64>(amount, 0);
  let amtHi = load<u64>(amount, 8);
  balLoad(src);
  if (U.sub128(U.lo, U.hi, amtLo, amtHi)) return S.INSUFFICIENT_BALANCE;
  if (!bytesEq(to, from, 32) && (amtLo | amtHi) != 0) {
    let rest0 = U.lo, rest1 = U.hi;
    let dst = balanceEntry(to, token);
    balLoad(dst);
    if (U.add128(U.lo, U.hi, amtLo, amtHi)) return S.AMOUNT_OVERFLOW;
    balStore(dst, U.lo, U.hi);
    balStore(src, rest0, rest1);
  }
  emitTransfer(bundleIndex, <u16>opIndex, from, to, token, amtLo, amtHi);
  return S.OK;
}
