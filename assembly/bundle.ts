// Decoding of one Borsh bundle (docs/bundle-format.md) in place: no copy, pointers into the input.
// Operations land in the fixed OPS table (at most 64, bundle-format "operations: 1 to 64").

import * as S from "./status";
import { readerInit, take, rU8, rU32, rU64, rTag, rBool, rVec, vecLen, atEnd, bad, rp, rend, validUtf8 } from "./borsh";
import { ED25519_PUBLIC_KEY_BYTES, ML_DSA_65_PUBLIC_KEY_BYTES, MAX_SCHEDULE_OPS, SCHEDULE_TRIGGER_RECURRING, SCHEDULE_TRIGGER_CONDITIONAL, SCHEDULE_TRIGGER_RECURRING_BYTES, SCHEDULE_TRIGGER_CONDITIONAL_BYTES } from "./abi";
import {
  BATCH_ENTRY_BYTES, MAX_OPERATIONS, MAX_SIGNATURE_BYTES, OP_BATCH_TRANSFER_MULTI_TOKEN, OP_CANCEL_SCHEDULE,
  OP_CREATE_MULTI_TOKEN_COLLECTION, OP_CREATE_NFT_COLLECTION, OP_CREATE_SCHEDULE, OP_CREATE_TOKEN,
  OP_DEFINE_TOKEN_TYPE, OP_LAST_RESERVED, OP_MINT_NFT, OP_REGISTER_NAME, OP_REGISTER_PROGRAM,
  OP_UPDATE_TOKEN_METADATA, OP_STAKE, OP_SET_POOL_CONFIG, OP_SET_VALIDATOR_METADATA, OP_REPORT_DOUBLE_SIGN,
  OP_ROTATE_CONSENSUS_KEY
} from "./abi";
import {
  OP_CREATE_DAO, OP_DAO_PROPOSE, OP_DAO_UNLOCK, DAO_ACTION_OPERATIONS, OP_CREATE_PROPOSAL, OP_CANCEL_PROPOSAL,
  MAX_PROPOSAL_OPS, PROPOSAL_ACTION_PARAMETER_CHANGE, PROPOSAL_ACTION_PARAMETER_CHANGE_BYTES,
  PROPOSAL_ACTION_TREASURY_SPEND, PROPOSAL_ACTION_TREASURY_SPEND_BYTES, PROPOSAL_ACTION_CONTRACT_SAFETY,
  PROPOSAL_ACTION_COLLECTION_SAFETY, PROPOSAL_ACTION_COLLECTION_SAFETY_BYTES, PROPOSAL_ACTION_CREATE_STABLECOIN,
  PROPOSAL_ACTION_BRIDGE_ATTESTERS
} from "./abi";
import {
  OP_ANCHOR, OP_REGISTER_GAME, OP_SET_GAME_PROFILE, OP_ADD_KEY, OP_ROTATE_KEY, OP_SET_RECOVERY,
  OP_INITIATE_RECOVERY, OP_CREATE_MULTI_SIG, OP_PROPOSE_MULTI_SIG_TX, MAX_MULTISIG_OPS
} from "./abi";
import { OP_SCHEDULE_UPGRADE, OP_CANCEL_UPGRADE, OP_VOTE_UPGRADE } from "./abi";
import { opGas } from "./gas";
import {
  decodeFixedOp, isNotNested, NOT_FIXED, OPR_KIND, OPR_FIELDS, OPR_FIELDS_LEN, OPR_GAS_ENTRIES, OPR_GAS_BYTES,
  OPR_CREATE_TOKEN_NAME, OPR_CREATE_TOKEN_NAME_LEN, OPR_CREATE_TOKEN_SYMBOL, OPR_CREATE_TOKEN_SYMBOL_LEN, OPR_CREATE_TOKEN_DECIMALS,
  OPR_CREATE_TOKEN_SUPPLY, OPR_CREATE_TOKEN_OWNER, OPR_UPDATE_TOKEN_METADATA_MINT, OPR_UPDATE_TOKEN_METADATA_OPTIONS,
  OPR_REGISTER_NAME_NAME, OPR_REGISTER_NAME_NAME_LEN, OPR_SCHEDULE_UPGRADE_NAME, OPR_SCHEDULE_UPGRADE_NAME_LEN, OPR_VOTE_UPGRADE_APPROVE,
  OPR_SCHEDULE_UPGRADE_HEIGHT, OPR_SCHEDULE_UPGRADE_BINARY_URL, OPR_SCHEDULE_UPGRADE_BINARY_URL_LEN, OPR_SCHEDULE_UPGRADE_CHECKSUM,
  OPR_REGISTER_PROGRAM_NAME, OPR_REGISTER_PROGRAM_NAME_LEN, OPR_REGISTER_PROGRAM_PROGRAM, OPR_REGISTER_PROGRAM_PROGRAM_LEN,
  OPR_CREATE_SCHEDULE_TRIGGER_TAG, OPR_CREATE_SCHEDULE_TRIGGER, OPR_CREATE_SCHEDULE_OPERATIONS, OPR_CREATE_SCHEDULE_OPERATIONS_LEN,
  OPR_CREATE_SCHEDULE_OPERATION_COUNT, OPR_CREATE_DAO_NAME, OPR_CREATE_DAO_NAME_LEN, OPR_CREATE_DAO_FIELDS,
  OPR_ADD_KEY_PUBKEY, OPR_ADD_KEY_KEY_TYPE, OPR_ADD_KEY_ROLE, OPR_ROTATE_KEY_OLD_KEY_HASH, OPR_ROTATE_KEY_KEY_TYPE, OPR_ROTATE_KEY_PUBKEY,
  OPR_SET_RECOVERY_GUARDIANS, OPR_SET_RECOVERY_GUARDIAN_COUNT, OPR_SET_RECOVERY_THRESHOLD, OPR_SET_RECOVERY_TIMELOCK,
  OPR_CREATE_MULTI_SIG_LABEL, OPR_CREATE_MULTI_SIG_LABEL_LEN, OPR_PROPOSE_MULTI_SIG_TX_MULTISIG, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION,
  OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS_LEN, OPR_PROPOSE_MULTI_SIG_TX_OPERATION_COUNT,
  OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION_LEN, OPR_PROPOSE_MULTI_SIG_TX_HELD_GAS, OPR_CREATE_PROPOSAL_TITLE, OPR_CREATE_PROPOSAL_TITLE_LEN,
  OPR_CREATE_PROPOSAL_DESCRIPTION, OPR_CREATE_PROPOSAL_DESCRIPTION_LEN, OPR_CREATE_PROPOSAL_STORED_BYTES, OPR_CREATE_PROPOSAL_ACTION,
  OPR_CREATE_PROPOSAL_ACTION_LEN,
} from "./decode-ops";
import { OP_BRIDGE_DEPOSIT, OP_BRIDGE_WITHDRAW, OP_ATTEST_BRIDGE_WITHDRAWAL, OP_REGISTER_BRIDGE_MAPPING, OP_SET_BRIDGE_ATTESTERS, OP_CLAIM_BRIDGE_DEPOSIT, OP_SET_CONTRACT_SAFETY } from "./abi";
import { OP_CREATE_STABLE_TOKEN, OP_STABLE_SET_GUARDIANS, OP_STABLE_CONFIGURE_SECURITY, OP_STABLE_ISSUER_PROOF } from "./abi";

