// Account keys and guardian recovery (spec §2.5, §3 "Account key" and "Account recovery", §5.9;
// docs/accounts.md): AddKey 1, RemoveKey 2, RotateKey 3, SetRecovery 77, InitiateRecovery 78,
// ApproveRecovery 79, CancelRecovery 80, FinalizeRecovery 81.
//
// The host verifies a bundle's signature; the core decides which keys an account has and what each
// key's role allows (assembly/block.ts: an operator key may not send the account-management
// operations, KEY_ROLE_NOT_ALLOWED). Records:
//   0x06 addr key_hash  → key_type u8, role u8, pubkey Vec<u8>, added_height u64, added_at u64
//   0x52 addr           → key hashes registered by AddKey, RotateKey or a recovery (32 bytes each);
//                         a revealed key (spec §5.3: its hash is the account) is not listed
//   0x50 addr           → RecoveryConfig { version, threshold u8, timelock u64, guardians vec32 }
//   0x51 addr           → PendingRecovery { version, key_type u8, initiated_at u64, initiated_height u64,
//                                           approvals vec32, pubkey Vec<u8> }
// key_count in the account record (0x01) counts every registered key, the revealed one included.

import * as S from "../status";
import { entry32, accountEntry, keyRecordEntry } from "../keys";
import { exists, setValue, deleteValue, valPtr, valLen } from "../state";
import { accKeyCount } from "../ledger";
import { ctxHeight, ctxTimestamp, ctxAllowUnsigned } from "../context";
import { emitKeyAdded, emitKeyRemoved, emitRecoveryApproved, emitRecoveryCancelled, emitRecoveryFinalized, emitRecoveryInitiated, emitRecoverySet } from "../events-gen";
import { bufNew, bufPtr, bufLen, bufSetLen, bufBytes, bufU8, bufU32, bufU64, bytesEq } from "../mem";
import { sha256 } from "../sha256";
import {
  OP_ADD_KEY, OP_REMOVE_KEY, OP_ROTATE_KEY, OP_SET_RECOVERY, OP_CANCEL_RECOVERY, ED25519_PUBLIC_KEY_BYTES, ML_DSA_65_PUBLIC_KEY_BYTES, KEY_TYPE_ED25519, KEY_TYPE_ML_DSA_65, ROLE_OWNER, ROLE_OPERATOR,
  MAX_ACCOUNT_KEYS, MAX_GUARDIANS, RECOVERY_MIN_TIMELOCK, RECOVERY_MIN_TIMELOCK_TESTNET, RECOVERY_MAX_TIMELOCK,
  P_KEY_LIST, P_RECOVERY, P_RECOVERY_PENDING,
  EV_KEY_ADDED, EV_KEY_REMOVED,
  R_PENDING_RECOVERY_APPROVALS, R_PENDING_RECOVERY_APPROVALS_DATA, R_PENDING_RECOVERY_INITIATED_AT, R_PENDING_RECOVERY_KEY_TYPE, R_RECOVERY_CONFIG_GUARDIANS, R_RECOVERY_CONFIG_GUARDIANS_DATA, R_RECOVERY_CONFIG_THRESHOLD, R_RECOVERY_CONFIG_TIMELOCK,
  R_ACCOUNT_FAILED, R_ACCOUNT_KEY_COUNT, R_KEY_ROLE,
  OPF_APPROVE_RECOVERY_NEW_KEY_HASH,
} from "../abi";
import { OPR_FIELDS, OPR_ADD_KEY_PUBKEY, OPR_ADD_KEY_KEY_TYPE, OPR_ADD_KEY_ROLE, OPR_ADD_KEY_PUBKEY_LEN, OPR_ROTATE_KEY_OLD_KEY_HASH, OPR_ROTATE_KEY_KEY_TYPE, OPR_ROTATE_KEY_PUBKEY, OPR_ROTATE_KEY_PUBKEY_LEN, OPR_SET_RECOVERY_GUARDIANS, OPR_SET_RECOVERY_GUARDIAN_COUNT, OPR_SET_RECOVERY_THRESHOLD, OPR_SET_RECOVERY_TIMELOCK, OPR_INITIATE_RECOVERY_ACCOUNT, OPR_INITIATE_RECOVERY_KEY_TYPE, OPR_INITIATE_RECOVERY_PUBKEY, OPR_INITIATE_RECOVERY_PUBKEY_LEN } from "../decode-ops";

