// Multi-sig accounts (spec §4.14; docs/multisig.md): CreateMultiSig 22,
// ProposeMultiSigTx 23, ApproveMultiSigTx 24, RevokeMultiSigApproval 25.
//
// A multi-sig is an account with no keys: its address is Blake3-derived (shown Nx5…), so no
// signature can ever act for it. Its signers propose operations of any kind (but the key,
// recovery-configuration, multi-sig and schedule operations: the decoder's nested grammar); once
// `threshold` signers approve, the operations run in order as the multi-sig account inside their
// own checkpoint, all or nothing, and the proposal records the outcome (MultiSigTxExecuted).
//   0x53 multisig[32]               → MultiSig { version, threshold u8, creator, created_height,
//                                     created_at, next_tx_id u64, signers vec32, label String }
//   0x54 multisig[32] tx_id u64 BE  → MultiSigTx { version, state u8, proposer, created_height,
//                                     created_at, expires_at, executed_height u64, status u16,
//                                     approvals vec32, description String, operations Vec<u8> }

import * as S from "../../status";
import { KEY, entry32, balanceEntry } from "../../keys";
import { lookup, exists, setValue, valPtr, valLen, mark, revertTo } from "../../state";
import { ctxHeight, ctxTimestamp, NTV_MINT } from "../../context";
import { eventCount, eventsMark, eventsRevert } from "../../events";
import { emitMultiSigCreated, emitMultiSigTxExecuted, emitMultiSigTxUpdated } from "../../events-gen";
import { bufNew, bufPtr, bufLen, bufSetLen, bufBytes, bufU8, bufU16, bufU32, bufU64, bytesEq } from "../../mem";
import { blake3 } from "../../blake3";
import { readerInit } from "../../borsh";
import { decodeOps, opsCount } from "../../bundle";
import { distinct } from "../../ops/accounts";
import { execTransfer } from "../../ops/transfer";
import { execCreateToken } from "../../ops/token";
import { execOther } from "../../ops/dispatch";
import {
  OP_TRANSFER, OP_CREATE_TOKEN, P_MULTISIG, P_MULTISIG_TX, MAX_MULTISIG_SIGNERS, MAX_MULTISIG_LABEL_BYTES, MAX_MULTISIG_DESCRIPTION_BYTES,
  MAX_MULTISIG_OPS, MAX_MULTISIG_BYTES, MULTISIG_TX_LIFETIME,
  R_MULTI_SIG_NEXT_TX_ID, R_MULTI_SIG_SIGNERS, R_MULTI_SIG_SIGNERS_DATA, R_MULTI_SIG_THRESHOLD, R_MULTI_SIG_TX_APPROVALS, R_MULTI_SIG_TX_APPROVALS_DATA, R_MULTI_SIG_TX_EXECUTED_HEIGHT, R_MULTI_SIG_TX_EXPIRES_AT, R_MULTI_SIG_TX_STATE, R_MULTI_SIG_TX_STATUS,
  OPF_APPROVE_MULTI_SIG_TX_TX_ID,
} from "../../abi";
import { OPR_FIELDS, OPR_CREATE_MULTI_SIG_SIGNERS, OPR_CREATE_MULTI_SIG_SIGNER_COUNT, OPR_CREATE_MULTI_SIG_THRESHOLD, OPR_CREATE_MULTI_SIG_LABEL, OPR_CREATE_MULTI_SIG_LABEL_LEN, OPR_PROPOSE_MULTI_SIG_TX_MULTISIG, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS_LEN, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION_LEN } from "../../decode-ops";

// @ts-ignore: decorator
@inline const VERSION: u8 = 1;
// MultiSig offsets
// MultiSigTx offsets

// @ts-ignore: decorator
@inline export const TX_PENDING: u8 = 0;
// @ts-ignore: decorator
@inline export const TX_EXECUTED: u8 = 1;
// @ts-ignore: decorator
@inline export const TX_FAILED: u8 = 2;

// @ts-ignore: decorator
@inline const ACTION_PROPOSED: u8 = 0;
// @ts-ignore: decorator
@inline const ACTION_APPROVED: u8 = 1;
// @ts-ignore: decorator
@inline const ACTION_REVOKED: u8 = 2;

