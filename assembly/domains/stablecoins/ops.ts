// STD-8 stablecoins (spec §2.1, §2.2, §3, §4.16, §5.7, §5.9, §7 item 4, §8; docs/stablecoins.md;
// bundle-format discriminants 53–69). Circle's FiatToken roles (owner, master minter, pauser,
// blacklister, minter allowances) plus timelocked role changes and minter additions, guardians
// (immediate mint freeze, cancel), per-minter epoch limits, cosigned large mints, a supply cap only
// governance raises, and an optional ML-DSA-65-only minting requirement.
//
// The record (0x40 StableCoin, abi/state.mjs) is read into the working copy W, changed there and
// written back whole (it is only touched by these operations, never by a transfer). The movement
// rules (pause, blacklist) live in TokenRecord.flags and the 0x41 entries, which the shared
// movement paths check (assembly/ledger.ts stableGuard): `paused` is TokenRecord.flags bit 1.

import * as S from "../../status";
import * as U from "../../u128";
import { balanceEntry, reservedEntry, stableBlacklistEntry, stableBlacklistIndexEntry, stableEntry, stableOnboardingEntry, stableProfileEntry, symbolEntry, tokenEntry, upperInto } from "../../keys";
import { beginWrite, deleteValue, exists, setValue, valLen, valPtr } from "../../state";
import { credit, debit, guardRefusal, stableGuard, tokenFlagsOffset, tokenSupplyAdd, tokenSupplyOffset } from "../../ledger";
import { emitStableAdmin, emitStableCreated, emitStableIssuerProof, emitStableMinter, emitStablePending, emitTokenCreated, emitTransfer } from "../../events-gen";
import { bufEnsure, bufNew, bufBytes, bufLen, bufPtr, bufSetLen, bufU32, bufU8, bytesEq, isZero } from "../../mem";
import { blake3 } from "../../blake3";
import { validUtf8 } from "../../borsh";
import { ctxAuth, ctxHeight, ctxTimestamp, FOUNDATION, GOVERNANCE } from "../../context";
import { encodeTokenRecord, validSymbol } from "../../ops/token";
import {
  AUTH_ML_DSA_65,
  OP_CREATE_STABLE_TOKEN, OP_STABLE_APPROVE_MINT, OP_STABLE_BLACKLIST, OP_STABLE_BURN, OP_STABLE_CANCEL_PENDING,
  OP_STABLE_CONFIGURE_MINTER, OP_STABLE_CONFIGURE_SECURITY, OP_STABLE_EXECUTE_PENDING, OP_STABLE_FREEZE_MINT,
  OP_STABLE_HANDOVER, OP_STABLE_MINT, OP_STABLE_PAUSE, OP_STABLE_RAISE_SUPPLY_CAP, OP_STABLE_SET_GUARDIANS,
  OP_STABLE_TRANSFER_ROLE, OP_STABLE_UNFREEZE_MINT, OP_STABLE_VERIFY_ISSUER, OP_STABLE_ISSUER_PROOF,
  R_STABLE_BLACKLISTED, R_STABLE_BLACKLISTER, R_STABLE_CREATED_HEIGHT, R_STABLE_EPOCH_LENGTH, R_STABLE_FLAGS,
  R_STABLE_GUARDIANS, R_STABLE_MASTER_MINTER, R_STABLE_MINT_THRESHOLD, R_STABLE_NEXT_PENDING_ID, R_STABLE_OWNER,
  R_STABLE_PAUSER, R_STABLE_REQUIRED_SIGNERS, R_STABLE_SUPPLY_CAP, R_STABLE_TIMELOCK, R_STABLE_VERIFICATION,
  R_STABLE_VERSION, STD8_DEFAULT_EPOCH_LENGTH, STD8_DEFAULT_TIMELOCK, STD8_MAX_COSIGNERS, STD8_MAX_GUARDIANS,
  STD8_MAX_MINTERS, STD8_MAX_ORIGINS, STD8_MAX_PENDING, STD8_MAX_TIMELOCK, STD8_MIN_HANDOVER_DELAY,
  TOKEN_FLAG_BLACKLIST, TOKEN_FLAG_PAUSED,
  TOKEN_KIND_STD8,
  R_STABLE_ISSUER_PROOF_DETAIL, R_STABLE_MINTER_BYTES, R_STABLE_PENDING_A, R_STABLE_PENDING_AMOUNT, R_STABLE_PENDING_AMOUNT2, R_STABLE_PENDING_APPROVALS, R_STABLE_PENDING_B, R_STABLE_PENDING_BYTES, R_STABLE_PENDING_EFFECTIVE_HEIGHT, R_STABLE_PENDING_KIND, R_STABLE_PENDING_PROPOSER, R_STABLE_PENDING_ROLE,
  R_STABLE_ONBOARDING_PROOFS, R_STABLE_ONBOARDING_PROOFS_DATA,
  R_STABLE_MINTER_ALLOWANCE, R_STABLE_MINTER_EPOCH, R_STABLE_MINTER_EPOCH_LIMIT, R_STABLE_MINTER_MINTED_IN_EPOCH,
  R_STABLE_MINTER_MINTER,
  OPF_STABLE_APPROVE_MINT_PENDING_ID, OPF_STABLE_BLACKLIST_ACCOUNT, OPF_STABLE_BLACKLIST_ADD, OPF_STABLE_BURN_AMOUNT, OPF_STABLE_CANCEL_PENDING_PENDING_ID, OPF_STABLE_CONFIGURE_MINTER_ACTION, OPF_STABLE_CONFIGURE_MINTER_ALLOWANCE, OPF_STABLE_CONFIGURE_MINTER_EPOCH_LIMIT, OPF_STABLE_CONFIGURE_MINTER_MINTER, OPF_STABLE_EXECUTE_PENDING_PENDING_ID, OPF_STABLE_HANDOVER_NEW_OWNER, OPF_STABLE_MINT_AMOUNT, OPF_STABLE_MINT_TO, OPF_STABLE_PAUSE_PAUSE, OPF_STABLE_RAISE_SUPPLY_CAP_SUPPLY_CAP, OPF_STABLE_SET_GUARDIANS_GUARDIANS, OPF_STABLE_SET_GUARDIANS_GUARDIANS_DATA, OPF_STABLE_TRANSFER_ROLE_NEW_ADDRESS, OPF_STABLE_TRANSFER_ROLE_ROLE,
  OPF_STABLE_CONFIGURE_SECURITY_COSIGNERS, OPF_STABLE_CONFIGURE_SECURITY_COSIGNERS_DATA, OPF_STABLE_CONFIGURE_SECURITY_MINT_THRESHOLD, OPF_STABLE_CONFIGURE_SECURITY_QUANTUM_REQUIRED_AFTER_COSIGNERS, OPF_STABLE_CONFIGURE_SECURITY_REQUIRED_SIGNERS, OPF_STABLE_CONFIGURE_SECURITY_TIMELOCK,
  OPF_STABLE_ISSUER_PROOF_CHAIN_ID, OPF_STABLE_ISSUER_PROOF_DETAIL, OPF_STABLE_ISSUER_PROOF_DETAIL_DATA, OPF_STABLE_ISSUER_PROOF_METHOD, OPF_STABLE_ISSUER_PROOF_SUBJECT,
} from "../../abi";

// ---- the working copy W of a StableCoin record -------------------------------------------------
// HEAD: the record's fixed fields at their R_STABLE_* offsets; then the four lists with room for
// their maximum sizes. Minter entries: R_STABLE_MINTER_BYTES; pending entries: R_STABLE_PENDING_BYTES (abi/state.mjs).

// @ts-ignore: decorator
@inline const HEAD: usize = R_STABLE_GUARDIANS; // 204: the fixed part
// Pending entry field offsets.