// Discriminants, fixed field sizes and bounds come from the ABI table (abi/operations.mjs →
// assembly/abi.ts; docs/core-abi.md "How the ABI is generated"). Discriminants 1..119 without a
// row are reserved (bundle-format "Operation"); anything above is not an operation at all.

// Op record, 32 bytes: kind u32 then per kind. Every operation whose fields are all fixed is decoded
// by the generated assembly/decode-ops.ts into +4 ptr to its fields, +8 their byte length (the rows
// below that say only "+4 ptr" are those); the others are decoded here. Each slot is named by its
// operation's row (abi/operations.mjs `record`, generated as OPR_* in assembly/decode-ops.ts); the
// summary below is for reading.
//   Transfer:    +4 ptr (to[32] token[32] amount u128)
//   CreateToken: +4 namePtr +8 nameLen +12 symPtr +16 symLen +20 decimals +24 supplyPtr +28 ownerPtr
//   CreatePool, AddLiquidity, RemoveLiquidity, Swap: +4 ptr to the fixed-size fields (104/112/112/96 B)
//   UpdateTokenMetadata: +4 mintPtr +8 ptr to the 8 Option<String> fields (validated here)
//   LockTokenMetadata: +4 mintPtr
//   RegisterName: +4 namePtr +8 nameLen (UTF-8 checked here; characters and length at execution)
//   RegisterProgram: +4 namePtr +8 nameLen +12 jsonPtr +16 jsonLen (UTF-8 checked here)
//   CreateSchedule: +4 trigger tag +8 triggerPtr +12 opsPtr (the Vec<Operation>'s u32 count) +16 its
//     byte length +20 its operation count (the nested operations' shape is checked here)
//   CancelSchedule: +4 ptr to schedule_id[32]
//   Approve, TransferFrom: +4 ptr to the fixed-size fields (80/112 B; docs/allowances.md)
//   CreateProposal: +4 titlePtr +8 titleLen +12 descPtr +16 the bytes it stores (title + description
//     + action, for the gas) +20 descLen +24 actionPtr (at its tag) +28 actionLen (docs/governance.md)
//   VoteProposal, ExecuteProposal, CancelProposal: +4 ptr to the fixed fields (9/8/8 B)
//   CreateDao: +4 namePtr +8 nameLen +12 ptr to the fixed fields (token_mint … proposal_threshold, 68 B)
//   DaoPropose: as CreateProposal (the dao[32] sits right before the title's u32 length)
//   DaoVote, DaoExecute, DaoCancel, DaoUnlock: +4 ptr to the fixed fields (41/40/40/40 B)
//   Presales and staking pools 95–104: +4 ptr to the fixed-size fields (docs/presales.md, docs/staking-pools.md)
//   Settlement 105–110: +4 ptr to the fixed-size fields (1/0/104/64/32/32 B; docs/settlement.md)
//   Anchor, CreatePassport, RegisterGame, SetGameProfile (111–114): +4 ptr +8 byte length of the
//     fields (shape and UTF-8 checked here, re-read at execution; docs/anchors.md, docs/passports.md)
//   AddKey: +4 pubkeyPtr +8 key_type +12 role +16 pubkeyLen (its per-byte gas)
//   RemoveKey: +4 ptr to pubkey_hash[32]
//   RotateKey: +4 oldHashPtr +8 new_key_type +12 pubkeyPtr +16 pubkeyLen
//   SetRecovery: +4 guardiansPtr +8 count +12 threshold +24 ptr to timelock u64
//   InitiateRecovery: +4 accountPtr +8 key_type +12 pubkeyPtr +16 pubkeyLen
//   ApproveRecovery: +4 ptr (account[32] new_key_hash[32]); FinalizeRecovery: +4 ptr to account[32]
//   CreateMultiSig: +4 signersPtr +8 count +12 threshold +20 labelPtr +24 labelLen (UTF-8 checked here)
//   ProposeMultiSigTx: +4 multisigPtr +8 descPtr +12 opsPtr +16 ops byte length +20 op count
//     +24 descLen +28 the held operations' own gas (docs/accounts.md "Gas")
//   ApproveMultiSigTx, RevokeMultiSigApproval: +4 ptr (multisig[32] tx_id u64)
//   ScheduleUpgrade: +4 namePtr +8 nameLen +12 heightPtr +16 binaryUrlPtr +20 its length +24 checksumPtr
//     (info_url's Vec follows the checksum); CancelUpgrade: +4 namePtr +8 nameLen; VoteUpgrade: the
//     same and +12 approve (docs/upgrades.md; UTF-8 checked here, the exact rules at execution)
//   STD-8 53–69: +4 ptr to the fields (shape, bool and choice bytes, UTF-8 checked here; the
//     variable ones re-read at execution: docs/stablecoins.md)
//   Collections 37–47: +4 ptr +8 byte length of the fields (shape and UTF-8 checked here, re-read
//     at execution); batches 46/47 also +12 the entry count (their gas depends on it)
export const OPS = memory.data(64 * 32);
// CreateDao's fields after its name: token_mint[32] quorum u16 threshold u16 period u64 delay u64 proposal_threshold u128
// @ts-ignore: decorator
@inline const CREATE_DAO_FIXED: u32 = 68;

