// CreateToken (bundle-format disc. 33; docs/core-abi.md "Rules", spec §1.7, §2.1):
// name 1–64 bytes, symbol 1–16 of [A-Za-z0-9], decimals ≤ 18, supply > 0, symbol neither reserved
// nor taken (case-insensitive); the mint is Blake3("std7-mint" ‖ creator ‖ UPPER(symbol) ‖
// timestamp u64 ‖ nonce u64); the whole supply is credited to `owner`.

import * as S from "../status";
import { balanceEntry, reservedEntry, symbolEntry, tokenEntry, upperInto } from "../keys";
import { exists, setValue } from "../state";
import { credit } from "../ledger";
import { beginEvent, EV_TOKEN_CREATED } from "../events";
import { blake3 } from "../blake3";
import { bufNew, bufSetLen, bufU8, bufU32, bufU64, bufBytes, bufPtr, bufLen } from "../mem";
import { ctxHeight, ctxTimestamp } from "../context";

const MINT = memory.data(32);
const PRE = memory.data(9 + 32 + 16 + 16);
const rec = bufNew(512);

// @ts-ignore: decorator
@inline const KIND_STD7: u8 = 1;
// @ts-ignore: decorator
@inline const FLAG_METADATA_MUTABLE: u8 = 1; // spec §5.7: metadata updates are creator only

export function validSymbol(p: usize, n: u32): bool {
  if (n == 0 || n > 16) return false;
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(p + i);
    let ok = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!ok) return false;
  }
  return true;
}

/** Encode a TokenRecord into the `rec` buffer (docs/core-abi.md TokenRecord). */
export function encodeTokenRecord(h: usize, name: usize, nameLen: u32, sym: usize, symLen: u32, decimals: u8,
                                  supply: usize, creator: usize, owner: usize, createdAt: u64, height: u64,
                                  kind: u8, flags: u8, oc: usize, ocLen: u32, ok: usize, okLen: u32): void {
  bufSetLen(h, 0);
  bufU8(h, 1); // version
  bufU32(h, nameLen);
  bufBytes(h, name, nameLen);
  bufU32(h, symLen);
  bufBytes(h, sym, symLen);
  bufU8(h, decimals);
  bufBytes(h, supply, 16); // total_supply
  bufBytes(h, supply, 16); // initial_supply
  bufBytes(h, creator, 32);
  bufBytes(h, owner, 32);
  bufU64(h, createdAt);
  bufU64(h, height);
  bufU8(h, kind);
  bufU8(h, flags);
  bufU32(h, ocLen);
  bufBytes(h, oc, ocLen);
  bufU32(h, okLen);
  bufBytes(h, ok, okLen);
}

export function execCreateToken(user: usize, op: usize, nonce: u64, bundleIndex: u32, opIndex: u32): u32 {
  let name = <usize>load<u32>(op, 4);
  let nameLen = load<u32>(op, 8);
  let sym = <usize>load<u32>(op, 12);
  let symLen = load<u32>(op, 16);
  let decimals = <u8>load<u32>(op, 20);
  let supply = <usize>load<u32>(op, 24);
  let owner = <usize>load<u32>(op, 28);
  if (nameLen == 0 || nameLen > 64) return S.INVALID_NAME;
  if (!validSymbol(sym, symLen)) return S.INVALID_SYMBOL;
  if (decimals > 18) return S.INVALID_DECIMALS;
  let sLo = load<u64>(supply, 0), sHi = load<u64>(supply, 8);
  if ((sLo | sHi) == 0) return S.ZERO_SUPPLY;
  if (exists(reservedEntry(sym, symLen))) return S.SYMBOL_RESERVED;
  let symE = symbolEntry(sym, symLen);
  if (exists(symE)) return S.SYMBOL_TAKEN;
  // spec §1.7: custom mints include a timestamp component.
  writeMintPrefix(PRE);
  memory.copy(PRE + 9, user, 32);
  upperInto(PRE + 41, sym, symLen);
  store<u64>(PRE + 41 + symLen, ctxTimestamp);
  store<u64>(PRE + 49 + symLen, nonce);
  blake3(PRE, 57 + symLen, MINT);
  let tokE = tokenEntry(MINT);
  if (exists(tokE)) return S.SYMBOL_TAKEN;
  encodeTokenRecord(rec, name, nameLen, sym, symLen, decimals, supply, user, owner, ctxTimestamp, ctxHeight,
                    KIND_STD7, FLAG_METADATA_MUTABLE, 0, 0, 0, 0);
  setValue(tokE, bufPtr(rec), bufLen(rec));
  setValue(symE, MINT, 32);
  if (!credit(balanceEntry(owner, MINT), sLo, sHi)) return S.AMOUNT_OVERFLOW;
  let d = beginEvent(bundleIndex, <u16>opIndex, EV_TOKEN_CREATED, 112);
  memory.copy(d, MINT, 32);
  memory.copy(d + 32, user, 32);
  memory.copy(d + 64, owner, 32);
  memory.copy(d + 96, supply, 16);
  return S.OK;
}

/** "std7-mint" (9 ASCII bytes). */
function writeMintPrefix(p: usize): void {
  store<u8>(p, 0x73); // s
  store<u8>(p + 1, 0x74); // t
  store<u8>(p + 2, 0x64); // d
  store<u8>(p + 3, 0x37); // 7
  store<u8>(p + 4, 0x2d); // -
  store<u8>(p + 5, 0x6d); // m
  store<u8>(p + 6, 0x69); // i
  store<u8>(p + 7, 0x6e); // n
  store<u8>(p + 8, 0x74); // t
}