// Pending kinds (StablePending.kind) and the StablePending event's outcome.
// The kinds are named in the ABI table (abi/constants.mjs STD8_PENDING_*).
import { STD8_PENDING_ROLE_CHANGE as PK_ROLE, STD8_PENDING_MINTER_ADDITION as PK_MINTER, STD8_PENDING_HANDOVER as PK_HANDOVER, STD8_PENDING_MINT as PK_MINT } from "../../abi";
import { OPR_FIELDS } from "../../decode-ops";
// @ts-ignore: decorator
@inline const OUT_QUEUED: u8 = 0;
// @ts-ignore: decorator
@inline const OUT_EXECUTED: u8 = 1;
// @ts-ignore: decorator
@inline const OUT_CANCELLED: u8 = 2;
// @ts-ignore: decorator
@inline const OUT_APPROVED: u8 = 3;

// StableAdmin event actions (docs/stablecoins.md "Events").
// @ts-ignore: decorator
@inline const A_PAUSE: u8 = 0;
// @ts-ignore: decorator
@inline const A_BLACKLIST: u8 = 1;
// @ts-ignore: decorator
@inline const A_FREEZE: u8 = 2;
// @ts-ignore: decorator
@inline const A_GUARDIANS: u8 = 3;
// @ts-ignore: decorator
@inline const A_SECURITY: u8 = 4;
// @ts-ignore: decorator
@inline const A_SUPPLY_CAP: u8 = 5;
// @ts-ignore: decorator
@inline const A_VERIFIED: u8 = 6;
// @ts-ignore: decorator
@inline const A_ROLE: u8 = 7;

// StableCoin.flags bits, and the verification status of spec §2.2.
// @ts-ignore: decorator
@inline const SF_MINT_FROZEN: u8 = 1;
// @ts-ignore: decorator
@inline const SF_QUANTUM: u8 = 2;
// @ts-ignore: decorator
@inline const V_VERIFIED: u8 = 1;
// @ts-ignore: decorator
@inline const V_ISSUER_HELD: u8 = 2;

const W = memory.data(<i32>HEAD);
const GUARD = memory.data(32 * 8);
const COSIG = memory.data(32 * 8);
const MINTERS = memory.data(88 * 16);
const PENDING = memory.data(211 * 16);
let nGuard: u32 = 0;
let nCosig: u32 = 0;
let nMinters: u32 = 0;
let nPending: u32 = 0;
let stableE: usize = 0; // the 0x40 entry W was read from
let tokE: usize = 0; // the token's 0x03 entry
const out = bufNew(4096);
const idx = bufNew(1024);
// @ts-ignore: decorator
@inline const INDEX_BYTES: u32 = 1024; // 256 × u32
const ZERO = memory.data(32);
const MINT = memory.data(32);
const PRE = memory.data(64 + 2 + 16);

/** UNKNOWN_TOKEN → NOT_STABLECOIN; reads the record into W. */
function loadStable(token: usize): u32 {
  tokE = tokenEntry(token);
  if (!exists(tokE)) return S.UNKNOWN_TOKEN;
  stableE = stableEntry(token);
  if (!exists(stableE)) return S.NOT_STABLECOIN;
  let p = valPtr(stableE);
  memory.copy(W, p, HEAD);
  p += HEAD;
  nGuard = load<u32>(p);
  memory.copy(GUARD, p + 4, <usize>nGuard << 5);
  p += 4 + (<usize>nGuard << 5);
  nCosig = load<u32>(p);
  memory.copy(COSIG, p + 4, <usize>nCosig << 5);
  p += 4 + (<usize>nCosig << 5);
  nMinters = load<u32>(p);
  memory.copy(MINTERS, p + 4, <usize>nMinters * R_STABLE_MINTER_BYTES);
  p += 4 + <usize>nMinters * R_STABLE_MINTER_BYTES;
  nPending = load<u32>(p);
  memory.copy(PENDING, p + 4, <usize>nPending * R_STABLE_PENDING_BYTES);
  return S.OK;
}

/** Write W back to the entry it came from (or to `e`). */
function storeStable(e: usize): void {
  bufSetLen(out, 0);
  bufBytes(out, W, <u32>HEAD);
  bufU32(out, nGuard);
  bufBytes(out, GUARD, nGuard << 5);
  bufU32(out, nCosig);
  bufBytes(out, COSIG, nCosig << 5);
  bufU32(out, nMinters);
  bufBytes(out, MINTERS, nMinters * <u32>R_STABLE_MINTER_BYTES);
  bufU32(out, nPending);
  bufBytes(out, PENDING, nPending * <u32>R_STABLE_PENDING_BYTES);
  setValue(e, bufPtr(out), bufLen(out));
}

function isIn(list: usize, n: u32, a: usize): i32 {
  for (let i: u32 = 0; i < n; i++) if (bytesEq(list + (<usize>i << 5), a, 32)) return <i32>i;
  return -1;
}
function isGuardian(a: usize): bool {
  return isIn(GUARD, nGuard, a) >= 0;
}
function role(off: usize): usize {
  return W + off;
}
function minterIndex(a: usize): i32 {
  for (let i: u32 = 0; i < nMinters; i++) if (bytesEq(MINTERS + <usize>i * R_STABLE_MINTER_BYTES, a, 32)) return <i32>i;
  return -1;
}
function pendingIndex(id: u64): i32 {
  for (let i: u32 = 0; i < nPending; i++) if (load<u64>(PENDING + <usize>i * R_STABLE_PENDING_BYTES) == id) return <i32>i;
  return -1;
}
function removeAt(base: usize, size: usize, n: u32, i: u32): void {
  let p = base + <usize>i * size;
  memory.copy(p, p + size, <usize>(n - i - 1) * size);
}

/** A list of n × 32-byte accounts (a `vec` field): 0 < n ≤ max, none zero, all distinct. */
function validAccounts(p: usize, len: u32, max: u32): bool {
  if (len % 32 != 0 || len / 32 > max) return false;
  let n = len / 32;
  for (let i: u32 = 0; i < n; i++) {
    let a = p + (<usize>i << 5);
    if (isZero(a, 32)) return false;
    for (let j: u32 = 0; j < i; j++) if (bytesEq(a, p + (<usize>j << 5), 32)) return false;
  }
  return true;
}

/** Queue a pending entry; returns its pointer (0 when the list is full), and emits StablePending. */
function queue(kind: u8, user: usize, effective: u64, token: usize, bundleIndex: u32, opIndex: u32): usize {
  if (nPending >= STD8_MAX_PENDING) return 0;
  let id = load<u64>(W, R_STABLE_NEXT_PENDING_ID);
  store<u64>(W, id + 1, R_STABLE_NEXT_PENDING_ID);
  let p = PENDING + <usize>nPending * R_STABLE_PENDING_BYTES;
  memory.fill(p, 0, R_STABLE_PENDING_BYTES);
  store<u64>(p, id);
  store<u8>(p + R_STABLE_PENDING_KIND, kind);
  store<u64>(p + R_STABLE_PENDING_EFFECTIVE_HEIGHT, effective);
  memory.copy(p + R_STABLE_PENDING_PROPOSER, user, 32);
  nPending++;
  pendingEvent(token, user, id, kind, OUT_QUEUED, effective, bundleIndex, opIndex);
  return p;
}

function pendingEvent(token: usize, by: usize, id: u64, kind: u8, outcome: u8, effective: u64, bundleIndex: u32, opIndex: u32): void {
  emitStablePending(bundleIndex, <u16>opIndex, token, by, id, kind, outcome, effective);
}

function adminEvent(token: usize, by: usize, subject: usize, action: u8, value: u8, bundleIndex: u32, opIndex: u32): void {
  emitStableAdmin(bundleIndex, <u16>opIndex, token, by, subject, action, value);
}

function minterEvent(token: usize, by: usize, minter: usize, action: u8, allowance: usize, limit: usize, bundleIndex: u32, opIndex: u32): void {
  emitStableMinter(bundleIndex, <u16>opIndex, token, by, minter, action, load<u64>(allowance), load<u64>(allowance, 8), load<u64>(limit), load<u64>(limit, 8));
}

