// NFT collections (spec §4.3; docs/collections.md): CreateNftCollection (disc. 37), MintNft (38),
// TransferNft (39), BurnNft (40), and the collection record (0x20) that multi-token collections
// (spec §4.4, assembly/domains/collections/multitokens.ts) share: both kinds are created by createCollection and
// loaded by collectionOf, so an operation on the wrong kind fails the same way everywhere.
//
// The bundle's user acts in every operation: minting belongs to the collection's owner (spec §5.7),
// transfers and burns to the token's holder; there are no approvals. Each token id has one owner
// (0x21) and each owner a count per collection (0x22, ERC-721 balanceOf). A failed check returns its
// status and the bundle checkpoint reverts whatever the operation wrote (spec §7.5).
//
// Order of checks: the operation's own fields (lengths, royalty), then the collection
// (COLLECTION_NOT_FOUND → WRONG_COLLECTION_KIND → NOT_COLLECTION_OWNER), then the token.

import * as S from "../../status";
import { bNonce } from "../../bundle";
import { readerInit, take, rU16, rU64, rVec, vecLen } from "../../borsh";
import { collectionEntry, nftCountEntry, nftEntry } from "../../keys";
import { beginWrite, deleteValue, exists, setValue, valLen, valPtr } from "../../state";
import { emitCollectionCreated, emitNftTransfer } from "../../events-gen";
import { blake3 } from "../../blake3";
import { bufNew, bufSetLen, bufLen, bufPtr, bufBytes, bufU8, bufU16, bufU64, bufVec, bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp } from "../../context";
import { validSymbol } from "../../ops/token";
import { COLLECTION_KIND_NFT, OP_BURN_NFT, OP_MINT_NFT, OP_TRANSFER_NFT, R_COLLECTION_BURNED, R_COLLECTION_KIND, R_COLLECTION_MAX_SUPPLY, R_COLLECTION_MINTED, R_COLLECTION_OWNER, R_NFT_OWNER, OPF_TRANSFER_NFT_TO, OPF_TRANSFER_NFT_TOKEN_ID } from "../../abi";
import { OPR_FIELDS, OPR_FIELDS_LEN } from "../../decode-ops";

// CollectionRecord (docs/collections.md "State layout" 0x20): fixed fields, then seven Borsh strings.

// NftRecord (0x21): version u8, owner[32], minted_height u64, minted_time u64, metadata_uri.

/** Field limits in bytes (docs/collections.md "Operations"). */
// @ts-ignore: decorator
@inline export const NAME_MAX: u32 = 64;
// @ts-ignore: decorator
@inline export const URI_MAX: u32 = 256;
// @ts-ignore: decorator
@inline const MAX_ROYALTY_BPS: u16 = 10000;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;
/** The seven strings of a collection, in op and record order: name, symbol, base_uri, description, icon_uri, banner_uri, external_url. */
// @ts-ignore: decorator
@inline const COLLECTION_STRINGS: u32 = 7;
const STR_MAX = memory.data<u32>([NAME_MAX, 16, URI_MAX, 1024, URI_MAX, URI_MAX, URI_MAX]);
const STR_PTR = memory.data(7 * 4);
const STR_LEN = memory.data(7 * 4);

/** 32 zero bytes: `from` of a mint and `to` of a burn in transfer events. */
export const ZERO32 = memory.data(32);
/** The address of the collection being created. */
const COLLECTION = memory.data(32);
/** "ntv/collection" (14 ASCII bytes): the collection address domain. */
const DOMAIN = memory.data<u8>([0x6e, 0x74, 0x76, 0x2f, 0x63, 0x6f, 0x6c, 0x6c, 0x65, 0x63, 0x74, 0x69, 0x6f, 0x6e]);
const PRE = memory.data(14 + 32 + 8 + 2);
const rec = bufNew(2048);

/** Whether `kind` is an NFT operation 38–40 (creation, 37, goes to execCreateCollection). */
export function isNftOp(kind: u32): bool {
  return kind >= OP_MINT_NFT && kind <= OP_BURN_NFT;
}

/**
 * CreateNftCollection (37) / CreateMultiTokenCollection (41): INVALID_COLLECTION_FIELD or
 * INVALID_ROYALTY in field order, then the 0x20 record at
 * Blake3("ntv/collection" ‖ user ‖ nonce u64 LE ‖ op_index u16 LE) and CollectionCreated.
 * The address is unique by construction (an account's nonce is used once), so it is not looked up
 * for a clash.
 */