// @ts-ignore: decorator
@inline const VERSION: u8 = 1;

const HASH = memory.data(32);
const HASH2 = memory.data(32);
const rec = bufNew(2048);
const list = bufNew(512);
const keyCopy = bufNew(2048);

/** The public key length of a key type, 0 for an unknown type. */
export function keyLength(keyType: u32): u32 {
  if (keyType == <u32>KEY_TYPE_ED25519) return ED25519_PUBLIC_KEY_BYTES;
  if (keyType == <u32>KEY_TYPE_ML_DSA_65) return ML_DSA_65_PUBLIC_KEY_BYTES;
  return 0;
}

/**
 * Write the key record 0x06 addr key_hash: key_type, role, pubkey, and the block that added it.
 * The revelation of assembly/block.ts writes the same layout.
 */
export function writeKeyRecord(e: usize, keyType: u8, role: u8, pubkey: usize, pubkeyLen: u32): void {
  bufSetLen(rec, 0);
  bufU8(rec, keyType);
  bufU8(rec, role);
  bufU32(rec, pubkeyLen);
  bufBytes(rec, pubkey, pubkeyLen);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  setValue(e, bufPtr(rec), bufLen(rec));
}

/** Set an account's key_count, keeping its nonce and its failed-bundle list (docs/core-abi.md). */
export function setKeyCount(account: usize, n: u32): void {
  let e = accountEntry(account);
  let len = valLen(e);
  bufSetLen(rec, 0);
  if (len < <i32>R_ACCOUNT_FAILED) {
    bufU64(rec, 0);
    bufU8(rec, 0);
    bufU8(rec, 0);
  } else {
    bufBytes(rec, valPtr(e), <u32>len);
  }
  store<u16>(bufPtr(rec) + R_ACCOUNT_KEY_COUNT, <u16>n);
  setValue(e, bufPtr(rec), bufLen(rec));
}

function keyListEntry(account: usize): usize {
  return entry32(P_KEY_LIST, account);
}

/** Add or remove `hash` in the account's key list (0x52; deleted when empty). */
function listEdit(account: usize, hash: usize, add: bool): void {
  let e = keyListEntry(account);
  bufSetLen(list, 0);
  if (exists(e)) {
    let n = <u32>valLen(e) >> 5;
    for (let i: u32 = 0; i < n; i++) {
      let h = valPtr(e) + (<usize>i << 5);
      if (!bytesEq(h, hash, 32)) bufBytes(list, h, 32);
    }
  }
  if (add) bufBytes(list, hash, 32);
  if (bufLen(list) == 0) deleteValue(e);
  else setValue(e, bufPtr(list), bufLen(list));
}

/** Owner-role keys of the account: the listed ones and a revealed one (its hash is the account). */
function ownerKeys(account: usize): u32 {
  let count: u32 = 0;
  let e = keyListEntry(account);
  if (exists(e)) {
    let n = <u32>valLen(e) >> 5;
    for (let i: u32 = 0; i < n; i++) {
      memory.copy(HASH2, valPtr(keyListEntry(account)) + (<usize>i << 5), 32);
      let k = keyRecordEntry(account, HASH2);
      if (exists(k) && load<u8>(valPtr(k) + R_KEY_ROLE) == ROLE_OWNER) count++;
    }
  }
  if (!inList(account, account)) {
    let k = keyRecordEntry(account, account);
    if (exists(k) && load<u8>(valPtr(k) + R_KEY_ROLE) == ROLE_OWNER) count++;
  }
  return count;
}