export let bUser: usize = 0;
export let bOpCount: u32 = 0;
export let bMaxGas: u64 = 0;
export let bPriorityFee: u64 = 0;
export let bValidUntil: u64 = 0;
export let bNonce: u64 = 0;
export let bSigLen: u32 = 0;
// Where the signature's bytes start (inside the decoded bundle), for scan_bundles (assembly/scan.ts).
export let bSig: usize = 0;
export let bHasExpiry: bool = false;
export let bExpiry: u64 = 0;
export let bHasPubkey: bool = false;
export let bPubkey: usize = 0;
export let bPubkeyLen: u32 = 0;

/** Decode a bundle; OK or MALFORMED_BUNDLE / EMPTY_BUNDLE / TOO_MANY_OPS / OP_NOT_ENABLED. */
export function decodeBundle(ptr: usize, len: u32): u32 {
  readerInit(ptr, len);
  bUser = take(32);
  let st = decodeOps(OPS, MAX_OPERATIONS, false);
  if (st != S.OK) return st;
  bOpCount = opsCount;
  bMaxGas = rU64();
  bPriorityFee = rU64();
  bValidUntil = rU64();
  bNonce = rU64();
  bSig = rVec();
  bSigLen = vecLen;
  // Exact lengths (0, 64, 3,309, or another length for an EVM transaction) are checked against the
  // envelope's auth in execBundle; here only the codec's bound (docs/bundle-format.md).
  if (bSigLen > MAX_SIGNATURE_BYTES) return S.MALFORMED_BUNDLE;
  bHasExpiry = rTag();
  bExpiry = bHasExpiry ? rU64() : 0;
  bHasPubkey = rTag();
  bPubkey = 0;
  bPubkeyLen = 0;
  if (bHasPubkey) {
    bPubkey = rVec();
    bPubkeyLen = vecLen;
    if (!bad && bPubkeyLen != ED25519_PUBLIC_KEY_BYTES && bPubkeyLen != ML_DSA_65_PUBLIC_KEY_BYTES) return S.MALFORMED_BUNDLE;
  }
  if (!atEnd()) return S.MALFORMED_BUNDLE;
  return S.OK;
}

/** Operations decoded by the last decodeOps call. */
export let opsCount: u32 = 0;
/** Where the nested operations of the last CreateSchedule decoded (their shape only) land. */
const NESTED_OPS = memory.data(MAX_SCHEDULE_OPS * 32);

/**
 * A Borsh Vec<Operation> at the reader into `table` (32-byte op records, see OPS): EMPTY_BUNDLE,
 * TOO_MANY_OPS above `max`, OP_NOT_ENABLED, MALFORMED_BUNDLE. `nested`: the operations of a
 * CreateSchedule, where CreateSchedule and CancelSchedule are not part of the grammar.
 */
