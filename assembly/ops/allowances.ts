// ERC-20 allowances (docs/allowances.md; bundle-format disc. 51 Approve, 52 TransferFrom).
//   Approve { token, spender, amount }: sets 0x0C owner‖token‖spender to amount (overwrites, as
//     ERC-20 approve does; 0 deletes the record) and emits Approval.
//   TransferFrom { token, from, to, amount }, sent by the spender: spends the allowance (2^128−1 is
//     infinite and never decremented, as OpenZeppelin treats type(uint256).max), then moves the
//     balance exactly as a Transfer from `from` would, and emits the ordinary Transfer event. The
//     allowance is checked before the balance, in OpenZeppelin's order (_spendAllowance, _transfer).
// NTV is refused in both (NATIVE_NOT_APPROVABLE): it pays every fee, so an allowance on it would let
// a spender empty the balance the owner's own bundles need, and it has no ERC-20 contract on the
// EVM side (docs/eth.md "Token addresses"). Any other token (STD-7, STD-8, bridge-canonical) works.

import * as S from "../status";
import * as U from "../u128";
import { allowanceEntry, balanceEntry, tokenEntry } from "../keys";
import { exists } from "../state";
import { balLoad, balStore } from "../ledger";
import { emitApproval } from "../events-gen";
import { isZero } from "../mem";
import { ctxAuth } from "../context";
import { moveBalance } from "./transfer";
import { AUTH_EVM, OPF_APPROVE_SPENDER, OPF_APPROVE_AMOUNT, OPF_TRANSFER_FROM_FROM, OPF_TRANSFER_FROM_TO, OPF_TRANSFER_FROM_AMOUNT } from "../abi";

const U64_MAX: u64 = 0xffffffffffffffff;

/** The token checks both operations share: not NTV, and known. */
function checkToken(token: usize): u32 {
  if (isZero(token, 32)) return S.NATIVE_NOT_APPROVABLE;
  if (!exists(tokenEntry(token))) return S.UNKNOWN_TOKEN;
  return S.OK;
}

/** Approve: fields token[32] spender[32] amount u128; the owner is the sender. */
export function execApprove(user: usize, fields: usize, bundleIndex: u32, opIndex: u32): u32 {
  let token = fields;
  let spender = fields + OPF_APPROVE_SPENDER;
  let st = checkToken(token);
  if (st != S.OK) return st;
  // The record is a u128 deleted at zero, like a balance (abi/state.mjs ALLOWANCE).
  balStore(allowanceEntry(user, token, spender), load<u64>(fields, OPF_APPROVE_AMOUNT), load<u64>(fields, OPF_APPROVE_AMOUNT + 8));
  emitApproval(bundleIndex, <u16>opIndex, user, spender, token, load<u64>(fields, OPF_APPROVE_AMOUNT), load<u64>(fields, OPF_APPROVE_AMOUNT + 8));

  return S.OK;
}

/** TransferFrom: fields token[32] from[32] to[32] amount u128; the spender is the sender. */
export function execTransferFrom(user: usize, fields: usize, bundleIndex: u32, opIndex: u32): u32 {
  let token = fields;
  let from = fields + OPF_TRANSFER_FROM_FROM;
  let to = fields + OPF_TRANSFER_FROM_TO;
  let amtLo = load<u64>(fields, OPF_TRANSFER_FROM_AMOUNT);
  let amtHi = load<u64>(fields, OPF_TRANSFER_FROM_AMOUNT + 8);
  // From an EVM transaction, Ethereum's rules (assembly/ops/transfer.ts): 0 succeeds, the zero
  // address is refused after the allowance, in OpenZeppelin's order (_spendAllowance, _transfer).
  let evm = ctxAuth == AUTH_EVM;
  if ((amtLo | amtHi) == 0 && !evm) return S.ZERO_AMOUNT;
  let st = checkToken(token);
  if (st != S.OK) return st;
  let allowance = allowanceEntry(from, token, user);
  balLoad(allowance);
  let infinite = U.lo == U64_MAX && U.hi == U64_MAX;
  if (U.sub128(U.lo, U.hi, amtLo, amtHi)) return S.INSUFFICIENT_ALLOWANCE;
  let leftLo = U.lo, leftHi = U.hi;
  if (evm && isZero(to, 32)) return S.TRANSFER_TO_ZERO_ADDRESS;
  st = moveBalance(balanceEntry(from, token), from, to, token, fields + OPF_TRANSFER_FROM_AMOUNT, bundleIndex, opIndex);
  if (st != S.OK) return st;
  if (!infinite) balStore(allowance, leftLo, leftHi);
  return S.OK;
}
