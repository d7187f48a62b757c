// Multi-token collections (spec §4.4; docs/collections.md): CreateMultiTokenCollection (disc. 41, the
// shared createCollection of assembly/domains/collections/nfts.ts), DefineTokenType (42), MintMultiToken (43),
// TransferMultiToken (44), BurnMultiToken (45), BatchMintMultiToken (46) and
// BatchTransferMultiToken (47). ERC-1155-like: a collection holds token types (0x23), each with
// u128 balances per owner (0x24, deleted at zero like 0x02 balances, so the ledger helpers serve).
//
// Defining types and minting belong to the collection's owner (spec §5.7); transfers and burns move
// the user's own balance; the ERC-1155 `operator` is always the user. A single operation is applied
// as one entry of the batch code, so both check in the same order: the batch size
// (INVALID_BATCH), the recipient (ZERO_RECIPIENT), the collection (COLLECTION_NOT_FOUND → WRONG_COLLECTION_KIND →
// NOT_COLLECTION_OWNER), then each entry in order: ZERO_AMOUNT → TOKEN_TYPE_NOT_FOUND →
// NON_FUNGIBLE_SUPPLY → AMOUNT_OVERFLOW / MAX_SUPPLY_REACHED (mint) or INSUFFICIENT_BALANCE.
// A failing entry fails the operation; the bundle checkpoint reverts the entries before it (spec §7.5).

import * as S from "../../status";
import * as U from "../../u128";
import { readerInit, take, rBool, rU64, rVec, vecLen } from "../../borsh";
import { multiBalanceEntry, tokenTypeEntry } from "../../keys";
import { beginWrite, exists, setValue, valLen, valPtr } from "../../state";
import { balLoad, balStore, credit, debit } from "../../ledger";
import { emitMultiTransferBatch, emitMultiTransferSingle, emitTokenTypeDefined } from "../../events-gen";
import { bufNew, bufSetLen, bufLen, bufPtr, bufBytes, bufU8, bufU64, bufVec, bytesEq } from "../../mem";
import { ctxHeight } from "../../context";
import {
 NAME_MAX, URI_MAX, ZERO32, bumpCollection, colStatus, collectionOf, execCreateCollection,
} from "./nfts";
import { BATCH_ENTRY_BYTES, OP_BATCH_MINT_MULTI_TOKEN, OP_BATCH_TRANSFER_MULTI_TOKEN, OP_BURN_MULTI_TOKEN, OP_CREATE_MULTI_TOKEN_COLLECTION, OP_DEFINE_TOKEN_TYPE, OP_MINT_MULTI_TOKEN, OP_TRANSFER_MULTI_TOKEN,
  COLLECTION_KIND_MULTI_TOKEN,
  R_TOKEN_TYPE_BURNED, R_TOKEN_TYPE_IS_FUNGIBLE, R_TOKEN_TYPE_MAX_SUPPLY, R_TOKEN_TYPE_MINTED,
  R_COLLECTION_MINTED,
  OPF_BATCH_MINT_MULTI_TOKEN_ENTRIES_DATA, OPF_BATCH_MINT_MULTI_TOKEN_RECIPIENT, OPF_BURN_MULTI_TOKEN_AMOUNT, OPF_MINT_MULTI_TOKEN_AMOUNT, OPF_MINT_MULTI_TOKEN_RECIPIENT, OPF_MINT_MULTI_TOKEN_TYPE_ID,
} from "../../abi";
import { OPR_FIELDS, OPR_FIELDS_LEN, OPR_GAS_ENTRIES } from "../../decode-ops";

// TokenTypeRecord (docs/collections.md "State layout" 0x23): version u8, is_fungible u8, max_supply u128,
// minted u128, burned u128, created_height u64, then name and metadata_uri.
/** Entries per batch (docs/collections.md "Operations"). */
// @ts-ignore: decorator
@inline const MAX_BATCH: u32 = 16;

const rec = bufNew(512);
/** One entry (type_id u64, amount u128) for the single operations, laid out as a batch entry. */
const ENTRY = memory.data(24);

/** Whether `kind` is a multi-token operation 41–47. */
export function isMultiTokenOp(kind: u32): bool {
  return kind >= OP_CREATE_MULTI_TOKEN_COLLECTION && kind <= OP_BATCH_TRANSFER_MULTI_TOKEN;
}