export function decodeOps(table: usize, max: u32, nested: bool): u32 {
  let n = rU32();
  if (bad) return S.MALFORMED_BUNDLE;
  // Checked when the length is read, before the operations (docs/core-abi.md "Rules").
  if (n == 0) return S.EMPTY_BUNDLE;
  if (n > max) return S.TOO_MANY_OPS;
  for (let k: u32 = 0; k < n; k++) {
    let rec = table + (<usize>k << 5);
    let d = <u32>rU8();
    if (bad) return S.MALFORMED_BUNDLE;
    store<u32>(rec, d, OPR_KIND);
    // Operations whose fields are all fixed: generated from their rows (assembly/decode-ops.ts).
    let fixed = decodeFixedOp(d, rec, nested);
    if (fixed != NOT_FIXED) {
      if (fixed != S.OK) return fixed;
      continue;
    }
    if (d == OP_CREATE_TOKEN) {
      let name = rVec();
      let nameLen = vecLen;
      if (bad || !validUtf8(name, nameLen)) return S.MALFORMED_BUNDLE;
      let sym = rVec();
      let symLen = vecLen;
      if (bad || !validUtf8(sym, symLen)) return S.MALFORMED_BUNDLE;
      let decimals = rU8();
      let supply = take(16);
      let owner = take(32);
      store<u32>(rec, <u32>name, OPR_CREATE_TOKEN_NAME);
      store<u32>(rec, nameLen, OPR_CREATE_TOKEN_NAME_LEN);
      store<u32>(rec, <u32>sym, OPR_CREATE_TOKEN_SYMBOL);
      store<u32>(rec, symLen, OPR_CREATE_TOKEN_SYMBOL_LEN);
      store<u32>(rec, <u32>decimals, OPR_CREATE_TOKEN_DECIMALS);
      store<u32>(rec, <u32>supply, OPR_CREATE_TOKEN_SUPPLY);
      store<u32>(rec, <u32>owner, OPR_CREATE_TOKEN_OWNER);
    } else if (d == OP_UPDATE_TOKEN_METADATA) {
      store<u32>(rec, <u32>take(32), OPR_UPDATE_TOKEN_METADATA_MINT);
      store<u32>(rec, <u32>rp, OPR_UPDATE_TOKEN_METADATA_OPTIONS);
      for (let i = 0; i < 8; i++) {
        if (rTag()) {
          let sp = rVec();
          if (bad || !validUtf8(sp, vecLen)) return S.MALFORMED_BUNDLE;
        }
      }
    } else if (d == OP_REGISTER_NAME) {
      let name = rVec();
      let nameLen = vecLen;
      if (bad || !validUtf8(name, nameLen)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>name, OPR_REGISTER_NAME_NAME);
      store<u32>(rec, nameLen, OPR_REGISTER_NAME_NAME_LEN);
    } else if (d == OP_SCHEDULE_UPGRADE || d == OP_CANCEL_UPGRADE || d == OP_VOTE_UPGRADE) {
      let name = rVec();
      let nameLen = vecLen;
      if (bad || !validUtf8(name, nameLen)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>name, OPR_SCHEDULE_UPGRADE_NAME); // the same slots in CancelUpgrade and VoteUpgrade
      store<u32>(rec, nameLen, OPR_SCHEDULE_UPGRADE_NAME_LEN);
      if (d == OP_VOTE_UPGRADE) store<u32>(rec, rBool() ? 1 : 0, OPR_VOTE_UPGRADE_APPROVE);
      else if (d == OP_SCHEDULE_UPGRADE) {
        store<u32>(rec, <u32>take(8), OPR_SCHEDULE_UPGRADE_HEIGHT);
        let bin = rVec();
        let binLen = vecLen;
        if (bad || !validUtf8(bin, binLen)) return S.MALFORMED_BUNDLE;
        store<u32>(rec, <u32>bin, OPR_SCHEDULE_UPGRADE_BINARY_URL);
        store<u32>(rec, binLen, OPR_SCHEDULE_UPGRADE_BINARY_URL_LEN);
        store<u32>(rec, <u32>take(32), OPR_SCHEDULE_UPGRADE_CHECKSUM);
        let info = rVec();
        if (bad || !validUtf8(info, vecLen)) return S.MALFORMED_BUNDLE;
      }
    } else if (d >= OP_CREATE_NFT_COLLECTION && d <= OP_BATCH_TRANSFER_MULTI_TOKEN) {
      let start = rp;
      if (!decodeCollectionFields(d, rec)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>start, OPR_FIELDS);
      store<u32>(rec, <u32>(rp - start), OPR_FIELDS_LEN);
    } else if (d == OP_REGISTER_PROGRAM) {
      let name = rVec();
      let nameLen = vecLen;
      if (bad || !validUtf8(name, nameLen)) return S.MALFORMED_BUNDLE;
      let json = rVec();
      let jsonLen = vecLen;
      if (bad || !validUtf8(json, jsonLen)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>name, OPR_REGISTER_PROGRAM_NAME);
      store<u32>(rec, nameLen, OPR_REGISTER_PROGRAM_NAME_LEN);
      store<u32>(rec, <u32>json, OPR_REGISTER_PROGRAM_PROGRAM);
      store<u32>(rec, jsonLen, OPR_REGISTER_PROGRAM_PROGRAM_LEN);
    } else if (d == OP_CREATE_SCHEDULE && !nested) {
      // trigger: Recurring 0 { interval_seconds u64, runs u32, first_run u64 } or Conditional 1
      // { base[32], quote[32], direction u8, price_num u128, price_den u128, expiry u64 }, then the
      // operations (a Vec<Operation> as in a bundle, without CreateSchedule/CancelSchedule).
      let tag = <u32>rU8();
      if (bad || (tag != SCHEDULE_TRIGGER_RECURRING && tag != SCHEDULE_TRIGGER_CONDITIONAL)) return S.MALFORMED_BUNDLE;
      let trig = take(tag == SCHEDULE_TRIGGER_RECURRING ? SCHEDULE_TRIGGER_RECURRING_BYTES : SCHEDULE_TRIGGER_CONDITIONAL_BYTES);
      let start = rp;
      let st = decodeOps(NESTED_OPS, MAX_SCHEDULE_OPS, true);
      if (st != S.OK) return st == S.TOO_MANY_OPS || st == S.EMPTY_BUNDLE ? S.MALFORMED_BUNDLE : st;
      store<u32>(rec, tag, OPR_CREATE_SCHEDULE_TRIGGER_TAG);
      store<u32>(rec, <u32>trig, OPR_CREATE_SCHEDULE_TRIGGER);
      store<u32>(rec, <u32>start, OPR_CREATE_SCHEDULE_OPERATIONS);
      store<u32>(rec, <u32>(rp - start), OPR_CREATE_SCHEDULE_OPERATIONS_LEN);
      store<u32>(rec, opsCount, OPR_CREATE_SCHEDULE_OPERATION_COUNT);
    } else if (d >= OP_ANCHOR && d <= OP_SET_GAME_PROFILE) {
      let start = rp;
      if (!decodeStringOpFields(d)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>start, OPR_FIELDS);
      store<u32>(rec, <u32>(rp - start), OPR_FIELDS_LEN);
    } else if (d == OP_BRIDGE_DEPOSIT || (d >= OP_BRIDGE_WITHDRAW && d <= OP_SET_CONTRACT_SAFETY)) {
      // The bridge (docs/bridge.md): the operations that carry attester signatures are a bundle's
      // first operation and never nested, so the host finds them at byte BUNDLE_FIRST_OP_AT (36) of the bundle and
      // verifies the signatures without decoding every bundle (src/domains/bridge/attestations.ts).
      if ((d == OP_BRIDGE_DEPOSIT || d == OP_ATTEST_BRIDGE_WITHDRAWAL) && (nested || k != 0)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>rp, OPR_FIELDS);
      let start = rp;
      if (!decodeBridgeFields(d)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>(rp - start), OPR_FIELDS_LEN);
    } else if (d >= OP_CREATE_STABLE_TOKEN && d <= OP_STABLE_ISSUER_PROOF) {
      store<u32>(rec, <u32>rp, OPR_FIELDS);
      if (!decodeStableFields(d)) return S.MALFORMED_BUNDLE;
    } else if (d == OP_CREATE_PROPOSAL && !nested) {
      if (!readProposalText(rec)) return S.MALFORMED_BUNDLE;
      let action = rp;
      let st = decodeProposalAction();
      if (st != S.OK) return st;
      storeProposalAction(rec, action);
    } else if (d == OP_CREATE_DAO && !nested) {
      let name = rVec();
      let nameLen = vecLen;
      if (bad || !validUtf8(name, nameLen)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>name, OPR_CREATE_DAO_NAME);
      store<u32>(rec, nameLen, OPR_CREATE_DAO_NAME_LEN);
      store<u32>(rec, <u32>take(CREATE_DAO_FIXED), OPR_CREATE_DAO_FIELDS);
    } else if (d == OP_DAO_PROPOSE && !nested) {
      // Same record as CreateProposal (the DAO's address is the 32 bytes before the title's length).
      take(32);
      if (!readProposalText(rec)) return S.MALFORMED_BUNDLE;
      let action = rp;
      let tag = <u32>rU8();
      if (bad || tag > DAO_ACTION_OPERATIONS) return S.MALFORMED_BUNDLE;
      if (tag == DAO_ACTION_OPERATIONS) {
        let st = decodeOps(NESTED_OPS, MAX_PROPOSAL_OPS, true);
        if (st != S.OK) return st == S.TOO_MANY_OPS || st == S.EMPTY_BUNDLE ? S.MALFORMED_BUNDLE : st;
      }
      storeProposalAction(rec, action);
    } else if (d == OP_CREATE_SCHEDULE || d == OP_CANCEL_SCHEDULE || (d >= OP_CREATE_PROPOSAL && d <= OP_CANCEL_PROPOSAL) || (d >= OP_CREATE_DAO && d <= OP_DAO_UNLOCK)) {
      return S.MALFORMED_BUNDLE; // not inside a schedule's or a proposal's operations
    } else if (nested && isNotNested(d)) {
      // Key, recovery-configuration and multi-sig operations are never held by a schedule or a
      // proposal: a held operation must not change who signs for an account (docs/accounts.md).
      return S.MALFORMED_BUNDLE;
    } else if (d == OP_ADD_KEY || d == OP_ROTATE_KEY || d == OP_INITIATE_RECOVERY) {
      let first: usize = d == OP_ADD_KEY ? 0 : take(32); // RotateKey's old hash, InitiateRecovery's account
      let pk = rVec();
      let pkLen = vecLen;
      let kt = <u32>rU8();
      let role = d == OP_ADD_KEY ? <u32>rU8() : 0;
      if (d == OP_ADD_KEY) {
        store<u32>(rec, <u32>pk, OPR_ADD_KEY_PUBKEY);
        store<u32>(rec, kt, OPR_ADD_KEY_KEY_TYPE);
        store<u32>(rec, role, OPR_ADD_KEY_ROLE);
      } else {
        store<u32>(rec, <u32>first, OPR_ROTATE_KEY_OLD_KEY_HASH); // the same slots in InitiateRecovery
        store<u32>(rec, kt, OPR_ROTATE_KEY_KEY_TYPE);
        store<u32>(rec, <u32>pk, OPR_ROTATE_KEY_PUBKEY);
      }
      store<u32>(rec, pkLen, OPR_GAS_BYTES); // pubkeyLen of all three
    } else if (d == OP_SET_RECOVERY || d == OP_CREATE_MULTI_SIG) {
      let n = rU32();
      if (bad || <usize>n > (rend - rp) >> 5) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>take(n << 5), OPR_SET_RECOVERY_GUARDIANS); // the same slots in CreateMultiSig
      store<u32>(rec, n, OPR_SET_RECOVERY_GUARDIAN_COUNT);
      store<u32>(rec, <u32>rU8(), OPR_SET_RECOVERY_THRESHOLD);
      if (d == OP_SET_RECOVERY) {
        store<u32>(rec, <u32>take(8), OPR_SET_RECOVERY_TIMELOCK);
      } else {
        let label = rVec();
        let labelLen = vecLen;
        if (bad || !validUtf8(label, labelLen)) return S.MALFORMED_BUNDLE;
        store<u32>(rec, <u32>label, OPR_CREATE_MULTI_SIG_LABEL);
        store<u32>(rec, labelLen, OPR_CREATE_MULTI_SIG_LABEL_LEN);
      }
    } else if (d == OP_PROPOSE_MULTI_SIG_TX) {
      let ms = take(32);
      let start = rp;
      let st = decodeOps(NESTED_OPS, MAX_MULTISIG_OPS, true);
      if (st != S.OK) return st == S.TOO_MANY_OPS || st == S.EMPTY_BUNDLE ? S.MALFORMED_BUNDLE : st;
      let count = opsCount;
      let opsLen = <u32>(rp - start);
      // The held operations' gas is paid with the proposal, so an approval's gas stays fixed.
      let inner: u64 = 0;
      for (let i: u32 = 0; i < count; i++) inner += opGas(NESTED_OPS + (<usize>i << 5));
      let desc = rVec();
      let descLen = vecLen;
      if (bad || !validUtf8(desc, descLen)) return S.MALFORMED_BUNDLE;
      store<u32>(rec, <u32>ms, OPR_PROPOSE_MULTI_SIG_TX_MULTISIG);
      store<u32>(rec, <u32>desc, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION);
      store<u32>(rec, <u32>start, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS);
      store<u32>(rec, opsLen, OPR_PROPOSE_MULTI_SIG_TX_OPERATIONS_LEN);
      store<u32>(rec, count, OPR_PROPOSE_MULTI_SIG_TX_OPERATION_COUNT);
      store<u32>(rec, descLen, OPR_PROPOSE_MULTI_SIG_TX_DESCRIPTION_LEN);
      store<u32>(rec, <u32>inner, OPR_PROPOSE_MULTI_SIG_TX_HELD_GAS); // ≤ 16 operations of at most ~100,000 gas each
    } else if (d >= OP_STAKE && d <= OP_SET_VALIDATOR_METADATA || d == OP_REPORT_DOUBLE_SIGN || d == OP_ROTATE_CONSENSUS_KEY) {
      // Staking (docs/staking.md "Operations"): +4 points at the fields, validated here.
      store<u32>(rec, <u32>rp, OPR_FIELDS);
      if (!decodeStakingFields(d)) return S.MALFORMED_BUNDLE;
    } else if (d <= OP_LAST_RESERVED) {
      return S.OP_NOT_ENABLED;
    } else {
      return S.MALFORMED_BUNDLE;
    }
    if (bad) return S.MALFORMED_BUNDLE;
  }
  opsCount = n;
  return S.OK;
}

