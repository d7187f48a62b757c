// apply_block: every bundle in order, each inside its own checkpoint within the block
// (DESIGN.md "The core"; docs/core-abi.md "Rules"; spec §5.8 nonces, §7.5 atomic bundles, §8 gas).
//
// Order of checks (the reference model in testkit/reference.ts follows the same order):
//   decode (MALFORMED_BUNDLE, EMPTY_BUNDLE, TOO_MANY_OPS, OP_NOT_ENABLED) → envelope/auth
//   (UNSIGNED_NOT_ALLOWED, KEY_NOT_AUTHORIZED, PUBKEY_MISMATCH) → EXPIRED → NONCE_TOO_LOW/HIGH →
//   MAX_GAS_TOO_LOW → OUT_OF_GAS (failed) → BLOCK_GAS_LIMIT → INSUFFICIENT_FEE_BALANCE →
//   [checkpoint] key registration, fee, operations in order (first failure reverts the bundle).

import * as S from "./status";
import * as U from "./u128";
import { readerInit, take, rU8, rU32, rU64, rBool, rVec, vecLen, bad, rp, rend } from "./borsh";
import {
  decodeBundle, OPS, bUser, bOpCount, bMaxGas, bPriorityFee, bValidUntil, bNonce, bHasExpiry, bExpiry, bHasPubkey, bPubkey, bPubkeyLen, bSigLen,
} from "./bundle";
import { execOther } from "./ops/dispatch";
import { execTop } from "./ops/dispatch-top";
import { TREASURY_DIVISOR, opGas } from "./gas";
import { GAS_BASE, R_KEY_KEY_TYPE, R_KEY_ROLE, R_KEY_PUBKEY } from "./abi";
import { accountEntry, balanceEntry, keyRecordEntry } from "./keys";
import { exists, mark, revertTo, setValue, valPtr, valLen } from "./state";
import { accKeyCount, accNonce, accStore, balLoad, balStore, credit } from "./ledger";
import {
  eventCount, eventsMark, eventsReset, eventsRevert, events,
} from "./events";
import { emitFee, emitKeyRegistered } from "./events-gen";
import { bufNew, bufSetLen, bufLen, bufPtr, bufReserve, bufU32, bufU64, bufBytes, bufU8, bytesEq } from "./mem";
import {
  setAuth, setContext, ctxTimestamp, ctxGasPrice, ctxAllowUnsigned, ctxBlockGasLimit, PROPOSER, TREASURY, NTV_MINT,
} from "./context";
import { execTransfer } from "./ops/transfer";
import { consumeNonce, failedCount, failedListed, hashBundle, recordFailure } from "./replay";
import { endBlock } from "./domains/staking/rewards";
import { upgradesEndBlock } from "./domains/upgrades/ops";
import { processSchedules, setRunCost, RUN_OPS, RUN_OWNER, runOpCount } from "./domains/schedules/ops";

/** Skipped leaders one block may name (a round bound far above any failover chain). */
// @ts-ignore: decorator
@inline const MAX_MISSED: u32 = 1000;
import {
  AUTH_UNSIGNED, AUTH_ED25519, AUTH_EVM, ED25519_SIGNATURE_BYTES, ED25519_PUBLIC_KEY_BYTES, ML_DSA_65_SIGNATURE_BYTES, ML_DSA_65_PUBLIC_KEY_BYTES,
} from "./abi";
import { writeKeyRecord, setKeyCount, isAccountAdminOp } from "./ops/accounts";
import { ROLE_OWNER } from "./abi";
import { BUNDLE_LEVEL_OP, OP_TRANSFER, SCHEDULE_RUN_INDEX } from "./abi";
import { OPR_FIELDS } from "./decode-ops";

const results = bufNew(1 << 16);

let blockGas: u64 = 0;
let proposerBal: usize = 0;
let treasuryBal: usize = 0;
let feesLo: u64 = 0;
let feesHi: u64 = 0;


function result(status: u32, gas: u64, feeLo: u64, feeHi: u64, nonce: u64): void {
  let p = bufReserve(results, 34);
  store<u16>(p, <u16>status, 0);
  store<u64>(p, gas, 2);
  store<u64>(p, feeLo, 10);
  store<u64>(p, feeHi, 18);
  store<u64>(p, nonce, 26);
  bufSetLen(results, bufLen(results) + 34);
}