export function execMultiToken(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (kind == OP_CREATE_MULTI_TOKEN_COLLECTION) return execCreateCollection(COLLECTION_KIND_MULTI_TOKEN, user, op, bundleIndex, opIndex);
  if (kind == OP_DEFINE_TOKEN_TYPE) return defineTokenType(user, op, bundleIndex, opIndex);
  let f = <usize>load<u32>(op, OPR_FIELDS);
  let col = f;
  if (kind == OP_BATCH_MINT_MULTI_TOKEN || kind == OP_BATCH_TRANSFER_MULTI_TOKEN) {
    // { collection, recipient / to, entries: Vec<(type_id u64, amount u128)> }
    let n = load<u32>(op, OPR_GAS_ENTRIES);
    if (n == 0 || n > MAX_BATCH) return S.INVALID_BATCH;
    let mint = kind == OP_BATCH_MINT_MULTI_TOKEN;
    let to = f + OPF_BATCH_MINT_MULTI_TOKEN_RECIPIENT; // BatchTransferMultiToken.to: the same offset
    // 32 zero bytes mark mints and burns in the events (ERC-1155 forbids them as a recipient too).
    if (bytesEq(to, ZERO32, 32)) return S.ZERO_RECIPIENT;
    let entries = f + OPF_BATCH_MINT_MULTI_TOKEN_ENTRIES_DATA; // and BatchTransferMultiToken.entries'
    let st = applyEntries(mint ? OP_MINT_MULTI_TOKEN : OP_TRANSFER_MULTI_TOKEN, user, col, to, entries, n);
    if (st != S.OK) return st;
    // MultiTransferBatch: collection operator from to, then the entries as given
    emitMultiTransferBatch(bundleIndex, <u16>opIndex, col, user, mint ? ZERO32 : user, to, entries, n);
    return S.OK;
  }
  // Mint/Transfer { collection, type_id, recipient / to, amount } and Burn { collection, type_id, amount }
  let burn = kind == OP_BURN_MULTI_TOKEN;
  let to = burn ? ZERO32 : f + OPF_MINT_MULTI_TOKEN_RECIPIENT; // TransferMultiToken.to: the same offset
  if (!burn && bytesEq(to, ZERO32, 32)) return S.ZERO_RECIPIENT;
  store<u64>(ENTRY, load<u64>(f, OPF_MINT_MULTI_TOKEN_TYPE_ID)); // type_id: the same offset in all three
  memory.copy(ENTRY + 8, burn ? f + OPF_BURN_MULTI_TOKEN_AMOUNT : f + OPF_MINT_MULTI_TOKEN_AMOUNT, 16); // TransferMultiToken.amount: as MintMultiToken's
  let st = applyEntries(kind, user, col, to, ENTRY, 1);
  if (st != S.OK) return st;
  // MultiTransferSingle: collection operator from to, then ENTRY's type_id u64 and amount u128
  emitMultiTransferSingle(bundleIndex, <u16>opIndex, col, user, kind == OP_MINT_MULTI_TOKEN ? ZERO32 : user, to,
    load<u64>(ENTRY), load<u64>(ENTRY, 8), load<u64>(ENTRY, 16));
  return S.OK;
}

/**
 * DefineTokenType { collection, type_id, name, metadata_uri, max_supply u128, is_fungible }:
 * INVALID_COLLECTION_FIELD → NON_FUNGIBLE_SUPPLY (a non-fungible type's max_supply must be 0 or 1,
 * stored as 1) → collection (owner only) → TOKEN_TYPE_EXISTS. The collection's `minted` counts types.
 */
function defineTokenType(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  readerInit(<usize>load<u32>(op, OPR_FIELDS), load<u32>(op, OPR_FIELDS_LEN));
  let col = take(32);
  let id = rU64();
  let name = rVec();
  let nameLen = vecLen;
  let uri = rVec();
  let uriLen = vecLen;
  let max = take(16);
  let fungible = rBool();
  if (nameLen == 0 || nameLen > NAME_MAX || uriLen > URI_MAX) return S.INVALID_COLLECTION_FIELD;
  let maxLo = load<u64>(max), maxHi = load<u64>(max, 8);
  if (!fungible) {
    if (maxHi != 0 || maxLo > 1) return S.NON_FUNGIBLE_SUPPLY;
    maxLo = 1;
  }
  let ce = collectionOf(col, COLLECTION_KIND_MULTI_TOKEN, user, true);
  if (ce == 0) return colStatus;
  let te = tokenTypeEntry(col, id);
  if (exists(te)) return S.TOKEN_TYPE_EXISTS;
  if (!bumpCollection(ce, R_COLLECTION_MINTED)) return S.AMOUNT_OVERFLOW; // 2^64 − 1 types: the id space
  bufSetLen(rec, 0);
  bufU8(rec, 1); // version
  bufU8(rec, fungible ? 1 : 0);
  bufU64(rec, maxLo);
  bufU64(rec, maxHi);
  bufBytes(rec, ZERO32, 32); // minted, burned
  bufU64(rec, ctxHeight);
  bufVec(rec, name, nameLen);
  bufVec(rec, uri, uriLen);
  setValue(te, bufPtr(rec), bufLen(rec));
  // TokenTypeDefined: collection[32] type_id u64 max_supply u128 (as stored) is_fungible u8 (57 bytes)
  emitTokenTypeDefined(bundleIndex, <u16>opIndex, col, id, maxLo, maxHi, fungible ? 1 : 0);

  return S.OK;
}