/** A CreateProposal's or DaoPropose's title and description (strict UTF-8) into its op record (+4 +8 +12 +20); false when malformed. */
function readProposalText(rec: usize): bool {
  let title = rVec();
  let titleLen = vecLen;
  if (bad || !validUtf8(title, titleLen)) return false;
  let desc = rVec();
  let descLen = vecLen;
  if (bad || !validUtf8(desc, descLen)) return false;
  store<u32>(rec, <u32>title, OPR_CREATE_PROPOSAL_TITLE); // the same slots in DaoPropose
  store<u32>(rec, titleLen, OPR_CREATE_PROPOSAL_TITLE_LEN);
  store<u32>(rec, <u32>desc, OPR_CREATE_PROPOSAL_DESCRIPTION);
  store<u32>(rec, descLen, OPR_CREATE_PROPOSAL_DESCRIPTION_LEN);
  return true;
}

/** The action that starts at `action` and ends at the reader (+24 +28), and the stored bytes for the gas (+16). */
function storeProposalAction(rec: usize, action: usize): void {
  let actionLen = <u32>(rp - action);
  store<u32>(rec, load<u32>(rec, OPR_CREATE_PROPOSAL_TITLE_LEN) + load<u32>(rec, OPR_CREATE_PROPOSAL_DESCRIPTION_LEN) + actionLen, OPR_CREATE_PROPOSAL_STORED_BYTES);
  store<u32>(rec, <u32>action, OPR_CREATE_PROPOSAL_ACTION);
  store<u32>(rec, actionLen, OPR_CREATE_PROPOSAL_ACTION_LEN);
}