/** A Transfer event (kind 0) of a mint (from zero) or burn (to zero); the bridge's too. */
export function transferEvent(from: usize, to: usize, token: usize, amount: usize, bundleIndex: u32, opIndex: u32): void {
  emitTransfer(bundleIndex, <u16>opIndex, from, to, token, load<u64>(amount), load<u64>(amount, 8));
}

/** Set or clear bits of TokenRecord.flags in place (same length). */
function setTokenFlag(bit: u8, on: bool): void {
  let n = <u32>valLen(tokE);
  let vp = valPtr(tokE);
  let fo = tokenFlagsOffset(vp);
  let old = load<u8>(vp + fo);
  let nf: u8 = on ? old | bit : old & ~bit;
  if (nf == old) return;
  let wp = beginWrite(tokE, n); // same length: the bytes stay in place, the journal keeps the old copy
  store<u8>(wp + fo, nf);
}

/** Offset of TokenRecord.total_supply in a record at vp. */
function supplyOffset(vp: usize): usize {
  return tokenSupplyOffset(vp);
}

/** Add (or subtract) `amount` to the token's total supply in place; false on overflow/underflow. */
function addSupply(lo: u64, hi: u64, sub: bool): bool {
  return tokenSupplyAdd(tokE, lo, hi, sub);
}

function totalSupplyLo(): u64 {
  let vp = valPtr(tokE);
  return load<u64>(vp + supplyOffset(vp));
}
function totalSupplyHi(): u64 {
  let vp = valPtr(tokE);
  return load<u64>(vp + supplyOffset(vp), 8);
}

// ---- dispatch ---------------------------------------------------------------------------------

export function isStableOp(kind: u32): bool {
  return kind >= OP_CREATE_STABLE_TOKEN && kind <= OP_STABLE_ISSUER_PROOF;
}

/** One STD-8 operation; `op` is its decoded record (assembly/bundle.ts: +4 fields, +8 their length). */
export function execStable(kind: u32, user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, OPR_FIELDS);
  if (kind == OP_CREATE_STABLE_TOKEN) return execCreate(user, f, bundleIndex, opIndex);
  let token = f;
  let st = loadStable(token);
  if (st != S.OK) return st;
  if (kind == OP_STABLE_MINT) st = execMint(user, token, f + OPF_STABLE_MINT_TO, f + OPF_STABLE_MINT_AMOUNT, bundleIndex, opIndex);
  else if (kind == OP_STABLE_BURN) return execBurn(user, token, f + OPF_STABLE_BURN_AMOUNT, bundleIndex, opIndex);
  else if (kind == OP_STABLE_PAUSE) return execPause(user, token, load<u8>(f, OPF_STABLE_PAUSE_PAUSE) != 0, bundleIndex, opIndex);
  else if (kind == OP_STABLE_BLACKLIST) return execBlacklist(user, token, f + OPF_STABLE_BLACKLIST_ACCOUNT, load<u8>(f, OPF_STABLE_BLACKLIST_ADD) != 0, bundleIndex, opIndex);
  else if (kind == OP_STABLE_TRANSFER_ROLE) st = execTransferRole(user, token, load<u8>(f, OPF_STABLE_TRANSFER_ROLE_ROLE), f + OPF_STABLE_TRANSFER_ROLE_NEW_ADDRESS, bundleIndex, opIndex);
  else if (kind == OP_STABLE_CONFIGURE_MINTER) st = execConfigureMinter(user, token, load<u8>(f, OPF_STABLE_CONFIGURE_MINTER_ACTION), f + OPF_STABLE_CONFIGURE_MINTER_MINTER, f + OPF_STABLE_CONFIGURE_MINTER_ALLOWANCE, f + OPF_STABLE_CONFIGURE_MINTER_EPOCH_LIMIT, bundleIndex, opIndex);
  else if (kind == OP_STABLE_HANDOVER) st = execHandover(user, token, f + OPF_STABLE_HANDOVER_NEW_OWNER, bundleIndex, opIndex);
  else if (kind == OP_STABLE_CANCEL_PENDING) st = execCancel(user, token, load<u64>(f, OPF_STABLE_CANCEL_PENDING_PENDING_ID), bundleIndex, opIndex);
  else if (kind == OP_STABLE_EXECUTE_PENDING) st = execExecute(user, token, load<u64>(f, OPF_STABLE_EXECUTE_PENDING_PENDING_ID), bundleIndex, opIndex);
  else if (kind == OP_STABLE_FREEZE_MINT) st = execFreeze(user, token, true, bundleIndex, opIndex);
  else if (kind == OP_STABLE_UNFREEZE_MINT) st = execFreeze(user, token, false, bundleIndex, opIndex);
  else if (kind == OP_STABLE_SET_GUARDIANS) st = execSetGuardians(user, token, f + OPF_STABLE_SET_GUARDIANS_GUARDIANS_DATA, load<u32>(f, OPF_STABLE_SET_GUARDIANS_GUARDIANS), bundleIndex, opIndex);
  else if (kind == OP_STABLE_CONFIGURE_SECURITY) st = execSecurity(user, token, f, bundleIndex, opIndex);
  else if (kind == OP_STABLE_APPROVE_MINT) st = execApproveMint(user, token, load<u64>(f, OPF_STABLE_APPROVE_MINT_PENDING_ID), bundleIndex, opIndex);
  else if (kind == OP_STABLE_RAISE_SUPPLY_CAP) st = execRaiseCap(user, token, f + OPF_STABLE_RAISE_SUPPLY_CAP_SUPPLY_CAP, bundleIndex, opIndex);
  else if (kind == OP_STABLE_VERIFY_ISSUER) st = execVerify(user, token, bundleIndex, opIndex);
  else st = execIssuerProof(user, token, f, bundleIndex, opIndex);
  if (st == S.OK) storeStable(stableE);
  return st;
}

// ---- CreateStableToken (governance only) --------------------------------------------------------

/** A Borsh String at p within [p, end): its length, or -1 when short or not 1..max bytes of UTF-8. */
function str(p: usize, end: usize, max: u32): i64 {
  if (p + 4 > end) return -1;
  let n = load<u32>(p);
  if (n == 0 || n > max || p + 4 + <usize>n > end || !validUtf8(p + 4, n)) return -1;
  return <i64>n;
}

/** origin_mappings: u32 count (1..STD8_MAX_ORIGINS, or 0), then (chain, contract) Strings of 1–64 bytes, exactly filling len. */
function validOrigins(p: usize, len: u32): bool {
  if (len == 0) return true;
  if (len < 4) return false;
  let end = p + len;
  let n = load<u32>(p);
  if (n > STD8_MAX_ORIGINS) return false;
  let q = p + 4;
  for (let i: u32 = 0; i < n * 2; i++) {
    let l = str(q, end, 64);
    if (l < 0) return false;
    q += 4 + <usize>l;
  }
  return q == end;
}

/**
 * CreateStableToken (fields re-read here; the decoder checked their Borsh shape). Order:
 * NOT_GOVERNANCE → INVALID_STABLE_CONFIG (name, symbol as INVALID_SYMBOL, decimals, strings, lists,
 * numbers) → ZERO_ADDRESS_ROLE → SYMBOL_TAKEN (the symbol, or the canonical mint, exists).
 * The mint is Blake3("<first origin chain>_<SYMBOL>"), or Blake3("std8_<SYMBOL>") without mappings,
 * as genesis derives it (facts.md "Genesis"); the symbol as given.
 */