export function execCreateCollection(kind: u8, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  readerInit(<usize>load<u32>(op, OPR_FIELDS), load<u32>(op, OPR_FIELDS_LEN)); // shape checked by decodeBundle
  readStrings(0, 3);
  let maxSupply: u64 = kind == COLLECTION_KIND_NFT ? rU64() : 0;
  let royalty = rU16();
  let owner = take(32);
  readStrings(3, COLLECTION_STRINGS);
  if (!stringsValid(0, 3)) return S.INVALID_COLLECTION_FIELD;
  if (royalty > MAX_ROYALTY_BPS) return S.INVALID_ROYALTY;
  if (!stringsValid(3, COLLECTION_STRINGS)) return S.INVALID_COLLECTION_FIELD;
  memory.copy(PRE, DOMAIN, 14);
  memory.copy(PRE + 14, user, 32);
  store<u64>(PRE + 46, bNonce);
  store<u16>(PRE + 54, <u16>opIndex);
  blake3(PRE, 56, COLLECTION);
  bufSetLen(rec, 0);
  bufU8(rec, RECORD_VERSION);
  bufU8(rec, kind);
  bufBytes(rec, owner, 32);
  bufBytes(rec, user, 32); // creator
  bufU16(rec, royalty);
  bufU64(rec, maxSupply);
  bufU64(rec, 0); // minted
  bufU64(rec, 0); // burned
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  for (let i: u32 = 0; i < COLLECTION_STRINGS; i++) {
    bufVec(rec, <usize>load<u32>(STR_PTR + (<usize>i << 2)), load<u32>(STR_LEN + (<usize>i << 2)));
  }
  setValue(collectionEntry(COLLECTION), bufPtr(rec), bufLen(rec));
  // CollectionCreated: collection[32] kind u8 owner[32] creator[32] (97 bytes)
  emitCollectionCreated(bundleIndex, <u16>opIndex, COLLECTION, kind, owner, user);
  return S.OK;
}

/** Read strings [from, to) of a collection's seven into STR_PTR/STR_LEN. */
function readStrings(from: u32, to: u32): void {
  for (let i = from; i < to; i++) {
    store<u32>(STR_PTR + (<usize>i << 2), <u32>rVec());
    store<u32>(STR_LEN + (<usize>i << 2), vecLen);
  }
}

/** Strings [from, to) within their limits: name and symbol non-empty, the symbol of [A-Za-z0-9]. */
function stringsValid(from: u32, to: u32): bool {
  for (let i = from; i < to; i++) {
    let n = load<u32>(STR_LEN + (<usize>i << 2));
    if (n > load<u32>(STR_MAX + (<usize>i << 2))) return false;
    if (i == 0 && n == 0) return false;
    if (i == 1 && !validSymbol(<usize>load<u32>(STR_PTR + 4), n)) return false;
  }
  return true;
}

/** Status of the last collectionOf that returned 0. */
export let colStatus: u32 = 0;

/**
 * The 0x20 entry of `collection` if it exists and is of `kind`, and (when `ownerOnly`) the user is
 * its owner; else 0 with COLLECTION_NOT_FOUND → WRONG_COLLECTION_KIND → NOT_COLLECTION_OWNER in colStatus.
 */
export function collectionOf(collection: usize, kind: u8, user: usize, ownerOnly: bool): usize {
  let e = collectionEntry(collection);
  if (!exists(e)) { colStatus = S.COLLECTION_NOT_FOUND; return 0; }
  let p = valPtr(e);
  if (load<u8>(p + R_COLLECTION_KIND) != kind) { colStatus = S.WRONG_COLLECTION_KIND; return 0; }
  if (ownerOnly && !bytesEq(p + R_COLLECTION_OWNER, user, 32)) { colStatus = S.NOT_COLLECTION_OWNER; return 0; }
  return e;
}

/** Add one to the u64 counter at `off` of the collection record, in place; false at u64::MAX. */
export function bumpCollection(e: usize, off: usize): bool {
  let v = load<u64>(valPtr(e) + off);
  if (v == u64.MAX_VALUE) return false;
  store<u64>(beginWrite(e, <u32>valLen(e)) + off, v + 1);
  return true;
}