/**
 * A ProposalAction at the reader (abi/operations.mjs enums; docs/governance.md "Proposal types"): a
 * u8 tag 0–8, then its fields. Only the shape is checked (a ParameterChange key 0–8, strings UTF-8,
 * the carried operations a canonical Vec<Operation> of 1–8 without schedule or proposal operations);
 * ranges are the core's statuses at execution.
 */
function decodeProposalAction(): u32 {
  let tag = <u32>rU8();
  if (bad || tag > PROPOSAL_ACTION_BRIDGE_ATTESTERS) return S.MALFORMED_BUNDLE;
  if (tag == PROPOSAL_ACTION_PARAMETER_CHANGE) {
    let f = take(PROPOSAL_ACTION_PARAMETER_CHANGE_BYTES);
    if (!bad && load<u8>(f) > 8) return S.MALFORMED_BUNDLE;
  } else if (tag == PROPOSAL_ACTION_TREASURY_SPEND) take(PROPOSAL_ACTION_TREASURY_SPEND_BYTES);
  else if (tag == PROPOSAL_ACTION_CONTRACT_SAFETY) {
    if (!rStr() || !rStr()) return S.MALFORMED_BUNDLE;
    rU8();
  } else if (tag == PROPOSAL_ACTION_COLLECTION_SAFETY) take(PROPOSAL_ACTION_COLLECTION_SAFETY_BYTES);
  else if (tag >= PROPOSAL_ACTION_CREATE_STABLECOIN) {
    let st = decodeOps(NESTED_OPS, MAX_PROPOSAL_OPS, true);
    if (st != S.OK) return st == S.TOO_MANY_OPS || st == S.EMPTY_BUNDLE ? S.MALFORMED_BUNDLE : st;
  }
  return bad ? S.MALFORMED_BUNDLE : S.OK;
}

