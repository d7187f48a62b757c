// Passports and game profiles (spec §4.17; docs/passports.md): CreatePassport (disc. 112),
// RegisterGame (113), SetGameProfile (114).
//
// A passport is an account's gamer identity: one per account, created by the account itself, with
// a gamertag unique case-insensitively (3–24 of [A-Za-z0-9_], shown as written). There is no
// operation that moves it, so it is not transferable. A game is registered by its publisher (the
// sender) under a game id; only that publisher writes profiles for the game, and only for accounts
// that hold a passport. Counters for svc_getPassportStats sit in the 0x7E singleton.

import * as S from "../../status";
import { readerInit, take, rU64, rVec, vecLen } from "../../borsh";
import { gameEntry, gameProfileEntry, gamertagEntry, passportEntry, singletonEntry } from "../../keys";
import { exists, setValue, valLen, valPtr } from "../../state";
import { bufNew, bufSetLen, bufLen, bufPtr, bufBytes, bufU8, bufU32, bufU64, bufVec, bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp } from "../../context";
import { validLabel } from "../anchors/ops";
import {
  OP_CREATE_PASSPORT, OP_REGISTER_GAME, OP_SET_GAME_PROFILE, P_PASSPORT_STATS, R_GAME_PROFILES, R_GAME_PUBLISHER, R_PASSPORT_GAMES,
  R_PROFILE_CREATED_HEIGHT, R_PROFILE_REVISION, R_PSTATS_BYTES, R_PSTATS_GAMES, R_PSTATS_PASSPORTS, R_PSTATS_PROFILES,
} from "../../abi";
import { OPR_FIELDS, OPR_FIELDS_LEN } from "../../decode-ops";

// @ts-ignore: decorator
@inline export const GAMERTAG_MIN: u32 = 3;
// @ts-ignore: decorator
@inline export const GAMERTAG_MAX: u32 = 24;
// @ts-ignore: decorator
@inline export const GAME_ID_MIN: u32 = 3;
// @ts-ignore: decorator
@inline export const GAME_ID_MAX: u32 = 64;
// @ts-ignore: decorator
@inline export const GAME_NAME_MAX: u32 = 64;
// @ts-ignore: decorator
@inline export const PROFILE_DATA_MAX: u32 = 1024;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;

const LOWER = memory.data(32);
const STATS = memory.data(24);
const rec = bufNew(1200);

export function isPassportOp(kind: u32): bool {
  return kind >= OP_CREATE_PASSPORT && kind <= OP_SET_GAME_PROFILE;
}

export function execPassport(kind: u32, user: usize, op: usize): u32 {
  readerInit(<usize>load<u32>(op, OPR_FIELDS), load<u32>(op, OPR_FIELDS_LEN)); // shape checked by decodeBundle
  if (kind == OP_CREATE_PASSPORT) return execCreatePassport(user);
  if (kind == OP_REGISTER_GAME) return execRegisterGame(user);
  return execSetGameProfile(user);
}

/** Add d to the counter at `offset` of the 0x7E singleton. Counts of records: never near 2^64. */
function bumpStats(offset: usize, d: u64): void {
  let e = singletonEntry(P_PASSPORT_STATS);
  if (valLen(e) == <i32>R_PSTATS_BYTES) memory.copy(STATS, valPtr(e), R_PSTATS_BYTES);
  else memory.fill(STATS, 0, R_PSTATS_BYTES);
  store<u64>(STATS + offset, load<u64>(STATS + offset) + d);
  setValue(e, STATS, R_PSTATS_BYTES);
}

/** Rewrite a record with the u32/u64 at `offset` increased by one (a copy: setValue journals the old bytes). */
function bumpRecord(e: usize, offset: usize, wide: bool): void {
  bufSetLen(rec, 0);
  bufBytes(rec, valPtr(e), <u32>valLen(e));
  let p = bufPtr(rec) + offset;
  if (wide) store<u64>(p, load<u64>(p) + 1);
  else store<u32>(p, load<u32>(p) + 1);
  setValue(e, bufPtr(rec), bufLen(rec));
}