/** Execute one bundle; appends its BundleResult. */
function execBundle(index: u32, bytes: usize, len: u32, auth: u8, keyHash: usize, pubkey: usize, pubkeyLen: u32): void {
  let st = decodeBundle(bytes, len);
  if (st != S.OK) {
    result(st, 0, 0, 0, 0);
    return;
  }
  let user = bUser;
  let nonce = bNonce;

  // Authorization (spec §5.3, §5.6; docs/core-abi.md "Authorization"). The host verified the
  // signature with the key whose SHA256 is keyHash; here we decide whether that key may act.
  // The envelope's auth must agree with the signature length (0 ↔ empty, 1 ↔ 64 B, 2 ↔ 3,309 B,
  // 3 ↔ any other length: the raw secp256k1-signed EVM transaction, docs/eth.md).
  let acct = accountEntry(user);
  let acctNonce = accNonce(acct);
  let keyCount = accKeyCount(acct);
  let reveal = false;
  let evm = auth == AUTH_EVM;
  let expectSig: u32 = auth == AUTH_UNSIGNED ? 0 : auth == AUTH_ED25519 ? ED25519_SIGNATURE_BYTES : ML_DSA_65_SIGNATURE_BYTES;
  if (auth > AUTH_EVM || (evm ? bSigLen == 0 || bSigLen == ED25519_SIGNATURE_BYTES || bSigLen == ML_DSA_65_SIGNATURE_BYTES : expectSig != bSigLen)) {
    result(S.MALFORMED_BUNDLE, 0, 0, 0, nonce);
    return;
  }
  if (auth == AUTH_UNSIGNED) {
    if (!ctxAllowUnsigned) { result(S.UNSIGNED_NOT_ALLOWED, 0, 0, 0, nonce); return; }
  } else if (evm) {
    // The host recovered the EVM sender from the transaction's signature and passes its
    // right-aligned 32-byte account as keyHash (facts.md "Addresses"). Such a bundle may act only
    // for exactly that account, and only for an EVM-form account (12 leading zero bytes), so no
    // native (SHA256-derived) account can ever be driven by a secp256k1 key. No key record is
    // written: the address itself is the authorization, as on Ethereum.
    if (!bytesEq(keyHash, user, 32) || load<u64>(user) != 0 || load<u32>(user, 8) != 0) {
      result(S.KEY_NOT_AUTHORIZED, 0, 0, 0, nonce);
      return;
    }
    if (bHasPubkey) { result(S.PUBKEY_MISMATCH, 0, 0, 0, nonce); return; }
  } else {
    let kr = keyRecordEntry(user, keyHash);
    if (exists(kr)) {
      // A registered key of the other scheme cannot have produced this signature kind.
      if (valLen(kr) < <i32>R_KEY_PUBKEY || load<u8>(valPtr(kr) + R_KEY_KEY_TYPE) != auth - 1) { result(S.KEY_NOT_AUTHORIZED, 0, 0, 0, nonce); return; }
      // An operator key may do everything but manage the account's keys and recovery
      // (docs/accounts.md "Roles"); unsigned, EVM and revealed senders act as owners.
      if (load<u8>(valPtr(kr) + R_KEY_ROLE) != ROLE_OWNER) {
        for (let k: u32 = 0; k < bOpCount; k++) {
          if (isAccountAdminOp(load<u32>(OPS + (<usize>k << 5)))) { result(S.KEY_ROLE_NOT_ALLOWED, 0, 0, 0, nonce); return; }
        }
      }
    } else if (keyCount == 0) {
      // First signed send: the key must be the revealed sender_pubkey and hash to the account.
      if (!bytesEq(keyHash, user, 32)) { result(S.PUBKEY_MISMATCH, 0, 0, 0, nonce); return; }
      let want: u32 = auth == AUTH_ED25519 ? ED25519_PUBLIC_KEY_BYTES : ML_DSA_65_PUBLIC_KEY_BYTES;
      if (!bHasPubkey || bPubkeyLen != want || pubkeyLen != want || !bytesEq(pubkey, bPubkey, want)) {
        { result(S.PUBKEY_MISMATCH, 0, 0, 0, nonce); return; }
      }
      reveal = true;
    } else {
      { result(S.KEY_NOT_AUTHORIZED, 0, 0, 0, nonce); return; }
    }
  }

  if (ctxTimestamp > bValidUntil || (bHasExpiry && ctxTimestamp > bExpiry)) { result(S.EXPIRED, 0, 0, 0, nonce); return; }
  if (nonce < acctNonce) { result(S.NONCE_TOO_LOW, 0, 0, 0, nonce); return; }
  if (nonce > acctNonce) { result(S.NONCE_TOO_HIGH, 0, 0, 0, nonce); return; }
  // A bundle that already failed at this nonce is not included again (assembly/replay.ts).
  let listed = failedCount(acct) > 0;
  if (listed) {
    hashBundle(bytes, len);
    if (failedListed(acct)) { result(S.ALREADY_INCLUDED, 0, 0, 0, nonce); return; }
  }
  if (bMaxGas < GAS_BASE) { result(S.MAX_GAS_TOO_LOW, 0, 0, 0, nonce); return; }

  // spec §8: gas depends on the operations only. A bundle that is given less than it needs
  // fails OUT_OF_GAS and pays for all the gas it was given, as on Ethereum.
  let gas = GAS_BASE;
  for (let k: u32 = 0; k < bOpCount; k++) {
    gas += opGas(OPS + (<usize>k << 5));
  }
  let outOfGas = gas > bMaxGas;
  if (outOfGas) gas = bMaxGas;
  if (gas > ctxBlockGasLimit - blockGas) { result(S.BLOCK_GAS_LIMIT, 0, 0, 0, nonce); return; }

  // fee = gas × (gas_price + max_priority_fee), 64×64→128 per term, checked sum (spec §1.8, §8).
  U.mul64(gas, ctxGasPrice);
  let aLo = U.lo, aHi = U.hi;
  U.mul64(gas, bPriorityFee);
  let over = U.add128(aLo, aHi, U.lo, U.hi);
  let feeLo = U.lo, feeHi = U.hi;
  let payer = balanceEntry(user, NTV_MINT);
  balLoad(payer);
  if (over || U.lt128(U.lo, U.hi, feeLo, feeHi)) { result(S.INSUFFICIENT_FEE_BALANCE, 0, 0, 0, nonce); return; }
  if (outOfGas) {
    failBundle(S.OUT_OF_GAS, index, user, acct, nonce, keyCount, gas, feeLo, feeHi, payer, bytes, len, listed, evm);
    return;
  }

  // Checkpoint: from here a failure reverts everything the bundle did but its fee (spec §7.5).
  let jm = mark();
  let em = eventsMark();
  let ec = eventCount;
  let savedKeyCount = keyCount;
  st = S.OK;
  if (reveal) {
    // The revealed key's record, as AddKey writes one (docs/accounts.md "State layout"); the
    // account's key_count is 1 from here, so operations of this bundle see the key.
    writeKeyRecord(keyRecordEntry(user, keyHash), <u8>(auth - 1), ROLE_OWNER, pubkey, pubkeyLen);
    setKeyCount(user, 1);
    emitKeyRegistered(index, BUNDLE_LEVEL_OP, user, keyHash, <u8>(auth - 1));
  }
  chargeFee(index, user, payer, feeLo, feeHi);
  setAuth(auth); // the STD-8 quantum requirement reads it (docs/stablecoins.md)
  for (let k: u32 = 0; k < bOpCount && st == S.OK; k++) {
    let op = OPS + (<usize>k << 5);
    let kind = load<u32>(op);
    st = execTop(kind, user, op, nonce, payer, index, k); // generated from the rows' handlers (abi/operations.mjs)
  }
  if (st != S.OK) {
    revertTo(jm);
    eventsRevert(em, ec);
    failBundle(st, index, user, acct, nonce, savedKeyCount, gas, feeLo, feeHi, payer, bytes, len, listed, evm);
    return;
  }
  // key_count as the bundle left it: revelation, AddKey, RemoveKey or a recovery may change it.
  accStore(acct, nonce + 1, accKeyCount(acct));
  settle(gas, feeLo, feeHi);
  result(S.OK, gas, feeLo, feeHi, nonce);
}