/**
 * Apply n entries (type_id u64, amount u128) in order, after the collection check, as `mode` (the
 * single operation's discriminant, 43–45): mints to `to` (owner only), or moves from the user to
 * `to`, or burns from the user. A type may appear more than once; each entry reads the records as
 * the entries before it left them.
 */
function applyEntries(mode: u32, user: usize, col: usize, to: usize, entries: usize, n: u32): u32 {
  let ce = collectionOf(col, COLLECTION_KIND_MULTI_TOKEN, user, mode == OP_MINT_MULTI_TOKEN);
  if (ce == 0) return colStatus;
  for (let i: u32 = 0; i < n; i++) {
    let p = entries + <usize>i * BATCH_ENTRY_BYTES;
    let id = load<u64>(p);
    let lo = load<u64>(p, 8), hi = load<u64>(p, 16);
    if ((lo | hi) == 0) return S.ZERO_AMOUNT;
    let te = tokenTypeEntry(col, id);
    if (!exists(te)) return S.TOKEN_TYPE_NOT_FOUND;
    // A non-fungible type moves exactly one unit at a time (docs/collections.md "Rules").
    if (load<u8>(valPtr(te) + R_TOKEN_TYPE_IS_FUNGIBLE) == 0 && (hi != 0 || lo != 1)) return S.NON_FUNGIBLE_SUPPLY;
    let st = mode == OP_MINT_MULTI_TOKEN ? mintUnits(te, col, id, to, lo, hi)
      : mode == OP_TRANSFER_MULTI_TOKEN ? moveUnits(col, id, user, to, lo, hi)
      : burnUnits(te, col, id, user, lo, hi);
    if (st != S.OK) return st;
  }
  return S.OK;
}

/** Mint: minted + amount checked (AMOUNT_OVERFLOW), within a non-zero max_supply (MAX_SUPPLY_REACHED). */
function mintUnits(te: usize, col: usize, id: u64, to: usize, lo: u64, hi: u64): u32 {
  let t = valPtr(te);
  if (U.add128(load<u64>(t + R_TOKEN_TYPE_MINTED), load<u64>(t + R_TOKEN_TYPE_MINTED, 8), lo, hi)) return S.AMOUNT_OVERFLOW;
  let mLo = U.lo, mHi = U.hi;
  let maxLo = load<u64>(t + R_TOKEN_TYPE_MAX_SUPPLY), maxHi = load<u64>(t + R_TOKEN_TYPE_MAX_SUPPLY, 8);
  if ((maxLo | maxHi) != 0 && U.lt128(maxLo, maxHi, mLo, mHi)) return S.MAX_SUPPLY_REACHED;
  storeU128(te, R_TOKEN_TYPE_MINTED, mLo, mHi);
  // The balance cannot pass minted (≤ u128::MAX): credit's overflow check never fires.
  if (!credit(multiBalanceEntry(col, id, to), lo, hi)) return S.AMOUNT_OVERFLOW;
  return S.OK;
}

/** Transfer from the user: INSUFFICIENT_BALANCE; to oneself nothing changes (docs/collections.md "Rules"). */
function moveUnits(col: usize, id: u64, user: usize, to: usize, lo: u64, hi: u64): u32 {
  let from = multiBalanceEntry(col, id, user);
  balLoad(from);
  if (U.sub128(U.lo, U.hi, lo, hi)) return S.INSUFFICIENT_BALANCE;
  if (bytesEq(to, user, 32)) return S.OK;
  let rLo = U.lo, rHi = U.hi;
  if (!credit(multiBalanceEntry(col, id, to), lo, hi)) return S.AMOUNT_OVERFLOW;
  balStore(from, rLo, rHi);
  return S.OK;
}

/** Burn from the user: INSUFFICIENT_BALANCE, then burned += amount (never past minted). */
function burnUnits(te: usize, col: usize, id: u64, user: usize, lo: u64, hi: u64): u32 {
  if (!debit(multiBalanceEntry(col, id, user), lo, hi)) return S.INSUFFICIENT_BALANCE;
  let t = valPtr(te);
  if (U.add128(load<u64>(t + R_TOKEN_TYPE_BURNED), load<u64>(t + R_TOKEN_TYPE_BURNED, 8), lo, hi)) return S.AMOUNT_OVERFLOW;
  storeU128(te, R_TOKEN_TYPE_BURNED, U.lo, U.hi);
  return S.OK;
}

/** Write a u128 at `off` of a record in place (same length: the bytes stay, the journal keeps the old copy). */
function storeU128(e: usize, off: usize, lo: u64, hi: u64): void {
  let w = beginWrite(e, <u32>valLen(e)) + off;
  store<u64>(w, lo);
  store<u64>(w, hi, 8);
}