const ADDR = memory.data(32);
const PRE = memory.data(8 + 32 + 8 + 4);
const rec = bufNew(8192);
/** The executing proposal's operations (copied out of its record) and their decoded op records. */
const MS_BYTES = memory.data(<i32>MAX_MULTISIG_BYTES);
const MS_OPS = memory.data(<i32>MAX_MULTISIG_OPS * 32);

function multisigEntry(ms: usize): usize {
  return entry32(P_MULTISIG, ms);
}

function txEntry(ms: usize, txId: u64): usize {
  store<u8>(KEY, P_MULTISIG_TX);
  memory.copy(KEY + 1, ms, 32);
  store<u64>(KEY + 33, bswap<u64>(txId));
  return lookup(KEY, 41);
}

function isSigner(m: usize, who: usize): bool {
  let n = load<u32>(m + R_MULTI_SIG_SIGNERS);
  for (let i: u32 = 0; i < n; i++) if (bytesEq(m + R_MULTI_SIG_SIGNERS_DATA + (<usize>i << 5), who, 32)) return true;
  return false;
}

/**
 * CreateMultiSig { signers, threshold, label }: INVALID_SIGNERS (1–16 distinct) →
 * INVALID_THRESHOLD → INVALID_MULTISIG_FIELD (label ≤ 64 bytes). The address is
 * Blake3("multisig" ‖ creator ‖ nonce u64 LE ‖ op_index u32 LE): unique, since a nonce is used once.
 */
export function execCreateMultiSig(user: usize, op: usize, nonce: u64, bundleIndex: u32, opIndex: u32): u32 {
  let signers = <usize>load<u32>(op, OPR_CREATE_MULTI_SIG_SIGNERS);
  let n = load<u32>(op, OPR_CREATE_MULTI_SIG_SIGNER_COUNT);
  let threshold = load<u32>(op, OPR_CREATE_MULTI_SIG_THRESHOLD);
  let label = <usize>load<u32>(op, OPR_CREATE_MULTI_SIG_LABEL);
  let labelLen = load<u32>(op, OPR_CREATE_MULTI_SIG_LABEL_LEN);
  if (n == 0 || n > MAX_MULTISIG_SIGNERS || !distinct(signers, n)) return S.INVALID_SIGNERS;
  if (threshold == 0 || threshold > n) return S.INVALID_THRESHOLD;
  if (labelLen > MAX_MULTISIG_LABEL_BYTES) return S.INVALID_MULTISIG_FIELD;
  memory.copy(PRE, memory.data<u8>([0x6d, 0x75, 0x6c, 0x74, 0x69, 0x73, 0x69, 0x67]), 8); // "multisig"
  memory.copy(PRE + 8, user, 32);
  store<u64>(PRE + 40, nonce);
  store<u32>(PRE + 48, opIndex);
  blake3(PRE, 52, ADDR);
  let e = multisigEntry(ADDR);
  if (exists(e)) return S.INVALID_SIGNERS; // unreachable: the address hashes a used-once nonce
  bufSetLen(rec, 0);
  bufU8(rec, VERSION);
  bufU8(rec, <u8>threshold);
  bufBytes(rec, user, 32);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufU64(rec, 0);
  bufU32(rec, n);
  bufBytes(rec, signers, n << 5);
  bufU32(rec, labelLen);
  bufBytes(rec, label, labelLen);
  setValue(e, bufPtr(rec), bufLen(rec));
  emitMultiSigCreated(bundleIndex, <u16>opIndex, ADDR, user, <u8>threshold, <u8>n);
  return S.OK;
}

function txEvent(ms: usize, txId: u64, signer: usize, action: u8, approvals: u32, bundleIndex: u32, opIndex: u32): void {
  emitMultiSigTxUpdated(bundleIndex, <u16>opIndex, ms, txId, signer, action, <u8>approvals);
}

/**
 * ProposeMultiSigTx { multisig, operations, description } by a signer, whose approval it records:
 * MULTISIG_NOT_FOUND → NOT_MULTISIG_SIGNER → INVALID_MULTISIG_FIELD (description ≤ 256 bytes) →
 * INVALID_MULTISIG_OPERATIONS (≤ 4,096 bytes). Ids count from 0 per multi-sig. A threshold of 1
 * executes at once.
 */
