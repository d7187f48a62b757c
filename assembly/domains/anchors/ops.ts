// Anchoring (spec §4.7; docs/anchors.md): Anchor (disc. 111) { namespace, key, value_hash }.
//
// A namespace belongs to the account that anchored in it first: only that account may anchor more
// keys there, so a reader who trusts the owner of "acme.audits" trusts every anchor in it (anyone
// could otherwise plant a look-alike key in someone else's namespace). A key is write-once: an
// anchor proves that a value hash was on chain at a height, and a rewritable key would let its
// owner change that history; a new version is a new key.
//
//   namespace id = Blake3("ntv.anchor.ns" ‖ namespace)
//   anchor id    = Blake3("ntv.anchor" ‖ namespace id ‖ key)
//
// Order of checks: INVALID_NAMESPACE → INVALID_ANCHOR_KEY → NOT_NAMESPACE_OWNER → ANCHOR_EXISTS.

import * as S from "../../status";
import { readerInit, take, rVec, vecLen } from "../../borsh";
import { anchorEntry, anchorIndexEntry, anchorNamespaceEntry } from "../../keys";
import { exists, setValue, valLen, valPtr } from "../../state";
import { blake3 } from "../../blake3";
import { bufNew, bufSetLen, bufLen, bufPtr, bufBytes, bufU8, bufU64, bufVec, bytesEq } from "../../mem";
import { ctxHeight, ctxTimestamp } from "../../context";
import { R_ANS_COUNT, R_ANS_OWNER } from "../../abi";
import { OPR_FIELDS, OPR_FIELDS_LEN } from "../../decode-ops";

// @ts-ignore: decorator
@inline export const NAMESPACE_MAX: u32 = 64;
// @ts-ignore: decorator
@inline export const ANCHOR_KEY_MAX: u32 = 256;
// @ts-ignore: decorator
@inline const RECORD_VERSION: u8 = 1;

const NS_ID = memory.data(32);
const ANCHOR_ID = memory.data(32);
const PRE = memory.data(16 + 32 + ANCHOR_KEY_MAX);
/** "ntv.anchor.ns" (13), "ntv.anchor" (10): id domains. */
const TAG_NS = memory.data<u8>([0x6e, 0x74, 0x76, 0x2e, 0x61, 0x6e, 0x63, 0x68, 0x6f, 0x72, 0x2e, 0x6e, 0x73]);
const rec = bufNew(512);

/** A namespace / game id label: 1..max bytes of [a-z0-9._-] (min `min`). */
export function validLabel(p: usize, n: u32, min: u32, max: u32): bool {
  if (n < min || n > max) return false;
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(p + i);
    let ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x2e || c == 0x5f || c == 0x2d;
    if (!ok) return false;
  }
  return true;
}

/** Anchor: fields at +4 (length +8), shape checked by decodeBundle. */
export function execAnchor(user: usize, op: usize): u32 {
  readerInit(<usize>load<u32>(op, OPR_FIELDS), load<u32>(op, OPR_FIELDS_LEN));
  let ns = rVec();
  let nsLen = vecLen;
  let key = rVec();
  let keyLen = vecLen;
  let valueHash = take(32);
  if (!validLabel(ns, nsLen, 1, NAMESPACE_MAX)) return S.INVALID_NAMESPACE;
  if (keyLen == 0 || keyLen > ANCHOR_KEY_MAX) return S.INVALID_ANCHOR_KEY;
  memory.copy(PRE, TAG_NS, 13);
  memory.copy(PRE + 13, ns, nsLen);
  blake3(PRE, 13 + nsLen, NS_ID);
  let nse = anchorNamespaceEntry(NS_ID);
  let known = exists(nse);
  if (known && !bytesEq(valPtr(nse) + R_ANS_OWNER, user, 32)) return S.NOT_NAMESPACE_OWNER;
  memory.copy(PRE, TAG_NS, 10); // "ntv.anchor"
  memory.copy(PRE + 10, NS_ID, 32);
  memory.copy(PRE + 42, key, keyLen);
  blake3(PRE, 42 + keyLen, ANCHOR_ID);
  let ae = anchorEntry(ANCHOR_ID);
  if (exists(ae)) return S.ANCHOR_EXISTS;
  let index: u64 = known ? load<u64>(valPtr(nse) + R_ANS_COUNT) : 0;
  // The namespace record: a new one, or its count + 1 (a copy: setValue journals the old bytes).
  bufSetLen(rec, 0);
  if (known) {
    bufBytes(rec, valPtr(nse), <u32>valLen(nse));
    store<u64>(bufPtr(rec) + R_ANS_COUNT, index + 1);
  } else {
    bufU8(rec, RECORD_VERSION);
    bufBytes(rec, user, 32);
    bufU64(rec, ctxHeight);
    bufU64(rec, ctxTimestamp);
    bufU64(rec, 1);
    bufVec(rec, ns, nsLen);
  }
  setValue(nse, bufPtr(rec), bufLen(rec));
  bufSetLen(rec, 0);
  bufU8(rec, RECORD_VERSION);
  bufBytes(rec, user, 32);
  bufBytes(rec, valueHash, 32);
  bufU64(rec, ctxHeight);
  bufU64(rec, ctxTimestamp);
  bufU64(rec, index);
  bufVec(rec, ns, nsLen);
  bufVec(rec, key, keyLen);
  setValue(ae, bufPtr(rec), bufLen(rec));
  setValue(anchorIndexEntry(NS_ID, index), ANCHOR_ID, 32);
  return S.OK;
}