function inList(account: usize, hash: usize): bool {
  let e = keyListEntry(account);
  if (!exists(e)) return false;
  let n = <u32>valLen(e) >> 5;
  for (let i: u32 = 0; i < n; i++) if (bytesEq(valPtr(e) + (<usize>i << 5), hash, 32)) return true;
  return false;
}

function keyEvent(kind: u8, account: usize, hash: usize, keyType: u8, role: u8, bundleIndex: u32, opIndex: u32): void {
  if (kind == EV_KEY_ADDED) emitKeyAdded(bundleIndex, <u16>opIndex, account, hash, keyType, role);
  else emitKeyRemoved(bundleIndex, <u16>opIndex, account, hash);
}

/** Register a new key (its hash already in HASH) and count it. */
function addKey(user: usize, keyType: u8, role: u8, pk: usize, pkLen: u32, bundleIndex: u32, opIndex: u32): void {
  writeKeyRecord(keyRecordEntry(user, HASH), keyType, role, pk, pkLen);
  listEdit(user, HASH, true);
  keyEvent(EV_KEY_ADDED, user, HASH, keyType, role, bundleIndex, opIndex);
}

/** Delete a registered key (hash at `hash`, not HASH's scratch when it is the argument of listEdit). */
function dropKey(user: usize, hash: usize, bundleIndex: u32, opIndex: u32): void {
  deleteValue(keyRecordEntry(user, hash));
  listEdit(user, hash, false);
  keyEvent(EV_KEY_REMOVED, user, hash, 0, 0, bundleIndex, opIndex);
}

/**
 * AddKey { pubkey, key_type, role }: INVALID_KEY → INVALID_KEY_ROLE → KEY_EXISTS → TOO_MANY_KEYS.
 */
export function execAddKey(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let pk = <usize>load<u32>(op, OPR_ADD_KEY_PUBKEY);
  let kt = load<u32>(op, OPR_ADD_KEY_KEY_TYPE);
  let role = load<u32>(op, OPR_ADD_KEY_ROLE);
  let pkLen = load<u32>(op, OPR_ADD_KEY_PUBKEY_LEN);
  let want = keyLength(kt);
  if (want == 0 || pkLen != want) return S.INVALID_KEY;
  if (role > <u32>ROLE_OPERATOR) return S.INVALID_KEY_ROLE;
  sha256(pk, pkLen, HASH);
  if (exists(keyRecordEntry(user, HASH))) return S.KEY_EXISTS;
  let count = <u32>accKeyCount(accountEntry(user));
  if (count >= MAX_ACCOUNT_KEYS) return S.TOO_MANY_KEYS;
  addKey(user, <u8>kt, <u8>role, pk, pkLen, bundleIndex, opIndex);
  setKeyCount(user, count + 1);
  return S.OK;
}

/** RemoveKey { pubkey_hash }: KEY_NOT_FOUND → LAST_OWNER_KEY (the account keeps an owner key). */
export function execRemoveKey(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  memory.copy(HASH, <usize>load<u32>(op, OPR_FIELDS), 32);
  let k = keyRecordEntry(user, HASH);
  if (!exists(k)) return S.KEY_NOT_FOUND;
  if (load<u8>(valPtr(k) + R_KEY_ROLE) == ROLE_OWNER && ownerKeys(user) <= 1) return S.LAST_OWNER_KEY;
  let count = <u32>accKeyCount(accountEntry(user));
  dropKey(user, HASH, bundleIndex, opIndex);
  setKeyCount(user, count - 1);
  return S.OK;
}

/**
 * RotateKey { old_pubkey_hash, new_pubkey, new_key_type }: an atomic swap, the new key taking the
 * old one's role. INVALID_KEY → KEY_NOT_FOUND → KEY_EXISTS.
 */