export function execProposeMultiSigTx(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let ms = <usize>load<u32>(op, OPR_PROPOSE_MULTI_SIG_TX_MULTISIG);
  let desc = <usize>load<u32>(op, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION);
  let ops = <usize>load<u32>(op, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS);
  let opsLen = load<u32>(op, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS_LEN);
  let descLen = load<u32>(op, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION_LEN);
  let me = multisigEntry(ms);
  if (!exists(me)) return S.MULTISIG_NOT_FOUND;
  if (!isSigner(valPtr(me), user)) return S.NOT_MULTISIG_SIGNER;
  if (descLen > MAX_MULTISIG_DESCRIPTION_BYTES) return S.INVALID_MULTISIG_FIELD;
  if (opsLen > MAX_MULTISIG_BYTES) return S.INVALID_MULTISIG_OPERATIONS;
  let m = valPtr(me);
  let txId = load<u64>(m + R_MULTI_SIG_NEXT_TX_ID);
  let threshold = <u32>load<u8>(m + R_MULTI_SIG_THRESHOLD);
  // next_tx_id + 1, in place through a rewrite of the record
  bufSetLen(rec, 0);
  bufBytes(rec, m, <u32>valLen(me));
  store<u64>(bufPtr(rec) + R_MULTI_SIG_NEXT_TX_ID, txId + 1);
  setValue(me, bufPtr(rec), bufLen(rec));
  bufSetLen(rec, 0);
  bufU8(rec, VERSION);
  bufU8(rec, TX_PENDING);
  bufBytes(rec, user, 32);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufU64(rec, ctxTimestamp + MULTISIG_TX_LIFETIME);
  bufU64(rec, 0);
  bufU16(rec, 0);
  bufU32(rec, 1);
  bufBytes(rec, user, 32);
  bufU32(rec, descLen);
  bufBytes(rec, desc, descLen);
  bufU32(rec, opsLen);
  bufBytes(rec, ops, opsLen);
  let te = txEntry(ms, txId);
  setValue(te, bufPtr(rec), bufLen(rec));
  txEvent(ms, txId, user, ACTION_PROPOSED, 1, bundleIndex, opIndex);
  if (threshold <= 1) execute(ms, txId, bundleIndex, opIndex);
  return S.OK;
}

/** Where a MultiSigTx record's operations field starts (its u32 length, then the bytes). */
function opsOffset(t: usize): usize {
  let n = load<u32>(t + R_MULTI_SIG_TX_APPROVALS);
  let p = t + R_MULTI_SIG_TX_APPROVALS_DATA + (<usize>n << 5);
  return p + 4 + <usize>load<u32>(p); // skip the description
}

/**
 * ApproveMultiSigTx / RevokeMultiSigApproval { multisig, tx_id }: MULTISIG_NOT_FOUND →
 * NOT_MULTISIG_SIGNER → MULTISIG_TX_NOT_FOUND → MULTISIG_TX_NOT_PENDING → MULTISIG_TX_EXPIRED →
 * ALREADY_APPROVED / NOT_APPROVED. The approval that reaches the threshold executes the proposal.
 */