/**
 * Take the fee from the payer's NTV balance (covered: checked before) and split it 80/20 between
 * the proposer and the treasury, rounding the treasury's part down (spec §1.8), with its Fee event.
 * The credits cannot overflow: every NTV balance is part of NTV's u128 total supply.
 */
function chargeFee(index: u32, user: usize, payer: usize, feeLo: u64, feeHi: u64): void {
  if ((feeLo | feeHi) == 0) return;
  balLoad(payer);
  U.sub128(U.lo, U.hi, feeLo, feeHi);
  balStore(payer, U.lo, U.hi);
  U.divSmall(feeLo, feeHi, TREASURY_DIVISOR);
  let tLo = U.lo, tHi = U.hi;
  U.sub128(feeLo, feeHi, tLo, tHi);
  let pLo = U.lo, pHi = U.hi;
  assert(credit(proposerBal, pLo, pHi) && credit(treasuryBal, tLo, tHi), "fee credit overflow");
  emitFee(index, BUNDLE_LEVEL_OP, user, PROPOSER, pLo, pHi, TREASURY, tLo, tHi);

}

/**
 * One run of a due schedule (assembly/domains/schedules/ops.ts processSchedules): its decoded operations
 * in RUN_OPS, executed as RUN_OWNER inside their own checkpoint like a bundle of those operations.
 * Gas = GAS_BASE + the operations' gas, fee = gas × the block's gas price (no priority fee), paid
 * from the owner's NTV and split as a bundle's; a run that cannot pay does nothing
 * (INSUFFICIENT_FEE_BALANCE), a failing one is reverted but pays. No nonce is used or moved: a run
 * is authorised by the signed CreateSchedule, not by a bundle (docs/schedules.md).
 * Its gas and fee count in the block's gas_used and fees.
 */
