// Decoding of one Borsh bundle (docs/bundle-format.md) in place: no copy, pointers into the input.
// Operations land in the fixed OPS table (at most 64, bundle-format "operations: 1 to 64").

import * as S from "./status";
import { readerInit, take, rU32, rU64, rU8, rTag, rVec, vecLen, atEnd, bad } from "./borsh";
import { ED25519_PUBLIC_KEY_BYTES, ML_DSA_65_PUBLIC_KEY_BYTES, MAX_SCHEDULE_OPS, MAX_OPERATIONS, MAX_SIGNATURE_BYTES, OP_LAST_RESERVED } from "./abi";
import { opGas } from "./gas";
import { decodeFixedOp, NOT_FIXED, OPR_KIND } from "./decode-ops";
import { decodeVarOp } from "./decode-var-ops";

// Discriminants, fixed field sizes and bounds come from the ABI table (abi/operations.mjs →
// assembly/abi.ts; docs/core-abi.md "How the ABI is generated"). Discriminants 1..119 without a
// row are reserved (bundle-format "Operation"); anything above is not an operation at all.

// Op record, 32 bytes: kind u32 then per kind, written by the decoders generated from the operation
// rows: assembly/decode-ops.ts for the operations whose fields are all fixed (+4 ptr to its fields,
// +8 their byte length: the rows below that say only "+4 ptr" are those), assembly/decode-var-ops.ts
// for the others. Each slot is named by its operation's row (abi/operations.mjs `record`, generated
// as OPR_* in assembly/decode-ops.ts; without one, +4/+8 the fields as above); the summary below is
// for reading.
//   Transfer:    +4 ptr (to[32] token[32] amount u128)
//   CreateToken: +4 namePtr +8 nameLen +12 symPtr +16 symLen +20 decimals +24 supplyPtr +28 ownerPtr
//   CreatePool, AddLiquidity, RemoveLiquidity, Swap: +4 ptr to the fixed-size fields (104/112/112/96 B)
//   UpdateTokenMetadata: +4 mintPtr +8 ptr to the 8 Option<String> fields (validated when decoded)
//   LockTokenMetadata: +4 mintPtr
//   RegisterName: +4 namePtr +8 nameLen (UTF-8 checked when decoded; characters and length at execution)
//   RegisterProgram: +4 namePtr +8 nameLen +12 jsonPtr +16 jsonLen (UTF-8 checked when decoded)
//   CreateSchedule: +4 trigger tag +8 triggerPtr +12 opsPtr (the Vec<Operation>'s u32 count) +16 its
//     byte length +20 its operation count (the nested operations' shape is checked when decoded)
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
//     fields (shape and UTF-8 checked when decoded, re-read at execution; docs/anchors.md, docs/passports.md)
//   AddKey: +4 pubkeyPtr +8 key_type +12 role +16 pubkeyLen (its per-byte gas)
//   RemoveKey: +4 ptr to pubkey_hash[32]
//   RotateKey: +4 oldHashPtr +8 new_key_type +12 pubkeyPtr +16 pubkeyLen
//   SetRecovery: +4 guardiansPtr +8 count +12 threshold +24 ptr to timelock u64
//   InitiateRecovery: +4 accountPtr +8 key_type +12 pubkeyPtr +16 pubkeyLen
//   ApproveRecovery: +4 ptr (account[32] new_key_hash[32]); FinalizeRecovery: +4 ptr to account[32]
//   CreateMultiSig: +4 signersPtr +8 count +12 threshold +20 labelPtr +24 labelLen (UTF-8 checked when decoded)
//   ProposeMultiSigTx: +4 multisigPtr +8 descPtr +12 opsPtr +16 ops byte length +20 op count
//     +24 descLen +28 the held operations' own gas (docs/accounts.md "Gas")
//   ApproveMultiSigTx, RevokeMultiSigApproval: +4 ptr (multisig[32] tx_id u64)
//   ScheduleUpgrade: +4 namePtr +8 nameLen +12 heightPtr +16 binaryUrlPtr +20 its length +24 checksumPtr
//     (info_url's Vec follows the checksum); CancelUpgrade: +4 namePtr +8 nameLen; VoteUpgrade: the
//     same and +12 approve (docs/upgrades.md; UTF-8 checked when decoded, the exact rules at execution)
//   STD-8 53–70, staking 4–14, 36, 119, the bridge 26, 71–76: +4 ptr +8 byte length of the fields
//     (shape, bool and choice bytes, UTF-8 checked when decoded; the variable ones re-read at
//     execution: docs/stablecoins.md, docs/staking.md, docs/bridge.md)
//   Collections 37–47: +4 ptr +8 byte length of the fields (shape and UTF-8 checked when decoded, re-read
//     at execution); batches 46/47 also +12 the entry count (their gas depends on it)
export const OPS = memory.data(64 * 32);

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
/**
 * Where the nested operations of the last schedule, proposal or multi-sig transaction decoded land
 * (their shape only; at most one list at a time: no operation holding a list may itself be held).
 */
const NESTED_OPS = memory.data(MAX_SCHEDULE_OPS * 32); // the largest list: MAX_MULTISIG_OPS is as large, MAX_PROPOSAL_OPS smaller

/**
 * A Borsh Vec<Operation> at the reader into `table` (32-byte op records, see OPS): EMPTY_BUNDLE,
 * TOO_MANY_OPS above `max`, OP_NOT_ENABLED, MALFORMED_BUNDLE. `nested`: the operations a schedule, a
 * proposal or a multi-sig transaction holds, where the rows with `nested: false` are not part of the
 * grammar. Each operation's fields are decoded by the code generated from its row (abi/operations.mjs):
 * assembly/decode-ops.ts for the all-fixed ones, assembly/decode-var-ops.ts for the others.
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
    let st = decodeFixedOp(d, rec, nested);
    if (st == NOT_FIXED) st = decodeVarOp(d, rec, k, nested);
    // No row: a reserved discriminant (bundle-format "Operation") or none at all.
    if (st == NOT_FIXED) return d <= OP_LAST_RESERVED ? S.OP_NOT_ENABLED : S.MALFORMED_BUNDLE;
    if (st != S.OK) return st;
  }
  opsCount = n;
  return S.OK;
}

/**
 * Hook of the generated decoders (a `['operations', BOUND, …]` field): the nested Vec<Operation> of a
 * schedule, a proposal or a multi-sig transaction, 1 to `max` operations none of which may hold
 * operations itself (`nested`); a count of 0 or above `max` is malformed there, not EMPTY_BUNDLE or
 * TOO_MANY_OPS (those name the bundle's own list). The count is left in opsCount.
 */
export function decodeNestedOps(max: u32): u32 {
  let st = decodeOps(NESTED_OPS, max, true);
  return st == S.TOO_MANY_OPS || st == S.EMPTY_BUNDLE ? S.MALFORMED_BUNDLE : st;
}

/**
 * Hook of the generated decoders (a row's `heldGas`): the own gas of the `count` operations the last
 * decodeNestedOps left, which a multi-sig proposal prepays so that an approval's gas stays fixed
 * (docs/accounts.md "Gas"). Hand-written because it runs the gas schedule over decoded records rather
 * than reading a field. At most 16 operations of at most ~100,000 gas each: it fits a u32.
 */
export function heldOperationsGas(count: u32): u32 {
  let inner: u64 = 0;
  for (let i: u32 = 0; i < count; i++) inner += opGas(NESTED_OPS + (<usize>i << 5));
  return <u32>inner;
}