export function execApproveMultiSigTx(user: usize, op: usize, approve: bool, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, OPR_FIELDS);
  let ms = f;
  let txId = load<u64>(f + OPF_APPROVE_MULTI_SIG_TX_TX_ID); // RevokeMultiSigApproval.tx_id: the same offset
  let me = multisigEntry(ms);
  if (!exists(me)) return S.MULTISIG_NOT_FOUND;
  if (!isSigner(valPtr(me), user)) return S.NOT_MULTISIG_SIGNER;
  let threshold = <u32>load<u8>(valPtr(me) + R_MULTI_SIG_THRESHOLD);
  let te = txEntry(ms, txId);
  if (!exists(te)) return S.MULTISIG_TX_NOT_FOUND;
  let t = valPtr(te);
  if (load<u8>(t + R_MULTI_SIG_TX_STATE) != TX_PENDING) return S.MULTISIG_TX_NOT_PENDING;
  if (ctxTimestamp > load<u64>(t + R_MULTI_SIG_TX_EXPIRES_AT)) return S.MULTISIG_TX_EXPIRED;
  let n = load<u32>(t + R_MULTI_SIG_TX_APPROVALS);
  let at: i32 = -1;
  for (let i: u32 = 0; i < n; i++) if (bytesEq(t + R_MULTI_SIG_TX_APPROVALS_DATA + (<usize>i << 5), user, 32)) at = <i32>i;
  if (approve && at >= 0) return S.ALREADY_APPROVED;
  if (!approve && at < 0) return S.NOT_APPROVED;
  let len = <u32>valLen(te);
  bufSetLen(rec, 0);
  bufBytes(rec, t, <u32>R_MULTI_SIG_TX_APPROVALS_DATA);
  for (let i: u32 = 0; i < n; i++) if (<i32>i != at) bufBytes(rec, t + R_MULTI_SIG_TX_APPROVALS_DATA + (<usize>i << 5), 32);
  if (approve) bufBytes(rec, user, 32);
  let tail = R_MULTI_SIG_TX_APPROVALS_DATA + (<usize>n << 5);
  bufBytes(rec, t + tail, len - <u32>tail);
  let count = approve ? n + 1 : n - 1;
  store<u32>(bufPtr(rec) + R_MULTI_SIG_TX_APPROVALS, count);
  setValue(te, bufPtr(rec), bufLen(rec));
  txEvent(ms, txId, user, approve ? ACTION_APPROVED : ACTION_REVOKED, count, bundleIndex, opIndex);
  if (approve && count >= threshold) execute(ms, txId, bundleIndex, opIndex);
  return S.OK;
}

/**
 * Run a proposal's operations as the multi-sig, all or nothing: inside a checkpoint, reverted with
 * their events at the first failure. The proposal then records executed (1) or failed (2), the
 * height and the status, and MultiSigTxExecuted closes the run. The operations' gas was paid with
 * the proposal; a CreateToken takes the tx id as its nonce (a multi-sig sends no bundles).
 */
function execute(ms: usize, txId: u64, bundleIndex: u32, opIndex: u32): void {
  let te = txEntry(ms, txId);
  let t = valPtr(te);
  let o = opsOffset(t);
  let opsLen = load<u32>(o);
  memory.copy(MS_BYTES, o + 4, opsLen);
  memory.copy(ADDR, ms, 32);
  readerInit(MS_BYTES, opsLen);
  let st = decodeOps(MS_OPS, MAX_MULTISIG_OPS, true); // checked when proposed
  let count = opsCount;
  let jm = mark();
  let em = eventsMark();
  let ec = eventCount;
  let payer = balanceEntry(ADDR, NTV_MINT);
  for (let k: u32 = 0; k < count && st == S.OK; k++) {
    let rop = MS_OPS + (<usize>k << 5);
    let kind = load<u32>(rop);
    if (kind == OP_TRANSFER) st = execTransfer(ADDR, <usize>load<u32>(rop, OPR_FIELDS), bundleIndex, opIndex, payer);
    else if (kind == OP_CREATE_TOKEN) st = execCreateToken(ADDR, rop, txId, bundleIndex, opIndex);
    else st = execOther(kind, ADDR, rop, bundleIndex, opIndex);
  }
  if (st != S.OK) {
    revertTo(jm);
    eventsRevert(em, ec);
  }
  te = txEntry(ms, txId);
  t = valPtr(te);
  let len = <u32>valLen(te);
  bufSetLen(rec, 0);
  bufBytes(rec, t, len);
  store<u8>(bufPtr(rec) + R_MULTI_SIG_TX_STATE, st == S.OK ? TX_EXECUTED : TX_FAILED);
  store<u64>(bufPtr(rec) + R_MULTI_SIG_TX_EXECUTED_HEIGHT, ctxHeight);
  store<u16>(bufPtr(rec) + R_MULTI_SIG_TX_STATUS, <u16>st);
  setValue(te, bufPtr(rec), len);
  emitMultiSigTxExecuted(bundleIndex, <u16>opIndex, ms, txId, <u16>st);

}