function runScheduled(): u32 {
  let user = RUN_OWNER;
  let gas = GAS_BASE;
  for (let k: u32 = 0; k < runOpCount; k++) gas += opGas(RUN_OPS + (<usize>k << 5));
  U.mul64(gas, ctxGasPrice);
  let feeLo = U.lo, feeHi = U.hi;
  let payer = balanceEntry(user, NTV_MINT);
  balLoad(payer);
  if (U.lt128(U.lo, U.hi, feeLo, feeHi)) return S.INSUFFICIENT_FEE_BALANCE;
  let jm = mark();
  let em = eventsMark();
  let ec = eventCount;
  chargeFee(SCHEDULE_RUN_INDEX, user, payer, feeLo, feeHi);
  setAuth(AUTH_UNSIGNED); // a run carries no signature of its own
  let st = S.OK;
  for (let k: u32 = 0; k < runOpCount && st == S.OK; k++) {
    let op = RUN_OPS + (<usize>k << 5);
    let kind = load<u32>(op);
    if (kind == OP_TRANSFER) st = execTransfer(user, <usize>load<u32>(op, OPR_FIELDS), SCHEDULE_RUN_INDEX, k, payer);
    else st = execOther(kind, user, op, SCHEDULE_RUN_INDEX, k); // CreateToken and schedule ops are refused at creation
  }
  if (st != S.OK) {
    revertTo(jm);
    eventsRevert(em, ec);
    chargeFee(SCHEDULE_RUN_INDEX, user, payer, feeLo, feeHi);
  }
  settle(gas, feeLo, feeHi);
  setRunCost(gas, feeLo, feeHi);
  return st;
}

/** Add an included bundle's gas and fee to the block's. */
function settle(gas: u64, feeLo: u64, feeHi: u64): void {
  blockGas += gas;
  assert(!U.add128(feesLo, feesHi, feeLo, feeHi), "block fees overflow"); // bounded by the NTV supply
  feesLo = U.lo;
  feesHi = U.hi;
}

/**
 * A bundle that failed at execution (its effects already reverted): it is included, pays the fee
 * for its gas, keeps its nonce (spec §5.8) and is listed so the same bytes cannot be included
 * again (docs/core-abi.md "Failed bundles: fee and replay").
 */
