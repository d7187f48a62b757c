// CreateToken (bundle-format disc. 33; docs/core-abi.md "Rules", spec §1.7, §2.1):
// name 1–64 bytes, symbol 1–16 of [A-Za-z0-9], decimals ≤ 18, supply > 0, symbol neither reserved
// nor taken (case-insensitive); the mint is Blake3("std7-mint" ‖ creator ‖ UPPER(symbol) ‖
// timestamp u64 ‖ nonce u64); the whole supply is credited to `owner`.

import * as S from "../status";
import { balanceEntry, reservedEntry, symbolEntry, tokenEntry, tokenMetaEntry, upperInto } from "../keys";
import { exists, setValue, valLen, valPtr } from "../state";
import { credit, tokenFlagsOffset, tokenSymbolEnd } from "../ledger";
import { emitTokenCreated, emitTokenMetadataLocked, emitTokenMetadataUpdated } from "../events-gen";
import { bytesEq } from "../mem";
import { blake3 } from "../blake3";
import { bufNew, bufSetLen, bufU8, bufU32, bufU64, bufBytes, bufPtr, bufLen } from "../mem";
import { ctxHeight, ctxTimestamp } from "../context";
import { TOKEN_FLAG_METADATA_MUTABLE, TOKEN_KIND_STD7, R_TOKEN_CREATOR_AFTER_SYMBOL, R_TOKEN_METADATA_METADATA_URI } from "../abi";
import { OPR_CREATE_TOKEN_NAME, OPR_CREATE_TOKEN_NAME_LEN, OPR_CREATE_TOKEN_SYMBOL, OPR_CREATE_TOKEN_SYMBOL_LEN, OPR_CREATE_TOKEN_DECIMALS, OPR_CREATE_TOKEN_SUPPLY, OPR_CREATE_TOKEN_OWNER, OPR_UPDATE_TOKEN_METADATA_MINT, OPR_UPDATE_TOKEN_METADATA_OPTIONS, OPR_FIELDS } from "../decode-ops";

const MINT = memory.data(32);
const PRE = memory.data(9 + 32 + 16 + 16);
const rec = bufNew(512);


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
  let name = <usize>load<u32>(op, OPR_CREATE_TOKEN_NAME);
  let nameLen = load<u32>(op, OPR_CREATE_TOKEN_NAME_LEN);
  let sym = <usize>load<u32>(op, OPR_CREATE_TOKEN_SYMBOL);
  let symLen = load<u32>(op, OPR_CREATE_TOKEN_SYMBOL_LEN);
  let decimals = <u8>load<u32>(op, OPR_CREATE_TOKEN_DECIMALS);
  let supply = <usize>load<u32>(op, OPR_CREATE_TOKEN_SUPPLY);
  let owner = <usize>load<u32>(op, OPR_CREATE_TOKEN_OWNER);
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
                    TOKEN_KIND_STD7, TOKEN_FLAG_METADATA_MUTABLE, 0, 0, 0, 0);
  setValue(tokE, bufPtr(rec), bufLen(rec));
  setValue(symE, MINT, 32);
  if (!credit(balanceEntry(owner, MINT), sLo, sHi)) return S.AMOUNT_OVERFLOW;
  emitTokenCreated(bundleIndex, <u16>opIndex, MINT, user, owner, load<u64>(supply), load<u64>(supply, 8));
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

// ---- Token metadata (spec §2.3, §4.1; docs/core-abi.md "Token metadata") ------------------------
// UpdateTokenMetadata (disc. 34) and LockTokenMetadata (disc. 35): creator only (spec §7 item 7),
// the token must still be mutable (TokenRecord.flags bit 0); locking clears the bit, one way.
// The eight optional fields live in a 0x09 record beside the token record, so the TokenRecord
// layout (and every existing state root) is unchanged.

/** Number of metadata fields: metadata_uri, image, description, external_url, twitter, discord, telegram, github. */
// @ts-ignore: decorator
@inline export const META_FIELDS: u32 = 8;
/** Byte limits per field, in field order (docs/dex.md "Token metadata"). */
const META_MAX = memory.data<u32>([256, 256, 1024, 256, 128, 128, 128, 128]);
const metaRec = bufNew(4096);
const META_PTR = memory.data(8 * 4);
const META_LEN = memory.data(8 * 4);
const lockRec = bufNew(512);