function execCreate(user: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, GOVERNANCE, 32)) return S.NOT_GOVERNANCE;
  let p = f;
  let nameLen = load<u32>(p); let name = p + 4; p += 4 + <usize>nameLen;
  let symLen = load<u32>(p); let sym = p + 4; p += 4 + <usize>symLen;
  let decimals = load<u8>(p); p += 1;
  let curLen = load<u32>(p); let cur = p + 4; p += 4 + <usize>curLen;
  let issLen = load<u32>(p); let iss = p + 4; p += 4 + <usize>issLen;
  let roles = p; p += 128;
  let gLen = load<u32>(p); let g = p + 4; p += 4 + <usize>gLen;
  let oLen = load<u32>(p); let o = p + 4; p += 4 + <usize>oLen;
  let cap = p; p += 16;
  let quantum = load<u8>(p); p += 1;
  let threshold = p; p += 16;
  let signers = load<u8>(p); p += 1;
  let cLen = load<u32>(p); let c = p + 4; p += 4 + <usize>cLen;
  let timelock = load<u64>(p); p += 8;
  let epoch = load<u64>(p);
  if (nameLen == 0 || nameLen > 64) return S.INVALID_STABLE_CONFIG;
  if (!validSymbol(sym, symLen)) return S.INVALID_SYMBOL;
  if (decimals > 18) return S.INVALID_DECIMALS;
  if (curLen == 0 || curLen > 16 || issLen == 0 || issLen > 128) return S.INVALID_STABLE_CONFIG;
  if (!validAccounts(g, gLen, STD8_MAX_GUARDIANS) || !validAccounts(c, cLen, STD8_MAX_COSIGNERS) || !validOrigins(o, oLen)) return S.INVALID_STABLE_CONFIG;
  if (timelock == 0) timelock = STD8_DEFAULT_TIMELOCK;
  if (epoch == 0) epoch = STD8_DEFAULT_EPOCH_LENGTH;
  let st = checkSecurity(timelock, threshold, signers, cLen / 32);
  if (st != S.OK) return st;
  if (epoch > STD8_MAX_TIMELOCK) return S.INVALID_STABLE_CONFIG;
  for (let i: usize = 0; i < 4; i++) if (isZero(roles + (i << 5), 32)) return S.ZERO_ADDRESS_ROLE;
  let symE = symbolEntry(sym, symLen);
  if (exists(symE)) return S.SYMBOL_TAKEN;
  // The canonical mint: "<chain>_<SYMBOL>" of the first origin, else "std8_<SYMBOL>".
  let hasOrigin = oLen > 4 && load<u32>(o) > 0;
  let chainLen: u32 = 4;
  let chain: usize = PRE;
  store<u32>(chain, 0x38647473); // "std8" (little-endian)
  let contract: usize = 0;
  let contractLen: u32 = 0;
  if (hasOrigin) {
    chainLen = load<u32>(o + 4);
    chain = o + 8;
    contractLen = load<u32>(chain + chainLen);
    contract = chain + chainLen + 4;
  }
  let pre = bufPre(chain, chainLen, sym, symLen);
  blake3(pre, chainLen + 1 + symLen, MINT);
  let te = tokenEntry(MINT);
  if (exists(te)) return S.SYMBOL_TAKEN;
  // The token record names the first mapping as its origin (spec §2.2 impersonation check).
  encodeTokenRecord(out, name, nameLen, sym, symLen, decimals, ZERO, GOVERNANCE, roles, ctxTimestamp, ctxHeight,
                    TOKEN_KIND_STD8, 0, hasOrigin ? chain : 0, hasOrigin ? chainLen : 0, contract, contractLen);
  setValue(te, bufPtr(out), bufLen(out));
  setValue(symE, MINT, 32);
  setValue(reservedEntry(sym, symLen), ONE, 1); // spec §4.16: the symbol joins the reserved list
  // The STD-8 record.
  memory.fill(W, 0, HEAD);
  store<u8>(W, 1, R_STABLE_VERSION);
  memory.copy(W + R_STABLE_OWNER, roles, 128); // owner, master_minter, pauser, blacklister in order
  store<u8>(W, quantum != 0 ? SF_QUANTUM : 0, R_STABLE_FLAGS);
  store<u64>(W, timelock, R_STABLE_TIMELOCK);
  store<u64>(W, epoch, R_STABLE_EPOCH_LENGTH);
  memory.copy(W + R_STABLE_MINT_THRESHOLD, threshold, 16);
  store<u8>(W, signers, R_STABLE_REQUIRED_SIGNERS);
  memory.copy(W + R_STABLE_SUPPLY_CAP, cap, 16);
  store<u64>(W, ctxHeight, R_STABLE_CREATED_HEIGHT);
  nGuard = gLen / 32; memory.copy(GUARD, g, gLen);
  nCosig = cLen / 32; memory.copy(COSIG, c, cLen);
  nMinters = 0;
  nPending = 0;
  storeStable(stableEntry(MINT));
  writeProfile(MINT, cur, curLen, iss, issLen, o, oLen);
  // roles: owner, master minter, pauser, blacklister (32 bytes each, as the operation gives them)
  emitTokenCreated(bundleIndex, <u16>opIndex, MINT, user, roles, 0, 0);
  emitStableCreated(bundleIndex, <u16>opIndex, MINT, roles, roles + 32, roles + 64, roles + 96);
  return S.OK;
}

const ONE = memory.data<u8>([1]);
const PREBUF = bufNew(256);

function bufPre(chain: usize, chainLen: u32, sym: usize, symLen: u32): usize {
  bufSetLen(PREBUF, 0);
  bufBytes(PREBUF, chain, chainLen);
  bufU8(PREBUF, 0x5f); // "_"
  bufBytes(PREBUF, sym, symLen);
  return bufPtr(PREBUF);
}

/** The 0x42 StableProfile: version, currency, issuer, launch_origin (empty), origins (the Borsh list as given, or an empty list). */
export function writeProfile(mint: usize, cur: usize, curLen: u32, iss: usize, issLen: u32, o: usize, oLen: u32): void {
  bufSetLen(out, 0);
  bufU8(out, 1);
  bufU32(out, curLen);
  bufBytes(out, cur, curLen);
  bufU32(out, issLen);
  bufBytes(out, iss, issLen);
  bufU32(out, 0);
  if (oLen == 0) bufU32(out, 0);
  else bufBytes(out, o, oLen);
  setValue(stableProfileEntry(mint), bufPtr(out), bufLen(out));
}

/**
 * The StableCoin record of a genesis stablecoin (spec §2.1 "Genesis"): the four roles held by the
 * governance authority until the issuer's handover, verification Pending, default timelock and
 * epoch, no minters, no cap.
 */
export function genesisStable(mint: usize): void {
  memory.fill(W, 0, HEAD);
  store<u8>(W, 1, R_STABLE_VERSION);
  for (let i: usize = 0; i < 4; i++) memory.copy(W + R_STABLE_OWNER + (i << 5), GOVERNANCE, 32);
  store<u64>(W, STD8_DEFAULT_TIMELOCK, R_STABLE_TIMELOCK);
  store<u64>(W, STD8_DEFAULT_EPOCH_LENGTH, R_STABLE_EPOCH_LENGTH);
  nGuard = 0;
  nCosig = 0;
  nMinters = 0;
  nPending = 0;
  storeStable(stableEntry(mint));
}

/** Timelock 1..max; signers ≤ cosigners; with a threshold, at least one signer. */
function checkSecurity(timelock: u64, threshold: usize, signers: u8, cosigners: u32): u32 {
  if (timelock == 0 || timelock > STD8_MAX_TIMELOCK) return S.INVALID_STABLE_CONFIG;
  if (<u32>signers > cosigners) return S.INVALID_STABLE_CONFIG;
  if (!isZero(threshold, 16) && signers == 0) return S.INVALID_STABLE_CONFIG;
  return S.OK;
}

// ---- minting and burning -------------------------------------------------------------------------