/** NFT operations 38–40 (the dispatcher routes 37 to execCreateCollection). */
export function execNft(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, OPR_FIELDS);
  if (kind == OP_MINT_NFT) return mintNft(user, f, load<u32>(op, OPR_FIELDS_LEN), bundleIndex, opIndex);
  // TransferNft { collection, token_id, to } and BurnNft { collection, token_id }: the holder only.
  let col = f;
  let id = load<u64>(f, OPF_TRANSFER_NFT_TOKEN_ID); // BurnNft.token_id: the same offset
  // The operation's own fields first: 32 zero bytes mark mints and burns (ERC-721 forbids them too).
  if (kind == OP_TRANSFER_NFT && bytesEq(f + OPF_TRANSFER_NFT_TO, ZERO32, 32)) return S.ZERO_RECIPIENT;
  let ce = collectionOf(col, COLLECTION_KIND_NFT, user, false);
  if (ce == 0) return colStatus;
  let ne = nftEntry(col, id);
  if (!exists(ne)) return S.NFT_NOT_FOUND;
  if (!bytesEq(valPtr(ne) + R_NFT_OWNER, user, 32)) return S.NOT_NFT_OWNER;
  let to = ZERO32;
  if (kind == OP_TRANSFER_NFT) {
    to = f + OPF_TRANSFER_NFT_TO;
    if (!bytesEq(to, user, 32)) { // to oneself: only the event (docs/collections.md "Rules")
      memory.copy(beginWrite(ne, <u32>valLen(ne)) + R_NFT_OWNER, to, 32);
      if (!countAdd(col, to, true) || !countAdd(col, user, false)) return S.AMOUNT_OVERFLOW;
    }
  } else {
    // A burn frees the id for a later mint, but not the max_supply slot (minted stays).
    deleteValue(ne);
    if (!bumpCollection(ce, R_COLLECTION_BURNED) || !countAdd(col, user, false)) return S.AMOUNT_OVERFLOW;
  }
  nftEvent(bundleIndex, opIndex, col, user, to, id);
  return S.OK;
}

/**
 * MintNft { collection, token_id, metadata_uri, recipient }: INVALID_COLLECTION_FIELD → ZERO_RECIPIENT → collection
 * (owner only) → NFT_EXISTS → MAX_SUPPLY_REACHED (max_supply caps the number ever minted).
 */
function mintNft(user: usize, f: usize, len: u32, bundleIndex: u32, opIndex: u32): u32 {
  readerInit(f, len);
  let col = take(32);
  let id = rU64();
  let uri = rVec();
  let uriLen = vecLen;
  let to = take(32);
  if (uriLen > URI_MAX) return S.INVALID_COLLECTION_FIELD;
  if (bytesEq(to, ZERO32, 32)) return S.ZERO_RECIPIENT;
  let ce = collectionOf(col, COLLECTION_KIND_NFT, user, true);
  if (ce == 0) return colStatus;
  let ne = nftEntry(col, id);
  if (exists(ne)) return S.NFT_EXISTS;
  let c = valPtr(ce);
  let max = load<u64>(c + R_COLLECTION_MAX_SUPPLY);
  if (max != 0 && load<u64>(c + R_COLLECTION_MINTED) >= max) return S.MAX_SUPPLY_REACHED;
  if (!bumpCollection(ce, R_COLLECTION_MINTED)) return S.MAX_SUPPLY_REACHED; // 2^64 − 1 mints: the id space's own cap
  bufSetLen(rec, 0);
  bufU8(rec, RECORD_VERSION);
  bufBytes(rec, to, 32);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufVec(rec, uri, uriLen);
  setValue(ne, bufPtr(rec), bufLen(rec));
  if (!countAdd(col, to, true)) return S.AMOUNT_OVERFLOW;
  nftEvent(bundleIndex, opIndex, col, ZERO32, to, id);
  return S.OK;
}

/** Add or remove one NFT from the 0x22 count of `owner` (deleted at zero); false on over/underflow. */
function countAdd(col: usize, owner: usize, up: bool): bool {
  let e = nftCountEntry(col, owner);
  let n: u64 = valLen(e) == 8 ? load<u64>(valPtr(e)) : 0;
  if (up ? n == u64.MAX_VALUE : n == 0) return false;
  n = up ? n + 1 : n - 1;
  if (n == 0) deleteValue(e);
  else store<u64>(beginWrite(e, 8), n);
  return true;
}

/** NftTransfer: collection[32] from[32] to[32] token_id u64 (104 bytes). */
function nftEvent(bundleIndex: u32, opIndex: u32, col: usize, from: usize, to: usize, id: u64): void {
  emitNftTransfer(bundleIndex, <u16>opIndex, col, from, to, id);

}