/** CreatePassport { gamertag }: INVALID_GAMERTAG → PASSPORT_EXISTS → GAMERTAG_TAKEN. */
function execCreatePassport(user: usize): u32 {
  let tag = rVec();
  let n = vecLen;
  if (n < GAMERTAG_MIN || n > GAMERTAG_MAX) return S.INVALID_GAMERTAG;
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(tag + i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x5f)) return S.INVALID_GAMERTAG;
    store<u8>(LOWER + i, c);
  }
  let pe = passportEntry(user);
  if (exists(pe)) return S.PASSPORT_EXISTS;
  let te = gamertagEntry(LOWER, n);
  if (exists(te)) return S.GAMERTAG_TAKEN;
  setValue(te, user, 32);
  bufSetLen(rec, 0);
  bufU8(rec, RECORD_VERSION);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufU32(rec, 0);
  bufVec(rec, tag, n);
  setValue(pe, bufPtr(rec), bufLen(rec));
  bumpStats(R_PSTATS_PASSPORTS, 1);
  return S.OK;
}

/** RegisterGame { game_id, name }: INVALID_GAME → GAME_EXISTS; the sender is the publisher. */
function execRegisterGame(user: usize): u32 {
  let id = rVec();
  let idLen = vecLen;
  let name = rVec();
  let nameLen = vecLen;
  if (!validLabel(id, idLen, GAME_ID_MIN, GAME_ID_MAX) || nameLen == 0 || nameLen > GAME_NAME_MAX) return S.INVALID_GAME;
  let ge = gameEntry(id, idLen);
  if (exists(ge)) return S.GAME_EXISTS;
  bufSetLen(rec, 0);
  bufU8(rec, RECORD_VERSION);
  bufBytes(rec, user, 32);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufU64(rec, 0);
  bufVec(rec, name, nameLen);
  setValue(ge, bufPtr(rec), bufLen(rec));
  bumpStats(R_PSTATS_GAMES, 1);
  return S.OK;
}

/**
 * SetGameProfile { game_id, player, score, data }: INVALID_GAME (id) → INVALID_PROFILE →
 * GAME_NOT_FOUND → NOT_GAME_PUBLISHER → NO_PASSPORT, then the profile (revision 1 at the first
 * write, which also counts it on the game, the passport and the stats).
 */
function execSetGameProfile(user: usize): u32 {
  let id = rVec();
  let idLen = vecLen;
  let player = take(32);
  let score = rU64();
  let data = rVec();
  let dataLen = vecLen;
  if (!validLabel(id, idLen, GAME_ID_MIN, GAME_ID_MAX)) return S.INVALID_GAME;
  if (dataLen > PROFILE_DATA_MAX) return S.INVALID_PROFILE;
  let ge = gameEntry(id, idLen);
  if (!exists(ge)) return S.GAME_NOT_FOUND;
  if (!bytesEq(valPtr(ge) + R_GAME_PUBLISHER, user, 32)) return S.NOT_GAME_PUBLISHER;
  let pe = passportEntry(player);
  if (!exists(pe)) return S.NO_PASSPORT;
  let fe = gameProfileEntry(player, id, idLen);
  let first = !exists(fe);
  let old: u32 = first ? 0 : load<u32>(valPtr(fe) + R_PROFILE_REVISION);
  if (old == 0xffffffff) return S.AMOUNT_OVERFLOW; // checked, though 2^32 rewrites cannot fit in gas
  let revision = old + 1;
  let created: u64 = first ? ctxHeight : load<u64>(valPtr(fe) + R_PROFILE_CREATED_HEIGHT);
  bufSetLen(rec, 0);
  bufU8(rec, RECORD_VERSION);
  bufU64(rec, score);
  bufU32(rec, revision);
  bufU64(rec, created);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufVec(rec, data, dataLen);
  setValue(fe, bufPtr(rec), bufLen(rec));
  if (first) {
    bumpRecord(ge, R_GAME_PROFILES, true);
    bumpRecord(pe, R_PASSPORT_GAMES, false);
    bumpStats(R_PSTATS_PROFILES, 1);
  }
  return S.OK;
}
