// RegisterName (bundle-format disc. 32; spec §4.12; facts.md "Names"; docs/names.md).
// A name is 3–64 characters of letters, digits and hyphens, compared case-insensitively: the core
// lower-cases it and drops an optional ".vex" suffix (any case), so "Alice", "alice" and
// "ALICE.vex" are one name. First come, first served: the sender becomes the owner for good
// (there is no transfer or expiry yet). The first name an account registers becomes its primary
// name (reverse record); later names do not replace it.

import * as S from "../../status";
import { nameEntry, nameReverseEntry } from "../../keys";
import { exists, setValue } from "../../state";
import { ctxHeight, ctxTimestamp } from "../../context";
import { OPR_REGISTER_NAME_NAME, OPR_REGISTER_NAME_NAME_LEN } from "../../decode-ops";
import { R_NAME_BYTES, R_NAME_OWNER, R_NAME_REGISTERED_HEIGHT, R_NAME_REGISTERED_AT } from "../../abi";

// @ts-ignore: decorator
@inline export const NAME_MIN: u32 = 3;
// @ts-ignore: decorator
@inline export const NAME_MAX: u32 = 64;
// @ts-ignore: decorator
@inline const NAME_RECORD_VERSION: u8 = 1;

const LABEL = memory.data(64);
const REC = memory.data(64);

/**
 * The canonical label of a name into LABEL: ".vex" suffix (any case) removed, A–Z lower-cased.
 * Returns its length, or 0 when it is not 3–64 characters of [A-Za-z0-9-].
 */
export function canonicalName(p: usize, n: u32): u32 {
  if (n >= 4 && load<u8>(p + n - 4) == 0x2e) {
    let v = load<u8>(p + n - 3) | 0x20, e = load<u8>(p + n - 2) | 0x20, x = load<u8>(p + n - 1) | 0x20;
    if (v == 0x76 && e == 0x65 && x == 0x78) n -= 4; // ".vex"
  }
  if (n < NAME_MIN || n > NAME_MAX) return 0;
  for (let i: u32 = 0; i < n; i++) {
    let c = load<u8>(p + i);
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    let ok = (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c == 0x2d;
    if (!ok) return 0;
    store<u8>(LABEL + i, c);
  }
  return n;
}

/** RegisterName { name: String }: INVALID_NAME_FORMAT → NAME_TAKEN. */
export function execRegisterName(user: usize, op: usize): u32 {
  let n = canonicalName(<usize>load<u32>(op, OPR_REGISTER_NAME_NAME), load<u32>(op, OPR_REGISTER_NAME_NAME_LEN));
  if (n == 0) return S.INVALID_NAME_FORMAT;
  let e = nameEntry(LABEL, n);
  if (exists(e)) return S.NAME_TAKEN;
  store<u8>(REC, NAME_RECORD_VERSION);
  memory.copy(REC + R_NAME_OWNER, user, 32);
  store<u64>(REC + R_NAME_REGISTERED_HEIGHT, ctxHeight);
  store<u64>(REC + R_NAME_REGISTERED_AT, ctxTimestamp);
  setValue(e, REC, R_NAME_BYTES);
  // Cache entries never move, so `e` stays valid across this second lookup (assembly/state.ts).
  let r = nameReverseEntry(user);
  if (!exists(r)) setValue(r, LABEL, n);
  return S.OK;
}