/**
 * StableMint { token, to, amount } by a minter. Order: ZERO_AMOUNT → ADDRESS_BLACKLISTED (minter,
 * recipient) → TOKEN_PAUSED → MINT_FROZEN → NOT_MINTER → QUANTUM_SIGNATURE_REQUIRED → the limits
 * (mintLimits). Above mint_threshold the mint waits for the cosigners (a pending entry, kind 3).
 */
function execMint(user: usize, token: usize, to: usize, amount: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (isZero(amount, 16)) return S.ZERO_AMOUNT;
  let st = mintState(token, user, to);
  if (st != S.OK) return st;
  let mi = minterIndex(user);
  if (mi < 0) return S.NOT_MINTER;
  if ((load<u8>(W, R_STABLE_FLAGS) & SF_QUANTUM) != 0 && ctxAuth != AUTH_ML_DSA_65) return S.QUANTUM_SIGNATURE_REQUIRED;
  st = mintLimits(<u32>mi, amount);
  if (st != S.OK) return st;
  let th = W + R_STABLE_MINT_THRESHOLD;
  if (!isZero(th, 16) && U.lt128(load<u64>(th), load<u64>(th, 8), load<u64>(amount), load<u64>(amount, 8))) {
    let p = queue(PK_MINT, user, ctxHeight, token, bundleIndex, opIndex);
    if (p == 0) return S.STD8_LIMIT_REACHED;
    memory.copy(p + R_STABLE_PENDING_A, user, 32);
    memory.copy(p + R_STABLE_PENDING_B, to, 32);
    memory.copy(p + R_STABLE_PENDING_AMOUNT, amount, 16);
    return S.OK;
  }
  return doMint(<u32>mi, user, token, to, amount, bundleIndex, opIndex);
}

/** The mint-wide rules: ADDRESS_BLACKLISTED (minter, recipient) → TOKEN_PAUSED → MINT_FROZEN. */
function mintState(token: usize, minter: usize, to: usize): u32 {
  if (exists(stableBlacklistEntry(token, minter)) || exists(stableBlacklistEntry(token, to))) return S.ADDRESS_BLACKLISTED;
  let vp = valPtr(tokE);
  if ((load<u8>(vp + tokenFlagsOffset(vp)) & TOKEN_FLAG_PAUSED) != 0) return S.TOKEN_PAUSED;
  if ((load<u8>(W, R_STABLE_FLAGS) & SF_MINT_FROZEN) != 0) return S.MINT_FROZEN;
  return S.OK;
}

/** MINTER_ALLOWANCE_EXCEEDED → EPOCH_LIMIT_EXCEEDED → AMOUNT_OVERFLOW / SUPPLY_CAP_EXCEEDED. */
function mintLimits(mi: u32, amount: usize): u32 {
  let m = MINTERS + <usize>mi * R_STABLE_MINTER_BYTES;
  let aLo = load<u64>(amount), aHi = load<u64>(amount, 8);
  if (U.lt128(load<u64>(m + R_STABLE_MINTER_ALLOWANCE), load<u64>(m + R_STABLE_MINTER_ALLOWANCE, 8), aLo, aHi)) return S.MINTER_ALLOWANCE_EXCEEDED;
  let limLo = load<u64>(m + R_STABLE_MINTER_EPOCH_LIMIT), limHi = load<u64>(m + R_STABLE_MINTER_EPOCH_LIMIT, 8);
  if ((limLo | limHi) != 0) {
    let epoch = ctxHeight / load<u64>(W, R_STABLE_EPOCH_LENGTH);
    let mLo: u64 = 0, mHi: u64 = 0;
    if (load<u64>(m + R_STABLE_MINTER_EPOCH) == epoch) { mLo = load<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH); mHi = load<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH, 8); }
    if (U.add128(mLo, mHi, aLo, aHi) || U.lt128(limLo, limHi, U.lo, U.hi)) return S.EPOCH_LIMIT_EXCEEDED;
  }
  return capCheck(aLo, aHi);
}

/** AMOUNT_OVERFLOW → SUPPLY_CAP_EXCEEDED for a mint of `aLo,aHi` now. */
function capCheck(aLo: u64, aHi: u64): u32 {
  if (U.add128(totalSupplyLo(), totalSupplyHi(), aLo, aHi)) return S.AMOUNT_OVERFLOW;
  let cap = W + R_STABLE_SUPPLY_CAP;
  if (!isZero(cap, 16) && U.lt128(load<u64>(cap), load<u64>(cap, 8), U.lo, U.hi)) return S.SUPPLY_CAP_EXCEEDED;
  return S.OK;
}

/**
 * A bridge deposit credited to a canonical STD-8 mint (spec §4.6 fast path; docs/bridge.md): the
 * coin's own mint rules without a minter (the attesters are the authority): ADDRESS_BLACKLISTED
 * (recipient) → TOKEN_PAUSED → MINT_FROZEN → AMOUNT_OVERFLOW → SUPPLY_CAP_EXCEEDED, then the
 * supply, the credit and the Transfer from zero. UNKNOWN_TOKEN / NOT_STABLECOIN when `token` is
 * not an STD-8 coin. Nothing is written on failure.
 */
export function bridgeMintStable(token: usize, to: usize, amount: usize, bundleIndex: u32, opIndex: u32): u32 {
  let st = loadStable(token);
  if (st != S.OK) return st;
  st = mintState(token, to, to);
  if (st != S.OK) return st;
  let aLo = load<u64>(amount), aHi = load<u64>(amount, 8);
  st = capCheck(aLo, aHi);
  if (st != S.OK) return st;
  if (!credit(balanceEntry(to, token), aLo, aHi)) return guardRefusal != 0 ? guardRefusal : S.AMOUNT_OVERFLOW;
  addSupply(aLo, aHi, false); // checked by capCheck
  transferEvent(ZERO, to, token, amount, bundleIndex, opIndex);
  return S.OK;
}

/** The mint itself (limits checked): allowance and epoch count down/up, supply up, the credit, Transfer from zero. */
function doMint(mi: u32, minter: usize, token: usize, to: usize, amount: usize, bundleIndex: u32, opIndex: u32): u32 {
  let m = MINTERS + <usize>mi * R_STABLE_MINTER_BYTES;
  let aLo = load<u64>(amount), aHi = load<u64>(amount, 8);
  U.sub128(load<u64>(m + R_STABLE_MINTER_ALLOWANCE), load<u64>(m + R_STABLE_MINTER_ALLOWANCE, 8), aLo, aHi);
  store<u64>(m + R_STABLE_MINTER_ALLOWANCE, U.lo);
  store<u64>(m + R_STABLE_MINTER_ALLOWANCE, U.hi, 8);
  let epoch = ctxHeight / load<u64>(W, R_STABLE_EPOCH_LENGTH);
  if (load<u64>(m + R_STABLE_MINTER_EPOCH) != epoch) { store<u64>(m + R_STABLE_MINTER_EPOCH, epoch); store<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH, 0); store<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH, 0, 8); }
  U.add128(load<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH), load<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH, 8), aLo, aHi); // ≤ the epoch limit or the supply: no overflow
  store<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH, U.lo);
  store<u64>(m + R_STABLE_MINTER_MINTED_IN_EPOCH, U.hi, 8);
  if (!addSupply(aLo, aHi, false)) return S.AMOUNT_OVERFLOW;
  if (!credit(balanceEntry(to, token), aLo, aHi)) return guardRefusal != 0 ? guardRefusal : S.AMOUNT_OVERFLOW;
  transferEvent(ZERO, to, token, amount, bundleIndex, opIndex);
  return S.OK;
}

/** StableBurn { token, amount }: any holder burns its own. ZERO_AMOUNT → (debit: TOKEN_PAUSED, ADDRESS_BLACKLISTED, INSUFFICIENT_BALANCE). */
function execBurn(user: usize, token: usize, amount: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (isZero(amount, 16)) return S.ZERO_AMOUNT;
  let aLo = load<u64>(amount), aHi = load<u64>(amount, 8);
  let st = stableGuard(token, user);
  if (st != S.OK) return st;
  if (!debit(balanceEntry(user, token), aLo, aHi)) return S.INSUFFICIENT_BALANCE;
  addSupply(aLo, aHi, true); // the balance was part of the supply
  transferEvent(user, ZERO, token, amount, bundleIndex, opIndex);
  return S.OK;
}

