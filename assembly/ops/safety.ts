// Contract and collection safety levels (spec §4.6, §5.7; docs/governance.md "Safety", docs/bridge.md
// "Contract safety"): the records a passed ContractSafety / CollectionSafety proposal writes, and the
// SetContractSafety operation of the governance authority. Below both the proposal engine
// (./governance.ts) and the bridge (./bridge.ts), which reads the records, so neither imports the other.

import * as S from "../status";
import { KEY, collectionEntry } from "../keys";
import { lookup, exists, setValue, deleteValue } from "../state";
import { ctxHeight, GOVERNANCE } from "../context";
import { blake3 } from "../blake3";
import { emitSafetyLevelSet } from "../events-gen";
import { bufNew, bufPtr, bufLen, bufSetLen, bufBytes, bufU8, bufU32, bufU64, bytesEq } from "../mem";
import {
  P_CONTRACT_SAFETY, P_COLLECTION_SAFETY, MAX_SAFETY_TEXT, SAFETY_LEVEL_MAX,
  R_COLLECTION_SAFETY_VERSION, R_COLLECTION_SAFETY_LEVEL, R_COLLECTION_SAFETY_PROPOSAL_ID, R_COLLECTION_SAFETY_HEIGHT,
  R_COLLECTION_SAFETY_BYTES,
  OPF_PROPOSAL_ACTION_COLLECTION_SAFETY_LEVEL,
  OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_CHAIN_DATA,
  OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_LEVEL_AFTER_CONTRACT,
} from "../abi";

// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;
const REC = bufNew(64 + 2 * MAX_SAFETY_TEXT);
const SAFETY = memory.data(R_COLLECTION_SAFETY_BYTES);
const TARGET = memory.data(32);
const hbuf = bufNew(64 + 2 * MAX_SAFETY_TEXT);

/** ContractSafety { chain, contract, level }: both strings 1–MAX_SAFETY_TEXT bytes, level ≤ SAFETY_LEVEL_MAX. */
export function validContractSafety(f: usize): bool {
  let chainLen = load<u32>(f);
  let contractLen = load<u32>(f + OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_CHAIN_DATA + chainLen);
  let level = load<u8>(f + 8 + chainLen + contractLen);
  return !(chainLen == 0 || chainLen > MAX_SAFETY_TEXT || contractLen == 0 || contractLen > MAX_SAFETY_TEXT || level > SAFETY_LEVEL_MAX);
}

/** CollectionSafety { collection, level }: the collection exists, level ≤ SAFETY_LEVEL_MAX. */
export function validCollectionSafety(f: usize): bool {
  return load<u8>(f, OPF_PROPOSAL_ACTION_COLLECTION_SAFETY_LEVEL) <= SAFETY_LEVEL_MAX && exists(collectionEntry(f));
}

function safetyEvent(id: u64, targetKind: u8, level: u8, bundleIndex: u32, opIndex: u32): void {
  // SafetyLevelSet: id u64, target[32], target_kind u8 (0 contract, 1 collection), level u8
  emitSafetyLevelSet(bundleIndex, <u16>opIndex, id, TARGET, targetKind, level);

}

/** ContractSafety { chain, contract, level }: the record at Blake3("contract-safety" ‖ chain ‖ 0 ‖ contract); level 0 clears it. */
export function setContractSafety(id: u64, f: usize, bundleIndex: u32, opIndex: u32): void {
  let chainLen = load<u32>(f);
  let contract = f + OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_CHAIN_DATA + chainLen;
  let contractLen = load<u32>(contract);
  let level = load<u8>(contract + 4 + contractLen, OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_LEVEL_AFTER_CONTRACT);
  bufSetLen(hbuf, 0);
  bufBytes(hbuf, memory.data<u8>([0x63, 0x6f, 0x6e, 0x74, 0x72, 0x61, 0x63, 0x74, 0x2d, 0x73, 0x61, 0x66, 0x65, 0x74, 0x79]), 15); // "contract-safety"
  bufBytes(hbuf, f + OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_CHAIN_DATA, chainLen);
  bufU8(hbuf, 0);
  bufBytes(hbuf, contract + 4, contractLen);
  blake3(bufPtr(hbuf), bufLen(hbuf), TARGET);
  store<u8>(KEY, P_CONTRACT_SAFETY);
  memory.copy(KEY + 1, TARGET, 32);
  let e = lookup(KEY, 33);
  if (level == 0) {
    if (exists(e)) deleteValue(e);
  } else {
    bufSetLen(REC, 0);
    bufU8(REC, RECORD_VERSION);
    bufU8(REC, level);
    bufU64(REC, id);
    bufU64(REC, ctxHeight);
    bufU32(REC, chainLen);
    bufBytes(REC, f + OPF_PROPOSAL_ACTION_CONTRACT_SAFETY_CHAIN_DATA, chainLen);
    bufU32(REC, contractLen);
    bufBytes(REC, contract + 4, contractLen);
    setValue(e, bufPtr(REC), bufLen(REC));
  }
  safetyEvent(id, 0, level, bundleIndex, opIndex);
}

/**
 * SetContractSafety { chain, contract, level } (docs/bridge.md "Contract safety"): the ContractSafety
 * action as an operation of the governance authority itself, so a passed proposal's carried
 * operations (and, on testnet, the convenience path with sender 0x00…09) set the same record with
 * proposal id 0. NOT_GOVERNANCE → INVALID_SAFETY_TARGET.
 */
export function execSetContractSafety(user: usize, f: usize, len: u32, bundleIndex: u32, opIndex: u32): u32 {
  if (!bytesEq(user, GOVERNANCE, 32)) return S.NOT_GOVERNANCE;
  if (!validContractSafety(f)) return S.INVALID_SAFETY_TARGET;
  setContractSafety(0, f, bundleIndex, opIndex);
  return S.OK;
}

/** CollectionSafety { collection, level }: level 0 clears the record. */
export function setCollectionSafety(id: u64, f: usize, bundleIndex: u32, opIndex: u32): void {
  let level = load<u8>(f, OPF_PROPOSAL_ACTION_COLLECTION_SAFETY_LEVEL);
  memory.copy(TARGET, f, 32);
  store<u8>(KEY, P_COLLECTION_SAFETY);
  memory.copy(KEY + 1, f, 32);
  let e = lookup(KEY, 33);
  if (level == 0) {
    if (exists(e)) deleteValue(e);
  } else {
    store<u8>(SAFETY + R_COLLECTION_SAFETY_VERSION, RECORD_VERSION);
    store<u8>(SAFETY + R_COLLECTION_SAFETY_LEVEL, level);
    store<u64>(SAFETY + R_COLLECTION_SAFETY_PROPOSAL_ID, id);
    store<u64>(SAFETY + R_COLLECTION_SAFETY_HEIGHT, ctxHeight);
    setValue(e, SAFETY, R_COLLECTION_SAFETY_BYTES);
  }
  safetyEvent(id, 1, level, bundleIndex, opIndex);
}