/**
 * The fields of a staking operation with variable fields (the all-fixed ones are decoded by
 * assembly/decode-ops.ts; docs/bundle-format.md "Operation"): Stake{amount u128,
 * validator_pubkey [32]} 4, Unstake{amount} 5, ClaimUnstake 6, Delegate/Undelegate{validator [32],
 * amount} 7/8, ClaimRewards 9, SetCommission{rate u16} 10, Unjail 11, SetAutoCompound{validator,
 * enable bool} 12, SetPoolConfig{pool_enabled bool, pool_name String, min_delegation u128,
 * auto_compound_default bool} 13, SetValidatorMetadata{name, description, website, avatar_url} 14,
 * ReportDoubleSign{validator [32], height u64, header_a Vec<u8>, sig_a [64], header_b Vec<u8>,
 * sig_b [64]} 36, RotateConsensusKey{new_consensus_pubkey [32]} 119.
 */
function decodeStakingFields(d: u32): bool {
  if (d == OP_SET_POOL_CONFIG) {
    rTag();
    let p = rVec();
    if (bad || !validUtf8(p, vecLen)) return false;
    take(16);
    rTag();
  } else if (d == OP_SET_VALIDATOR_METADATA) {
    for (let i = 0; i < 4; i++) {
      let p = rVec();
      if (bad || !validUtf8(p, vecLen)) return false;
    }
  } else if (d == OP_REPORT_DOUBLE_SIGN) {
    take(40);
    rVec();
    take(64);
    rVec();
    take(64);
  }
  return !bad;
}

/**
 * The fields of Anchor{namespace, key, value_hash[32]}, CreatePassport{gamertag},
 * RegisterGame{game_id, name}, SetGameProfile{game_id, player[32], score u64, data}: strings
 * checked for UTF-8 here, their lengths at execution.
 */
function decodeStringOpFields(d: u32): bool {
  if (!rStr()) return false;
  if (d == OP_ANCHOR) {
    if (!rStr()) return false;
    take(32);
  } else if (d == OP_REGISTER_GAME) {
    if (!rStr()) return false;
  } else if (d == OP_SET_GAME_PROFILE) {
    take(40);
    if (!rStr()) return false;
  }
  return !bad;
}