// ---- roles: pause, blacklist, freeze ------------------------------------------------------------

/** StablePause { token, pause }: NOT_PAUSER. Pausing a paused token (or the reverse) is allowed, as in FiatToken. */
function execPause(user: usize, token: usize, pause: bool, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_PAUSER), 32)) return S.NOT_PAUSER;
  setTokenFlag(TOKEN_FLAG_PAUSED, pause);
  adminEvent(token, user, ZERO, A_PAUSE, pause ? 1 : 0, bundleIndex, opIndex);
  return S.OK;
}

/** StableBlacklist { token, account, add }: NOT_BLACKLISTER. Adding twice or removing an absent one changes nothing. */
function execBlacklist(user: usize, token: usize, account: usize, add: bool, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_BLACKLISTER), 32)) return S.NOT_BLACKLISTER;
  let e = stableBlacklistEntry(token, account);
  let count = load<u64>(W, R_STABLE_BLACKLISTED);
  let was = exists(e);
  if (add != was) {
    if (add) { setValue(e, ONE, 1); count++; } else { deleteValue(e); count--; }
    // The 0x43 index: blacklisted addresses per last byte (assembly/ledger.ts blacklisted).
    let ix = stableBlacklistIndexEntry(token);
    if (count == 0) deleteValue(ix);
    else {
      if (valLen(ix) != INDEX_BYTES) { memory.fill(bufEnsure(idx, INDEX_BYTES), 0, INDEX_BYTES); setValue(ix, bufPtr(idx), INDEX_BYTES); }
      let slot = <usize>load<u8>(account, 31) << 2;
      let n = load<u32>(valPtr(ix) + slot);
      let wp = beginWrite(ix, INDEX_BYTES); // same length: in place
      store<u32>(wp + slot, add ? n + 1 : n - 1);
    }
  }
  store<u64>(W, count, R_STABLE_BLACKLISTED);
  setTokenFlag(TOKEN_FLAG_BLACKLIST, count > 0);
  adminEvent(token, user, account, A_BLACKLIST, add ? 1 : 0, bundleIndex, opIndex);
  storeStable(stableE);
  return S.OK;
}

/** StableFreezeMint (a guardian, immediately: NOT_STABLE_GUARDIAN) / StableUnfreezeMint (the owner only: NOT_STABLE_OWNER). */
function execFreeze(user: usize, token: usize, freeze: bool, bundleIndex: u32, opIndex: u32): u32 {
  if (freeze) {
    if (!isGuardian(user)) return S.NOT_STABLE_GUARDIAN;
  } else if (!bytesEq(user, role(R_STABLE_OWNER), 32)) return S.NOT_STABLE_OWNER;
  let fl = load<u8>(W, R_STABLE_FLAGS);
  store<u8>(W, freeze ? fl | SF_MINT_FROZEN : fl & ~SF_MINT_FROZEN, R_STABLE_FLAGS);
  adminEvent(token, user, ZERO, A_FREEZE, freeze ? 1 : 0, bundleIndex, opIndex);
  return S.OK;
}

// ---- timelocked changes -------------------------------------------------------------------------

/** StableTransferRole { token, role, new_address }: NOT_STABLE_OWNER → ZERO_ADDRESS_ROLE → STD8_LIMIT_REACHED; pending until height + timelock. */
function execTransferRole(user: usize, token: usize, r: u8, to: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_OWNER), 32)) return S.NOT_STABLE_OWNER;
  if (isZero(to, 32)) return S.ZERO_ADDRESS_ROLE;
  let p = queue(PK_ROLE, user, ctxHeight + load<u64>(W, R_STABLE_TIMELOCK), token, bundleIndex, opIndex);
  if (p == 0) return S.STD8_LIMIT_REACHED;
  store<u8>(p + R_STABLE_PENDING_ROLE, r);
  memory.copy(p + R_STABLE_PENDING_A, to, 32);
  return S.OK;
}

/**
 * StableConfigureMinter { token, action, minter, allowance, epoch_limit }: NOT_MASTER_MINTER →
 * ZERO_ADDRESS_ROLE → add: MINTER_EXISTS, STD8_LIMIT_REACHED, pending until height + timelock;
 * remove: MINTER_NOT_FOUND, immediate; configure: MINTER_NOT_FOUND, immediate.
 */
function execConfigureMinter(user: usize, token: usize, action: u8, minter: usize, allowance: usize, limit: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_MASTER_MINTER), 32)) return S.NOT_MASTER_MINTER;
  if (isZero(minter, 32)) return S.ZERO_ADDRESS_ROLE;
  let mi = minterIndex(minter);
  if (action == 0) {
    if (mi >= 0) return S.MINTER_EXISTS;
    let p = queue(PK_MINTER, user, ctxHeight + load<u64>(W, R_STABLE_TIMELOCK), token, bundleIndex, opIndex);
    if (p == 0) return S.STD8_LIMIT_REACHED;
    memory.copy(p + R_STABLE_PENDING_A, minter, 32);
    memory.copy(p + R_STABLE_PENDING_AMOUNT, allowance, 16);
    memory.copy(p + R_STABLE_PENDING_AMOUNT2, limit, 16);
    return S.OK;
  }
  if (mi < 0) return S.MINTER_NOT_FOUND;
  if (action == 1) {
    removeAt(MINTERS, R_STABLE_MINTER_BYTES, nMinters, <u32>mi);
    nMinters--;
  } else {
    let m = MINTERS + <usize>mi * R_STABLE_MINTER_BYTES;
    memory.copy(m + R_STABLE_MINTER_ALLOWANCE, allowance, 16);
    memory.copy(m + R_STABLE_MINTER_EPOCH_LIMIT, limit, 16);
  }
  minterEvent(token, user, minter, action, allowance, limit, bundleIndex, opIndex);
  return S.OK;
}

/** StableHandover { token, 4 new roles }: NOT_STABLE_OWNER → ZERO_ADDRESS_ROLE → HANDOVER_PENDING; pending until height + max(timelock, 720). */
function execHandover(user: usize, token: usize, roles: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_OWNER), 32)) return S.NOT_STABLE_OWNER;
  for (let i: usize = 0; i < 4; i++) if (isZero(roles + (i << 5), 32)) return S.ZERO_ADDRESS_ROLE;
  for (let i: u32 = 0; i < nPending; i++) if (load<u8>(PENDING + <usize>i * R_STABLE_PENDING_BYTES + R_STABLE_PENDING_KIND) == PK_HANDOVER) return S.HANDOVER_PENDING;
  let delay = load<u64>(W, R_STABLE_TIMELOCK);
  if (delay < STD8_MIN_HANDOVER_DELAY) delay = STD8_MIN_HANDOVER_DELAY;
  let p = queue(PK_HANDOVER, user, ctxHeight + delay, token, bundleIndex, opIndex);
  if (p == 0) return S.STD8_LIMIT_REACHED;
  memory.copy(p + R_STABLE_PENDING_A, roles, 128);
  return S.OK;
}

/**
 * StableCancelPending { token, pending_id }: PENDING_NOT_FOUND → CANCEL_NOT_ALLOWED. Role changes
 * and minter additions: the owner or a guardian (spec §3); a handover: the foundation, governance,
 * the owner or a guardian; a pending mint: the owner, the master minter or a guardian.
 */
