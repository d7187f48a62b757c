// RegisterProgram (bundle-format disc. 48; spec §4.9; docs/intents.md "Programs on chain").
// An intent program is chain state so every node serves and runs the same one: the record holds
// the owner, the program's JSON text and its Blake3 hash. Names are first come, first served; only
// the owner may register the same name again, which replaces the JSON and bumps the revision. The
// core checks the name's characters and the JSON's size (UTF-8 is checked at decoding); what the
// JSON means (params, intent templates) is the host's to validate, since the core has no intent
// parser (docs/intents.md says what a node does with a record whose JSON does not validate).
//
// A list index makes svc_listPrograms a run of point lookups (the core and the host's state view
// have no range scans): 0x31 holds the count, 0x32 ‖ index u64 BE the name registered at that
// position, in registration order.

import * as S from "../../status";
import { KEY } from "../../keys";
import { lookup, exists, setValue, beginWrite, valPtr, valLen } from "../../state";
import { ctxHeight, ctxTimestamp } from "../../context";
import { blake3 } from "../../blake3";
import { emitProgramRegistered } from "../../events-gen";
import { bytesEq } from "../../mem";
import { P_PROGRAM, P_PROGRAM_COUNT, P_PROGRAM_INDEX, R_PROGRAM_JSON_DATA, R_PROGRAM_INDEX, R_PROGRAM_REGISTERED_AT, R_PROGRAM_REGISTERED_HEIGHT, R_PROGRAM_REVISION, R_PROGRAM_JSON, R_PROGRAM_UPDATED_AT, R_PROGRAM_UPDATED_HEIGHT, R_PROGRAM_OWNER, R_PROGRAM_HASH } from "../../abi";
import { OPR_REGISTER_PROGRAM_NAME, OPR_REGISTER_PROGRAM_NAME_LEN, OPR_REGISTER_PROGRAM_PROGRAM, OPR_REGISTER_PROGRAM_PROGRAM_LEN } from "../../decode-ops";

// @ts-ignore: decorator
@inline export const PROGRAM_NAME_MIN: u32 = 3;
// @ts-ignore: decorator
@inline export const PROGRAM_NAME_MAX: u32 = 64;
/** The largest program JSON the core stores (docs/intents.md "Programs on chain"). */
// @ts-ignore: decorator
@inline export const PROGRAM_MAX_BYTES: u32 = 16384;
// @ts-ignore: decorator
@inline const PROGRAM_RECORD_VERSION: u8 = 1;

const HASH = memory.data(32);
const COUNT = memory.data(8);

/** 0x30 name → ProgramRecord. */
function programEntry(name: usize, n: u32): usize {
  store<u8>(KEY, P_PROGRAM);
  memory.copy(KEY + 1, name, n);
  return lookup(KEY, n + 1);
}

/** 0x31 → program count u64. */
function programCountEntry(): usize {
  store<u8>(KEY, P_PROGRAM_COUNT);
  return lookup(KEY, 1);
}

/** 0x32 index u64 BE → the name registered at that position. */
function programIndexEntry(index: u64): usize {
  store<u8>(KEY, P_PROGRAM_INDEX);
  store<u64>(KEY + 1, bswap<u64>(index));
  return lookup(KEY, 9);
}

/** A program name: 3–64 of [a-z0-9_-], the first a letter or digit (src/intents/programs.ts NAME). */
export function validProgramName(p: usize, n: u32): bool {
  if (n < PROGRAM_NAME_MIN || n > PROGRAM_NAME_MAX) return false;
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(p + i);
    let alnum = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
    if (!alnum && (i == 0 || (c != 0x2d && c != 0x5f))) return false;
  }
  return true;
}

/**
 * RegisterProgram { name: String, program: String } (op record: +4 namePtr +8 nameLen +12 jsonPtr
 * +16 jsonLen). Order of checks: INVALID_PROGRAM_NAME → INVALID_PROGRAM (size) → NOT_PROGRAM_OWNER.
 */
export function execRegisterProgram(user: usize, op: usize, bundleIndex: u32, opIndex: u32): u32 {
  let name = <usize>load<u32>(op, OPR_REGISTER_PROGRAM_NAME);
  let nameLen = load<u32>(op, OPR_REGISTER_PROGRAM_NAME_LEN);
  let json = <usize>load<u32>(op, OPR_REGISTER_PROGRAM_PROGRAM);
  let jsonLen = load<u32>(op, OPR_REGISTER_PROGRAM_PROGRAM_LEN);
  if (!validProgramName(name, nameLen)) return S.INVALID_PROGRAM_NAME;
  if (jsonLen == 0 || jsonLen > PROGRAM_MAX_BYTES) return S.INVALID_PROGRAM;
  let e = programEntry(name, nameLen);
  let revision: u32 = 1;
  let index: u64 = 0;
  let regHeight = ctxHeight;
  let regTime = ctxTimestamp;
  if (exists(e)) {
    let r = valPtr(e);
    if (!bytesEq(r + R_PROGRAM_OWNER, user, 32)) return S.NOT_PROGRAM_OWNER;
    revision = load<u32>(r + R_PROGRAM_REVISION) + 1;
    index = load<u64>(r + R_PROGRAM_INDEX);
    regHeight = load<u64>(r + R_PROGRAM_REGISTERED_HEIGHT);
    regTime = load<u64>(r + R_PROGRAM_REGISTERED_AT);
  } else {
    // A new name takes the next list position (entries never move, so `e` stays valid).
    let c = programCountEntry();
    index = exists(c) && valLen(c) == 8 ? load<u64>(valPtr(c)) : 0;
    store<u64>(COUNT, index + 1);
    setValue(c, COUNT, 8);
    setValue(programIndexEntry(index), name, nameLen);
  }
  blake3(json, jsonLen, HASH);
  let w = beginWrite(e, <u32>R_PROGRAM_JSON_DATA + jsonLen);
  store<u8>(w, PROGRAM_RECORD_VERSION);
  memory.copy(w + R_PROGRAM_OWNER, user, 32);
  store<u32>(w + R_PROGRAM_REVISION, revision);
  store<u64>(w + R_PROGRAM_INDEX, index);
  store<u64>(w + R_PROGRAM_REGISTERED_HEIGHT, regHeight);
  store<u64>(w + R_PROGRAM_REGISTERED_AT, regTime);
  store<u64>(w + R_PROGRAM_UPDATED_HEIGHT, ctxHeight);
  store<u64>(w + R_PROGRAM_UPDATED_AT, ctxTimestamp);
  memory.copy(w + R_PROGRAM_HASH, HASH, 32);
  store<u32>(w + R_PROGRAM_JSON, jsonLen);
  memory.copy(w + R_PROGRAM_JSON_DATA, json, jsonLen);
  // ProgramRegistered: owner[32] revision u32 hash[32] name (the rest of the data).
  emitProgramRegistered(bundleIndex, <u16>opIndex, user, revision, HASH, name, nameLen);

  return S.OK;
}