export function execRotateKey(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let old = <usize>load<u32>(op, OPR_ROTATE_KEY_OLD_KEY_HASH);
  let kt = load<u32>(op, OPR_ROTATE_KEY_KEY_TYPE);
  let pk = <usize>load<u32>(op, OPR_ROTATE_KEY_PUBKEY);
  let pkLen = load<u32>(op, OPR_ROTATE_KEY_PUBKEY_LEN);
  let want = keyLength(kt);
  if (want == 0 || pkLen != want) return S.INVALID_KEY;
  memory.copy(HASH2, old, 32);
  let k = keyRecordEntry(user, HASH2);
  if (!exists(k)) return S.KEY_NOT_FOUND;
  let role = load<u8>(valPtr(k) + R_KEY_ROLE);
  sha256(pk, pkLen, HASH);
  if (exists(keyRecordEntry(user, HASH))) return S.KEY_EXISTS;
  dropKey(user, HASH2, bundleIndex, opIndex);
  addKey(user, <u8>kt, role, pk, pkLen, bundleIndex, opIndex);
  return S.OK;
}

// ---------------------------------------------------------------- recovery

function recoveryEntry(account: usize): usize {
  return entry32(P_RECOVERY, account);
}

function pendingEntry(account: usize): usize {
  return entry32(P_RECOVERY_PENDING, account);
}

// RecoveryConfig: version u8, threshold u8, timelock u64, count u32, guardians [32]…
// PendingRecovery: version u8, key_type u8, initiated_at u64, initiated_height u64, count u32,
// approvals [32]…, pubkey Vec<u8>

/** Whether `who` is among `n` 32-byte accounts at `p`. */
function listed(p: usize, n: u32, who: usize): bool {
  for (let i: u32 = 0; i < n; i++) if (bytesEq(p + (<usize>i << 5), who, 32)) return true;
  return false;
}

/** Whether `n` 32-byte accounts at `p` are distinct. */
export function distinct(p: usize, n: u32): bool {
  for (let i: u32 = 1; i < n; i++) if (listed(p, i, p + (<usize>i << 5))) return false;
  return true;
}

/**
 * SetRecovery { guardians, threshold, timelock } for the sender's own account: INVALID_GUARDIANS
 * (1–10 distinct, not the account) → INVALID_THRESHOLD → INVALID_TIMELOCK → RECOVERY_PENDING.
 */
export function execSetRecovery(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let g = <usize>load<u32>(op, OPR_SET_RECOVERY_GUARDIANS);
  let n = load<u32>(op, OPR_SET_RECOVERY_GUARDIAN_COUNT);
  let threshold = load<u32>(op, OPR_SET_RECOVERY_THRESHOLD);
  let timelock = load<u64>(<usize>load<u32>(op, OPR_SET_RECOVERY_TIMELOCK));
  if (n == 0 || n > MAX_GUARDIANS || !distinct(g, n) || listed(g, n, user)) return S.INVALID_GUARDIANS;
  if (threshold == 0 || threshold > n) return S.INVALID_THRESHOLD;
  let min = ctxAllowUnsigned ? RECOVERY_MIN_TIMELOCK_TESTNET : RECOVERY_MIN_TIMELOCK;
  if (timelock < min || timelock > RECOVERY_MAX_TIMELOCK) return S.INVALID_TIMELOCK;
  if (exists(pendingEntry(user))) return S.RECOVERY_PENDING;
  bufSetLen(rec, 0);
  bufU8(rec, VERSION);
  bufU8(rec, <u8>threshold);
  bufU64(rec, timelock);
  bufU32(rec, n);
  bufBytes(rec, g, n << 5);
  setValue(recoveryEntry(user), bufPtr(rec), bufLen(rec));
  emitRecoverySet(bundleIndex, <u16>opIndex, user, <u8>threshold, <u8>n, timelock);
  return S.OK;
}

/**
 * InitiateRecovery { account, new_pubkey, key_type } by a guardian, whose approval it records:
 * RECOVERY_NOT_CONFIGURED → NOT_GUARDIAN → INVALID_KEY → RECOVERY_PENDING.
 */