function execCancel(user: usize, token: usize, id: u64, bundleIndex: u32, opIndex: u32): u32 {
  let i = pendingIndex(id);
  if (i < 0) return S.PENDING_NOT_FOUND;
  let p = PENDING + <usize>i * R_STABLE_PENDING_BYTES;
  let kind = load<u8>(p + R_STABLE_PENDING_KIND);
  let ok = isGuardian(user) || bytesEq(user, role(R_STABLE_OWNER), 32);
  if (kind == PK_HANDOVER) ok = ok || bytesEq(user, FOUNDATION, 32) || bytesEq(user, GOVERNANCE, 32);
  if (kind == PK_MINT) ok = ok || bytesEq(user, role(R_STABLE_MASTER_MINTER), 32);
  if (!ok) return S.CANCEL_NOT_ALLOWED;
  let eff = load<u64>(p + R_STABLE_PENDING_EFFECTIVE_HEIGHT);
  removeAt(PENDING, R_STABLE_PENDING_BYTES, nPending, <u32>i);
  nPending--;
  pendingEvent(token, user, id, kind, OUT_CANCELLED, eff, bundleIndex, opIndex);
  return S.OK;
}

/**
 * StableExecutePending { token, pending_id }, by anyone: PENDING_NOT_FOUND (also for a pending
 * mint, which executes through its cosigners) → PENDING_NOT_DUE (height < effective height) → for a
 * minter addition MINTER_EXISTS / STD8_LIMIT_REACHED. A handover moves the four roles at once and
 * makes the issuer Issuer-Held (spec §2.2).
 */
function execExecute(user: usize, token: usize, id: u64, bundleIndex: u32, opIndex: u32): u32 {
  let i = pendingIndex(id);
  if (i < 0) return S.PENDING_NOT_FOUND;
  let p = PENDING + <usize>i * R_STABLE_PENDING_BYTES;
  let kind = load<u8>(p + R_STABLE_PENDING_KIND);
  if (kind == PK_MINT) return S.PENDING_NOT_FOUND;
  let eff = load<u64>(p + R_STABLE_PENDING_EFFECTIVE_HEIGHT);
  if (ctxHeight < eff) return S.PENDING_NOT_DUE;
  if (kind == PK_ROLE) {
    let r = <usize>load<u8>(p + R_STABLE_PENDING_ROLE);
    memory.copy(W + R_STABLE_OWNER + (r << 5), p + R_STABLE_PENDING_A, 32);
    adminEvent(token, user, p + R_STABLE_PENDING_A, A_ROLE, <u8>r, bundleIndex, opIndex);
  } else if (kind == PK_MINTER) {
    if (minterIndex(p + R_STABLE_PENDING_A) >= 0) return S.MINTER_EXISTS;
    if (nMinters >= STD8_MAX_MINTERS) return S.STD8_LIMIT_REACHED;
    let m = MINTERS + <usize>nMinters * R_STABLE_MINTER_BYTES;
    memory.fill(m, 0, R_STABLE_MINTER_BYTES);
    memory.copy(m + R_STABLE_MINTER_MINTER, p + R_STABLE_PENDING_A, 32);
    memory.copy(m + R_STABLE_MINTER_ALLOWANCE, p + R_STABLE_PENDING_AMOUNT, 32); // allowance, epoch limit (amount, amount2)
    nMinters++;
    minterEvent(token, user, p + R_STABLE_PENDING_A, 0, p + R_STABLE_PENDING_AMOUNT, p + R_STABLE_PENDING_AMOUNT2, bundleIndex, opIndex);
  } else {
    memory.copy(W + R_STABLE_OWNER, p + R_STABLE_PENDING_A, 128);
    store<u8>(W, V_ISSUER_HELD, R_STABLE_VERIFICATION);
  }
  removeAt(PENDING, R_STABLE_PENDING_BYTES, nPending, <u32>i);
  nPending--;
  pendingEvent(token, user, id, kind, OUT_EXECUTED, eff, bundleIndex, opIndex);
  return S.OK;
}

/**
 * StableApproveMint { token, pending_id } by a cosigner: PENDING_NOT_FOUND (no pending mint with
 * this id) → NOT_COSIGNER → STABLE_ALREADY_APPROVED. At required_signers approvals the mint executes, its
 * rules re-checked as at request time (mintState, NOT_MINTER, mintLimits): a failure fails this
 * approval, which can be sent again once the mint fits.
 */
function execApproveMint(user: usize, token: usize, id: u64, bundleIndex: u32, opIndex: u32): u32 {
  let i = pendingIndex(id);
  if (i < 0) return S.PENDING_NOT_FOUND;
  let p = PENDING + <usize>i * R_STABLE_PENDING_BYTES;
  if (load<u8>(p + R_STABLE_PENDING_KIND) != PK_MINT) return S.PENDING_NOT_FOUND;
  let ci = isIn(COSIG, nCosig, user);
  if (ci < 0) return S.NOT_COSIGNER;
  let approvals = load<u8>(p + R_STABLE_PENDING_APPROVALS);
  let bit = <u8>(<u32>1 << <u32>ci);
  if ((approvals & bit) != 0) return S.STABLE_ALREADY_APPROVED;
  approvals |= bit;
  store<u8>(p + R_STABLE_PENDING_APPROVALS, approvals);
  let eff = load<u64>(p + R_STABLE_PENDING_EFFECTIVE_HEIGHT);
  if (<u32>popcnt<u32>(approvals) < <u32>load<u8>(W, R_STABLE_REQUIRED_SIGNERS)) {
    pendingEvent(token, user, id, PK_MINT, OUT_APPROVED, eff, bundleIndex, opIndex);
    return S.OK;
  }
  let minter = p + R_STABLE_PENDING_A;
  let to = p + R_STABLE_PENDING_B;
  let st = mintState(token, minter, to);
  if (st != S.OK) return st;
  let mi = minterIndex(minter);
  if (mi < 0) return S.NOT_MINTER;
  st = mintLimits(<u32>mi, p + R_STABLE_PENDING_AMOUNT);
  if (st != S.OK) return st;
  // Copy out before the entry is removed from the list.
  memory.copy(PRE, minter, 64);
  memory.copy(PRE + 64, p + R_STABLE_PENDING_AMOUNT, 16);
  removeAt(PENDING, R_STABLE_PENDING_BYTES, nPending, <u32>i);
  nPending--;
  pendingEvent(token, user, id, PK_MINT, OUT_EXECUTED, eff, bundleIndex, opIndex);
  return doMint(<u32>mi, PRE, token, PRE + 32, PRE + 64, bundleIndex, opIndex);
}

// ---- configuration -------------------------------------------------------------------------------

/** StableSetGuardians { token, guardians }: NOT_STABLE_OWNER → INVALID_STABLE_CONFIG (≤ 8 distinct non-zero). Immediate. */
function execSetGuardians(user: usize, token: usize, g: usize, gLen: u32, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_OWNER), 32)) return S.NOT_STABLE_OWNER;
  if (!validAccounts(g, gLen, STD8_MAX_GUARDIANS)) return S.INVALID_STABLE_CONFIG;
  nGuard = gLen / 32;
  memory.copy(GUARD, g, gLen);
  adminEvent(token, user, ZERO, A_GUARDIANS, <u8>nGuard, bundleIndex, opIndex);
  return S.OK;
}

/**
 * StableConfigureSecurity { token, timelock, mint_threshold, required_signers, cosigners,
 * quantum_required }: NOT_STABLE_OWNER → INVALID_STABLE_CONFIG. Immediate; the approvals of pending
 * mints are cleared (they were bits over the old cosigner list).
 */
