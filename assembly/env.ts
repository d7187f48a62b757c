// Host imports and the overrides wired in by asconfig "use" (docs/core-abi.md "Host imports").
// The core reads state only through kv_get/kv_read and has no clock and no randomness: time and
// height arrive in the BlockContext (DESIGN.md "Determinism").

// @ts-ignore: decorator
@external("env", "kv_get")
/** Look a state key up in the host store: value length, or -1 when absent. */
export declare function kv_get(keyPtr: usize, keyLen: u32): i32;

// @ts-ignore: decorator
@external("env", "kv_read")
/** Copy the value found by the last kv_get to dst. */
export declare function kv_read(dst: usize): void;

// @ts-ignore: decorator
@external("env", "abort")
declare function hostAbort(msg: usize, file: usize, line: u32, column: u32): void;

/** `abort` means a bug: tell the host where (the debug build carries file and line), then trap. */
export function coreAbort(msg: string | null = null, file: string | null = null, line: u32 = 0, column: u32 = 0): void {
  hostAbort(changetype<usize>(msg), changetype<usize>(file), line, column);
  unreachable();
}

/** Replaces the `seed` import: randomness is forbidden in the core, any use traps. */
export function noSeed(): f64 {
  unreachable();
  return reinterpret<f64>(<u64>0);
}

/** Replaces `Date`: the core has no clock, any use traps. */
export class NoDate {
  static now(): i64 {
    unreachable();
    return 0;
  }
}