export function execInitiateRecovery(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let account = <usize>load<u32>(op, OPR_INITIATE_RECOVERY_ACCOUNT);
  let kt = load<u32>(op, OPR_INITIATE_RECOVERY_KEY_TYPE);
  let pk = <usize>load<u32>(op, OPR_INITIATE_RECOVERY_PUBKEY);
  let pkLen = load<u32>(op, OPR_INITIATE_RECOVERY_PUBKEY_LEN);
  let c = recoveryEntry(account);
  if (!exists(c)) return S.RECOVERY_NOT_CONFIGURED;
  let cfg = valPtr(c);
  if (!listed(cfg + R_RECOVERY_CONFIG_GUARDIANS_DATA, load<u32>(cfg + R_RECOVERY_CONFIG_GUARDIANS), user)) return S.NOT_GUARDIAN;
  let timelock = load<u64>(cfg + R_RECOVERY_CONFIG_TIMELOCK);
  let want = keyLength(kt);
  if (want == 0 || pkLen != want) return S.INVALID_KEY;
  let pe = pendingEntry(account);
  if (exists(pe)) return S.RECOVERY_PENDING;
  bufSetLen(rec, 0);
  bufU8(rec, VERSION);
  bufU8(rec, <u8>kt);
  bufU64(rec, ctxTimestamp);
  bufU64(rec, ctxHeight);
  bufU32(rec, 1);
  bufBytes(rec, user, 32);
  bufU32(rec, pkLen);
  bufBytes(rec, pk, pkLen);
  setValue(pe, bufPtr(rec), bufLen(rec));
  sha256(pk, pkLen, HASH);
  emitRecoveryInitiated(bundleIndex, <u16>opIndex, account, user, HASH, <u8>kt, ctxTimestamp + timelock); // timelock ≤ 30 days: no overflow for any real block time
  return S.OK;
}

/** The pending recovery's key: its hash into HASH; returns the pubkey pointer, length in pkLenOut. */
let pkLenOut: u32 = 0;
function pendingKey(pr: usize): usize {
  let n = load<u32>(pr + R_PENDING_RECOVERY_APPROVALS);
  let p = pr + R_PENDING_RECOVERY_APPROVALS_DATA + (<usize>n << 5);
  pkLenOut = load<u32>(p);
  sha256(p + 4, pkLenOut, HASH);
  return p + 4;
}

/**
 * ApproveRecovery { account, new_key_hash } by a further guardian: NO_PENDING_RECOVERY →
 * NOT_GUARDIAN → RECOVERY_KEY_MISMATCH → RECOVERY_ALREADY_APPROVED.
 */
export function execApproveRecovery(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let f = <usize>load<u32>(op, OPR_FIELDS);
  let account = f;
  let pe = pendingEntry(account);
  if (!exists(pe)) return S.NO_PENDING_RECOVERY;
  let cfg = valPtr(recoveryEntry(account)); // present while a recovery is pending (SetRecovery refuses then)
  if (!listed(cfg + R_RECOVERY_CONFIG_GUARDIANS_DATA, load<u32>(cfg + R_RECOVERY_CONFIG_GUARDIANS), user)) return S.NOT_GUARDIAN;
  let pr = valPtr(pe);
  pendingKey(pr);
  if (!bytesEq(HASH, f + OPF_APPROVE_RECOVERY_NEW_KEY_HASH, 32)) return S.RECOVERY_KEY_MISMATCH;
  let n = load<u32>(pr + R_PENDING_RECOVERY_APPROVALS);
  if (listed(pr + R_PENDING_RECOVERY_APPROVALS_DATA, n, user)) return S.RECOVERY_ALREADY_APPROVED;
  // Rewrite with the approval appended after the others.
  let split = R_PENDING_RECOVERY_APPROVALS_DATA + (<usize>n << 5);
  let len = <u32>valLen(pe);
  bufSetLen(rec, 0);
  bufBytes(rec, pr, <u32>split);
  bufBytes(rec, user, 32);
  bufBytes(rec, pr + split, len - <u32>split);
  store<u32>(bufPtr(rec) + R_PENDING_RECOVERY_APPROVALS, n + 1);
  setValue(pe, bufPtr(rec), bufLen(rec));
  emitRecoveryApproved(bundleIndex, <u16>opIndex, account, user, <u8>(n + 1));
  return S.OK;
}