/** Offset of `creator` in a TokenRecord (after the variable-length name and symbol). */
function creatorOffset(rec: usize): usize {
  return tokenSymbolEnd(rec) + R_TOKEN_CREATOR_AFTER_SYMBOL;
}

/** Common checks: UNKNOWN_TOKEN → NOT_TOKEN_CREATOR → METADATA_LOCKED. Returns the token entry or a status via metaStatus. */
let metaStatus: u32 = 0;
function mutableTokenOf(user: usize, mint: usize): usize {
  let tokE = tokenEntry(mint);
  if (!exists(tokE)) { metaStatus = S.UNKNOWN_TOKEN; return 0; }
  let rec = valPtr(tokE);
  let co = creatorOffset(rec);
  if (!bytesEq(rec + co, user, 32)) { metaStatus = S.NOT_TOKEN_CREATOR; return 0; }
  let flags = load<u8>(rec + tokenFlagsOffset(rec));
  if ((flags & TOKEN_FLAG_METADATA_MUTABLE) == 0) { metaStatus = S.METADATA_LOCKED; return 0; }
  metaStatus = S.OK;
  return tokE;
}

/** UpdateTokenMetadata { mint[32], 8 × Option<String> } — a None keeps the field, Some("") clears it. */
export function execUpdateTokenMetadata(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let mint = <usize>load<u32>(op, OPR_UPDATE_TOKEN_METADATA_MINT);
  let p = <usize>load<u32>(op, OPR_UPDATE_TOKEN_METADATA_OPTIONS); // the options, already checked by the decoder
  let tokE = mutableTokenOf(user, mint);
  if (tokE == 0) return metaStatus;
  // Current values (empty when no record yet).
  let me = tokenMetaEntry(mint);
  let q: usize = exists(me) ? valPtr(me) + R_TOKEN_METADATA_METADATA_URI : 0;
  let mask: u32 = 0;
  for (let i: u32 = 0; i < META_FIELDS; i++) {
    let oldLen: u32 = q != 0 ? load<u32>(q) : 0;
    let oldPtr: usize = q != 0 ? q + 4 : 0;
    if (q != 0) q += 4 + <usize>oldLen;
    let tag = load<u8>(p);
    p += 1;
    if (tag == 1) {
      let n = load<u32>(p);
      if (n > load<u32>(META_MAX + (<usize>i << 2))) return S.INVALID_METADATA;
      store<u32>(META_PTR + (<usize>i << 2), <u32>(p + 4));
      store<u32>(META_LEN + (<usize>i << 2), n);
      p += 4 + <usize>n;
      mask |= 1 << i;
    } else {
      store<u32>(META_PTR + (<usize>i << 2), <u32>oldPtr);
      store<u32>(META_LEN + (<usize>i << 2), oldLen);
    }
  }
  bufSetLen(metaRec, 0);
  bufU8(metaRec, 1); // version
  for (let i: u32 = 0; i < META_FIELDS; i++) {
    let n = load<u32>(META_LEN + (<usize>i << 2));
    bufU32(metaRec, n);
    bufBytes(metaRec, <usize>load<u32>(META_PTR + (<usize>i << 2)), n);
  }
  setValue(me, bufPtr(metaRec), bufLen(metaRec));
  // TokenMetadataUpdated: mint creator fields_set (bit i = field i was given) (65 bytes)
  emitTokenMetadataUpdated(bundleIndex, <u16>opIndex, mint, user, <u8>mask);
  return S.OK;
}

/** LockTokenMetadata { mint[32] }: clears TokenRecord.flags bit 0 for good. */
export function execLockTokenMetadata(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let mint = <usize>load<u32>(op, OPR_FIELDS);
  let tokE = mutableTokenOf(user, mint);
  if (tokE == 0) return metaStatus;
  let n = <u32>valLen(tokE);
  bufSetLen(lockRec, 0);
  bufBytes(lockRec, valPtr(tokE), n);
  let rec = bufPtr(lockRec);
  let fo = tokenFlagsOffset(rec);
  store<u8>(rec + fo, load<u8>(rec + fo) & ~TOKEN_FLAG_METADATA_MUTABLE);
  setValue(tokE, rec, n);
  emitTokenMetadataLocked(bundleIndex, <u16>opIndex, mint, user);

  return S.OK;
}