function execSecurity(user: usize, token: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, role(R_STABLE_OWNER), 32)) return S.NOT_STABLE_OWNER;
  let timelock = load<u64>(f, OPF_STABLE_CONFIGURE_SECURITY_TIMELOCK);
  let threshold = f + OPF_STABLE_CONFIGURE_SECURITY_MINT_THRESHOLD;
  let signers = load<u8>(f, OPF_STABLE_CONFIGURE_SECURITY_REQUIRED_SIGNERS);
  let cLen = load<u32>(f, OPF_STABLE_CONFIGURE_SECURITY_COSIGNERS);
  let c = f + OPF_STABLE_CONFIGURE_SECURITY_COSIGNERS_DATA;
  let quantum = load<u8>(c + <usize>cLen + OPF_STABLE_CONFIGURE_SECURITY_QUANTUM_REQUIRED_AFTER_COSIGNERS);
  if (!validAccounts(c, cLen, STD8_MAX_COSIGNERS)) return S.INVALID_STABLE_CONFIG;
  let st = checkSecurity(timelock, threshold, signers, cLen / 32);
  if (st != S.OK) return st;
  store<u64>(W, timelock, R_STABLE_TIMELOCK);
  memory.copy(W + R_STABLE_MINT_THRESHOLD, threshold, 16);
  store<u8>(W, signers, R_STABLE_REQUIRED_SIGNERS);
  nCosig = cLen / 32;
  memory.copy(COSIG, c, cLen);
  let fl = load<u8>(W, R_STABLE_FLAGS);
  store<u8>(W, quantum != 0 ? fl | SF_QUANTUM : fl & ~SF_QUANTUM, R_STABLE_FLAGS);
  for (let i: u32 = 0; i < nPending; i++) store<u8>(PENDING + <usize>i * R_STABLE_PENDING_BYTES + R_STABLE_PENDING_APPROVALS, 0);
  adminEvent(token, user, ZERO, A_SECURITY, quantum, bundleIndex, opIndex);
  return S.OK;
}

/**
 * StableRaiseSupplyCap { token, supply_cap }: NOT_GOVERNANCE (never the owner, spec §2.1) →
 * SUPPLY_CAP_NOT_RAISED: with a cap set, the new one must be above it or 0 (no cap); without a
 * cap nothing is a raise.
 */
function execRaiseCap(user: usize, token: usize, cap: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, GOVERNANCE, 32)) return S.NOT_GOVERNANCE;
  let old = W + R_STABLE_SUPPLY_CAP;
  let raised = isZero(old, 16)
    ? false
    : isZero(cap, 16) || U.lt128(load<u64>(old), load<u64>(old, 8), load<u64>(cap), load<u64>(cap, 8));
  if (!raised) return S.SUPPLY_CAP_NOT_RAISED;
  memory.copy(old, cap, 16);
  adminEvent(token, user, ZERO, A_SUPPLY_CAP, isZero(cap, 16) ? 0 : 1, bundleIndex, opIndex);
  return S.OK;
}

/** StableVerifyIssuer { token }: NOT_GOVERNANCE. Pending → Verified (spec §2.2); Issuer-Held stays. */
function execVerify(user: usize, token: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, GOVERNANCE, 32)) return S.NOT_GOVERNANCE;
  if (load<u8>(W, R_STABLE_VERIFICATION) < V_VERIFIED) store<u8>(W, V_VERIFIED, R_STABLE_VERIFICATION);
  adminEvent(token, user, ZERO, A_VERIFIED, load<u8>(W, R_STABLE_VERIFICATION), bundleIndex, opIndex);
  return S.OK;
}

// ---- issuer onboarding (spec §4.16) ----------------------------------------------------------------

// StableIssuerProof.method: the three proofs of spec §4.16.
// @ts-ignore: decorator
@inline const M_ADMIN_SIGNATURE: u8 = 0;
// @ts-ignore: decorator
@inline const ONBOARDING_VERSION: u8 = 1;
// @ts-ignore: decorator
@inline const MAX_PROOF_DETAIL: u32 = 128;
// @ts-ignore: decorator
@inline const EVM_SIGNATURE_BYTES: u32 = 65;
const HEIGHT_LE = memory.data(8);

/**
 * StableIssuerProof { token, method, chain_id, subject, detail, signature }: NOT_FOUNDATION →
 * INVALID_ISSUER_PROOF (the shape of the method) → PROOF_ALREADY_RECORDED. Appends the proof to
 * the 0x44 StableOnboarding record; the second distinct method recorded makes a Pending issuer
 * Verified ("two of three", spec §4.16) — Issuer-Held stays. The admin signature itself is the
 * host's to verify (secp256k1 is not in the core): a bundle whose signature does not recover the
 * named address is refused before admission (src/chain/issuer-proof.ts), as double-sign evidence
 * is (docs/stablecoins.md "Issuer onboarding").
 */
function execIssuerProof(user: usize, token: usize, f: usize, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, FOUNDATION, 32) && !bytesEq(user, GOVERNANCE, 32)) return S.NOT_FOUNDATION;
  let method = load<u8>(f, OPF_STABLE_ISSUER_PROOF_METHOD);
  let chainId = load<u64>(f, OPF_STABLE_ISSUER_PROOF_CHAIN_ID);
  let subject = f + OPF_STABLE_ISSUER_PROOF_SUBJECT;
  let dLen = load<u32>(f, OPF_STABLE_ISSUER_PROOF_DETAIL);
  let detail = f + OPF_STABLE_ISSUER_PROOF_DETAIL_DATA;
  let sLen = load<u32>(detail + <usize>dLen);
  let sig = detail + <usize>dLen + 4;
  if (method == M_ADMIN_SIGNATURE) {
    if (chainId == 0 || !isZero(subject, 12) || isZero(subject + 12, 20) || sLen != EVM_SIGNATURE_BYTES || dLen != 0) return S.INVALID_ISSUER_PROOF;
  } else if (chainId != 0 || isZero(subject, 32) || sLen != 0 || dLen == 0 || dLen > MAX_PROOF_DETAIL || !validUtf8(detail, dLen)) {
    return S.INVALID_ISSUER_PROOF;
  }
  let e = stableOnboardingEntry(token);
  let n: u32 = 0;
  let have: u32 = 0; // bit m: method m is recorded
  let oldLen: u32 = 0;
  if (exists(e)) {
    let p = valPtr(e);
    oldLen = <u32>valLen(e);
    n = load<u32>(p + R_STABLE_ONBOARDING_PROOFS);
    let q = p + R_STABLE_ONBOARDING_PROOFS_DATA;
    for (let i: u32 = 0; i < n; i++) {
      have |= <u32>1 << load<u8>(q);
      q += R_STABLE_ISSUER_PROOF_DETAIL;
      q += 4 + <usize>load<u32>(q); // detail
      q += 4 + <usize>load<u32>(q); // signature
    }
  }
  if ((have & (<u32>1 << method)) != 0) return S.PROOF_ALREADY_RECORDED;
  bufSetLen(out, 0);
  if (n == 0) {
    bufU8(out, ONBOARDING_VERSION);
    bufU32(out, 0);
  } else bufBytes(out, valPtr(e), oldLen);
  store<u32>(bufPtr(out) + R_STABLE_ONBOARDING_PROOFS, n + 1);
  bufU8(out, method);
  bufBytes(out, user, 32);
  store<u64>(HEIGHT_LE, ctxHeight);
  bufBytes(out, HEIGHT_LE, 8);
  bufBytes(out, f + OPF_STABLE_ISSUER_PROOF_CHAIN_ID, 8); // chain_id
  bufBytes(out, subject, 32);
  bufU32(out, dLen);
  bufBytes(out, detail, dLen);
  bufU32(out, sLen);
  bufBytes(out, sig, sLen);
  setValue(e, bufPtr(out), bufLen(out));
  have |= <u32>1 << method;
  let count: u8 = 0;
  for (let m: u32 = 0; m < 3; m++) if ((have & (<u32>1 << m)) != 0) count++;
  if (count >= 2 && load<u8>(W, R_STABLE_VERIFICATION) < V_VERIFIED) store<u8>(W, V_VERIFIED, R_STABLE_VERIFICATION);
  emitStableIssuerProof(bundleIndex, <u16>opIndex, token, user, subject, method, count, load<u8>(W, R_STABLE_VERIFICATION));

  return S.OK;
}