/** CancelRecovery by the owner during the timelock: NO_PENDING_RECOVERY → RECOVERY_TIMELOCK_ELAPSED. */
export function execCancelRecovery(user: usize, bundleIndex: u32, opIndex: u32): u32 {
  let pe = pendingEntry(user);
  if (!exists(pe)) return S.NO_PENDING_RECOVERY;
  let timelock = load<u64>(valPtr(recoveryEntry(user)) + R_RECOVERY_CONFIG_TIMELOCK);
  if (ctxTimestamp - load<u64>(valPtr(pe) + R_PENDING_RECOVERY_INITIATED_AT) >= timelock) return S.RECOVERY_TIMELOCK_ELAPSED;
  deleteValue(pe);
  emitRecoveryCancelled(bundleIndex, <u16>opIndex, user);
  return S.OK;
}

/**
 * FinalizeRecovery { account } by anyone: NO_PENDING_RECOVERY → RECOVERY_TIMELOCK_ACTIVE →
 * RECOVERY_THRESHOLD_NOT_MET; then every key of the account is replaced by the recovery key (owner
 * role) and the pending recovery is deleted; the guardians stay.
 */
export function execFinalizeRecovery(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let account = <usize>load<u32>(op, OPR_FIELDS);
  let pe = pendingEntry(account);
  if (!exists(pe)) return S.NO_PENDING_RECOVERY;
  let cfg = valPtr(recoveryEntry(account));
  let pr = valPtr(pe);
  if (ctxTimestamp - load<u64>(pr + R_PENDING_RECOVERY_INITIATED_AT) < load<u64>(cfg + R_RECOVERY_CONFIG_TIMELOCK)) return S.RECOVERY_TIMELOCK_ACTIVE;
  if (load<u32>(pr + R_PENDING_RECOVERY_APPROVALS) < <u32>load<u8>(cfg + R_RECOVERY_CONFIG_THRESHOLD)) return S.RECOVERY_THRESHOLD_NOT_MET;
  let kt = load<u8>(pr + R_PENDING_RECOVERY_KEY_TYPE);
  let pk = pendingKey(pr);
  let pkLen = pkLenOut;
  // Copy the key out: the pending record is deleted below.
  bufSetLen(keyCopy, 0);
  bufBytes(keyCopy, pk, pkLen);
  // Every listed key, then a revealed one (its hash is the account).
  let le = keyListEntry(account);
  if (exists(le)) {
    let n = <u32>valLen(le) >> 5;
    for (let i: u32 = 0; i < n; i++) {
      memory.copy(HASH2, valPtr(keyListEntry(account)) + (<usize>i << 5), 32);
      deleteValue(keyRecordEntry(account, HASH2));
    }
    deleteValue(keyListEntry(account));
  }
  deleteValue(keyRecordEntry(account, account));
  writeKeyRecord(keyRecordEntry(account, HASH), kt, ROLE_OWNER, bufPtr(keyCopy), pkLen);
  setValue(keyListEntry(account), HASH, 32);
  setKeyCount(account, 1);
  deleteValue(pendingEntry(account));
  emitRecoveryFinalized(bundleIndex, <u16>opIndex, account, HASH, kt);

  return S.OK;
}

/** Whether operation `kind` manages the sender's own keys or recovery (owner keys only). */
export function isAccountAdminOp(kind: u32): bool {
  return kind == OP_ADD_KEY || kind == OP_REMOVE_KEY || kind == OP_ROTATE_KEY || kind == OP_SET_RECOVERY || kind == OP_CANCEL_RECOVERY;
}