function failBundle(st: u32, index: u32, user: usize, acct: usize, nonce: u64, keyCount: u16, gas: u64,
                    feeLo: u64, feeHi: u64, payer: usize, bytes: usize, len: u32, hashed: bool, evm: bool): void {
  chargeFee(index, user, payer, feeLo, feeHi);
  if (evm) {
    // An EVM transaction that fails consumes its nonce, as a reverted transaction does on Ethereum
    // (docs/eth.md "EVM semantics"): wallets count on it (viem's waitForTransactionReceipt took the
    // next transaction at a kept nonce for a replacement). The native rule (spec §5.8) is below.
    consumeNonce(acct, nonce, keyCount);
  } else {
    if (!hashed) hashBundle(bytes, len);
    let expiry = bHasExpiry && bExpiry < bValidUntil ? bExpiry : bValidUntil;
    recordFailure(acct, nonce, keyCount, expiry, ctxTimestamp);
  }
  settle(gas, feeLo, feeHi);
  result(st, gas, feeLo, feeHi, nonce);
}

/**
 * BlockInput { ctx: BlockContext, bundles: Vec<BundleInput> } → BlockResult in out.
 * BundleInput { bytes: Vec<u8>, auth: u8, key_hash: [u8;32], pubkey: Vec<u8> }.
 */
export function applyBlock(ptr: usize, len: u32, out: usize): u32 {
  readerInit(ptr, len);
  let height = rU64();
  let timestamp = rU64();
  let proposer = take(32);
  let gasPrice = rU64();
  let chainId = rU64();
  let allowUnsigned = rBool();
  let gasLimit = rU64();
  // missed: consensus keys of the leaders skipped before this proposer (docs/staking.md).
  let nMissed = rU32();
  if (nMissed > MAX_MISSED) return S.INVALID_INPUT;
  let missed = take(nMissed << 5);
  let n = rU32();
  if (bad) return S.INVALID_INPUT;
  setContext(height, timestamp, proposer, gasPrice, chainId, allowUnsigned, gasLimit);
  let okCount: u32 = 0;
  // Every bundle with a fee credits these two: look them up once per block (entries never move).
  proposerBal = balanceEntry(PROPOSER, NTV_MINT);
  treasuryBal = balanceEntry(TREASURY, NTV_MINT);
  blockGas = 0;
  feesLo = 0;
  feesHi = 0;
  bufSetLen(results, 0);
  eventsReset();
  for (let i: u32 = 0; i < n; i++) {
    let bytes = rVec();
    let blen = vecLen;
    let auth = rU8();
    let keyHash = take(32);
    let pk = rVec();
    let pkLen = vecLen;
    if (bad) return S.INVALID_INPUT;
    let saveP = rp, saveEnd = rend;
    execBundle(i, bytes, blen, auth, keyHash, pk, pkLen);
    if (load<u16>(bufPtr(results) + bufLen(results) - 34) == <u16>S.OK) okCount++;
    readerInit(saveP, <u32>(saveEnd - saveP));
  }
  if (rp != rend) return S.INVALID_INPUT;
  // Due schedules run after the bundles (docs/schedules.md): their events, with
  // bundle_index 0xFFFFFFFF, then follow every bundle's, so each bundle's events stay contiguous
  // and in order; a schedule created or cancelled in this block is already seen.
  processSchedules(runScheduled);
  // Upgrade plans: expiry and application at their height (docs/upgrades.md "Plans"), before the
  // miss accounting below reads whether this block lies in an upgrade's grace window.
  upgradesEndBlock(height);
  // Proposer and miss accounting, the block reward, epoch boundaries (assembly/domains/staking/rewards.ts).
  endBlock(height, timestamp, blockGas, gasLimit, okCount, missed, nMissed);
  bufSetLen(out, 0);
  bufU64(out, blockGas);
  bufU64(out, feesLo);
  bufU64(out, feesHi);
  bufU32(out, n);
  bufBytes(out, bufPtr(results), bufLen(results));
  bufU32(out, eventCount);
  bufBytes(out, bufPtr(events), bufLen(events));
  return S.OK;
}