/** A Borsh String whose bytes are strict UTF-8; false when short or not UTF-8. */
function rStr(): bool {
  let p = rVec();
  return !bad && validUtf8(p, vecLen);
}

/**
 * The fields of a collection operation (docs/collections.md "Operations"). Only the Borsh shape is
 * checked here (lengths, bool bytes, UTF-8); lengths and ranges of values fail at execution with
 * a status. The batch entry count goes to rec+12 for the gas (bounded by the bytes present).
 */
function decodeCollectionFields(d: u32, rec: usize): bool {
  if (d == OP_CREATE_NFT_COLLECTION || d == OP_CREATE_MULTI_TOKEN_COLLECTION) {
    // name, symbol, base_uri, [max_supply u64 for NFTs], royalty_bps u16, owner, 4 more strings
    for (let i = 0; i < 3; i++) if (!rStr()) return false;
    take(d == OP_CREATE_NFT_COLLECTION ? 8 + 2 + 32 : 2 + 32);
    for (let i = 0; i < 4; i++) if (!rStr()) return false;
  } else if (d == OP_MINT_NFT) {
    take(40); // collection, token_id
    if (!rStr()) return false; // metadata_uri
    take(32); // recipient
  } else if (d == OP_DEFINE_TOKEN_TYPE) {
    take(40); // collection, type_id
    if (!rStr() || !rStr()) return false; // name, metadata_uri
    take(16); // max_supply
    rBool(); // is_fungible
  } else {
    take(64); // collection, recipient / to
    let n = rU32();
    if (bad || <usize>n > (rend - rp) / BATCH_ENTRY_BYTES) return false;
    take(n * BATCH_ENTRY_BYTES);
    store<u32>(rec, n, OPR_GAS_ENTRIES);
  }
  return !bad;
}

/** A byte of a fixed field that must be at most `max` (a bool: 1; a choice of n values: n − 1). */
function byteAtMost(p: usize, max: u8): bool {
  return p != 0 && load<u8>(p) <= max;
}

/** The shape of a bridge operation's fields (abi/operations.mjs rows 26, 71–75); strings UTF-8. */
function decodeBridgeFields(d: u32): bool {
  if (d == OP_BRIDGE_DEPOSIT) {
    if (!rStr() || !rStr() || !rStr() || !rStr()) return false; // chain, tx hash, contract, symbol
    take(16 + 1 + 32); // amount, decimals, recipient
    rVec(); // signatures
  } else if (d == OP_BRIDGE_WITHDRAW) {
    take(48); // token, amount
    if (!rStr() || !rStr()) return false; // chain, destination
  } else if (d == OP_REGISTER_BRIDGE_MAPPING) {
    if (!rStr() || !rStr()) return false; // chain, contract
    take(32); // mint
  } else if (d == OP_SET_BRIDGE_ATTESTERS) {
    rVec(); // attesters
    rU8(); // threshold
  } else if (d == OP_CLAIM_BRIDGE_DEPOSIT) {
    if (!rStr() || !rStr()) return false; // chain, tx hash
  } else if (d == OP_SET_CONTRACT_SAFETY) {
    if (!rStr() || !rStr()) return false; // chain, contract
    rU8(); // level
  } else {
    take(8); // sequence
    if (!rStr() || !rStr()) return false; // chain, destination
    take(48); // token, amount
    rVec(); // signatures
  }
  return !bad;
}

/**
 * The fields of an STD-8 operation (docs/stablecoins.md "Operations"): the all-fixed ones are decoded
 * by assembly/decode-ops.ts with their bool/choice bytes checked; CreateStableToken, StableSetGuardians and
 * StableConfigureSecurity are walked field by field. Values are the core's at execution.
 */
function decodeStableFields(d: u32): bool {
  if (d == OP_CREATE_STABLE_TOKEN) {
    if (!rStr() || !rStr()) return false; // name, symbol
    rU8(); // decimals
    if (!rStr() || !rStr()) return false; // currency, issuer
    take(128); // owner, master_minter, pauser, blacklister
    rVec(); // guardians
    rVec(); // origin_mappings
    take(16); // supply_cap
    rBool(); // quantum_required
    take(16); // mint_threshold
    rU8(); // required_signers
    rVec(); // authorized_cosigners
    take(16); // timelock, epoch_length
  } else if (d == OP_STABLE_SET_GUARDIANS) {
    take(32);
    rVec();
  } else if (d == OP_STABLE_CONFIGURE_SECURITY) {
    take(32 + 8 + 16 + 1); // token, timelock, mint_threshold, required_signers
    rVec(); // authorized_cosigners
    rBool(); // quantum_required
  } else { // StableIssuerProof: token, method (a choice of 3), chain_id, subject, detail, signature
    if (!byteAtMost(take(32 + 1 + 8 + 32) + 32, 2)) return false;
    rVec(); // detail (the core checks UTF-8 and 1-128 bytes for domain and documents)
    rVec(); // signature
  }
  return !bad;
}
