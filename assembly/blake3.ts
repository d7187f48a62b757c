// Blake3-256 (the full algorithm: 64-byte blocks, 1,024-byte chunks, the binary tree of chaining
// values for inputs longer than one chunk). Used for state-root paths, leaves, buckets and nodes
// (docs/core-abi.md "State root") and for custom token mints (spec §1.7). No allocation: all
// scratch lives in static data. The compression function is fully unrolled (7 rounds with the
// message schedule precomputed) because it dominates commit time.

// @ts-ignore: decorator
@inline const IV0: u32 = 0x6A09E667;
// @ts-ignore: decorator
@inline const IV1: u32 = 0xBB67AE85;
// @ts-ignore: decorator
@inline const IV2: u32 = 0x3C6EF372;
// @ts-ignore: decorator
@inline const IV3: u32 = 0xA54FF53A;
// @ts-ignore: decorator
@inline const IV4: u32 = 0x510E527F;
// @ts-ignore: decorator
@inline const IV5: u32 = 0x9B05688C;
// @ts-ignore: decorator
@inline const IV6: u32 = 0x1F83D9AB;
// @ts-ignore: decorator
@inline const IV7: u32 = 0x5BE0CD19;

// @ts-ignore: decorator
@inline export const CHUNK_START: u32 = 1;
// @ts-ignore: decorator
@inline export const CHUNK_END: u32 = 2;
// @ts-ignore: decorator
@inline const PARENT: u32 = 4;
// @ts-ignore: decorator
@inline export const ROOT: u32 = 8;

const CV = memory.data(32);
const BLOCK = memory.data(64);
const TMP = memory.data(32);
// A stack of chaining values: 54 levels cover inputs up to 2^64 bytes.
const STACK = memory.data(54 * 32);

// A wasm SIMD version of this one message (rows as i32x4, lane-gathered message words) was measured
// at 131 ns per compression against 56 ns for this scalar one in Node 22 (V8), so the scalar one
// stays for single inputs. Many short inputs at once go four abreast through blake3x4.ts.

/** One compression: cv (8 words at cvPtr) and a 64-byte block -> new cv (8 words at outPtr). */
function compress(cvPtr: usize, mPtr: usize, counter: u64, blockLen: u32, flags: u32, outPtr: usize): void {
  let m0 = load<u32>(mPtr, 0), m1 = load<u32>(mPtr, 4), m2 = load<u32>(mPtr, 8), m3 = load<u32>(mPtr, 12), m4 = load<u32>(mPtr, 16), m5 = load<u32>(mPtr, 20), m6 = load<u32>(mPtr, 24), m7 = load<u32>(mPtr, 28), m8 = load<u32>(mPtr, 32), m9 = load<u32>(mPtr, 36), m10 = load<u32>(mPtr, 40), m11 = load<u32>(mPtr, 44), m12 = load<u32>(mPtr, 48), m13 = load<u32>(mPtr, 52), m14 = load<u32>(mPtr, 56), m15 = load<u32>(mPtr, 60);
  let v0 = load<u32>(cvPtr, 0), v1 = load<u32>(cvPtr, 4), v2 = load<u32>(cvPtr, 8), v3 = load<u32>(cvPtr, 12), v4 = load<u32>(cvPtr, 16), v5 = load<u32>(cvPtr, 20), v6 = load<u32>(cvPtr, 24), v7 = load<u32>(cvPtr, 28);
  let v8: u32 = IV0, v9: u32 = IV1, v10: u32 = IV2, v11: u32 = IV3;
  let v12 = <u32>counter, v13 = <u32>(counter >>> 32), v14 = blockLen, v15 = flags;
  // round 0
  v0 += v4 + m0; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m1; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m2; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m3; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m4; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m5; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m6; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m7; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m8; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m9; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m10; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m11; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m12; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m13; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m14; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m15; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  // round 1
  v0 += v4 + m2; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m6; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m3; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m10; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m7; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m0; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m4; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m13; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m1; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m11; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m12; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m5; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m9; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m14; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m15; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m8; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  // round 2
  v0 += v4 + m3; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m4; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m10; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m12; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m13; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m2; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m7; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m14; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m6; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m5; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m9; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m0; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m11; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m15; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m8; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m1; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  // round 3
  v0 += v4 + m10; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m7; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m12; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m9; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m14; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m3; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m13; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m15; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m4; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m0; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m11; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m2; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m5; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m8; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m1; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m6; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  // round 4
  v0 += v4 + m12; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m13; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m9; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m11; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m15; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m10; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m14; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m8; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m7; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m2; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m5; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m3; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m0; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m1; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m6; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m4; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  // round 5
  v0 += v4 + m9; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m14; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m11; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m5; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m8; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m12; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m15; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m1; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m13; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m3; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m0; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m10; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m2; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m6; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m4; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m7; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  // round 6
  v0 += v4 + m11; v12 = rotr<u32>(v12 ^ v0, 16);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 12);
  v0 += v4 + m15; v12 = rotr<u32>(v12 ^ v0, 8);
  v8 += v12; v4 = rotr<u32>(v4 ^ v8, 7);
  v1 += v5 + m5; v13 = rotr<u32>(v13 ^ v1, 16);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 12);
  v1 += v5 + m0; v13 = rotr<u32>(v13 ^ v1, 8);
  v9 += v13; v5 = rotr<u32>(v5 ^ v9, 7);
  v2 += v6 + m1; v14 = rotr<u32>(v14 ^ v2, 16);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 12);
  v2 += v6 + m9; v14 = rotr<u32>(v14 ^ v2, 8);
  v10 += v14; v6 = rotr<u32>(v6 ^ v10, 7);
  v3 += v7 + m8; v15 = rotr<u32>(v15 ^ v3, 16);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 12);
  v3 += v7 + m6; v15 = rotr<u32>(v15 ^ v3, 8);
  v11 += v15; v7 = rotr<u32>(v7 ^ v11, 7);
  v0 += v5 + m14; v15 = rotr<u32>(v15 ^ v0, 16);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 12);
  v0 += v5 + m10; v15 = rotr<u32>(v15 ^ v0, 8);
  v10 += v15; v5 = rotr<u32>(v5 ^ v10, 7);
  v1 += v6 + m2; v12 = rotr<u32>(v12 ^ v1, 16);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 12);
  v1 += v6 + m12; v12 = rotr<u32>(v12 ^ v1, 8);
  v11 += v12; v6 = rotr<u32>(v6 ^ v11, 7);
  v2 += v7 + m3; v13 = rotr<u32>(v13 ^ v2, 16);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 12);
  v2 += v7 + m4; v13 = rotr<u32>(v13 ^ v2, 8);
  v8 += v13; v7 = rotr<u32>(v7 ^ v8, 7);
  v3 += v4 + m7; v14 = rotr<u32>(v14 ^ v3, 16);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 12);
  v3 += v4 + m13; v14 = rotr<u32>(v14 ^ v3, 8);
  v9 += v14; v4 = rotr<u32>(v4 ^ v9, 7);
  store<u32>(outPtr, v0 ^ v8, 0);
  store<u32>(outPtr, v1 ^ v9, 4);
  store<u32>(outPtr, v2 ^ v10, 8);
  store<u32>(outPtr, v3 ^ v11, 12);
  store<u32>(outPtr, v4 ^ v12, 16);
  store<u32>(outPtr, v5 ^ v13, 20);
  store<u32>(outPtr, v6 ^ v14, 24);
  store<u32>(outPtr, v7 ^ v15, 28);
}

// Keyed mode (Blake3 §2.3 keyed_hash): the key words replace the IV in every chunk and parent
// compression, and KEYED_HASH is set in every flags word. `keyPtr` 0 = the plain hash.
// @ts-ignore: decorator
@inline export const KEYED_HASH: u32 = 16;
let keyPtr: usize = 0;
let modeFlags: u32 = 0;

function setIV(p: usize): void {
  if (keyPtr != 0) {
    memory.copy(p, keyPtr, 32);
    return;
  }
  store<u32>(p, IV0, 0); store<u32>(p, IV1, 4); store<u32>(p, IV2, 8); store<u32>(p, IV3, 12);
  store<u32>(p, IV4, 16); store<u32>(p, IV5, 20); store<u32>(p, IV6, 24); store<u32>(p, IV7, 28);
}

/** Chaining value of one chunk (len <= 1024) into outPtr; rootFlag is ROOT for a single-chunk input. */
function chunkCV(ptr: usize, len: u32, chunkIndex: u64, rootFlag: u32, outPtr: usize): void {
  setIV(CV);
  let blocks: u32 = len == 0 ? 1 : (len + 63) >> 6;
  for (let b: u32 = 0; b < blocks; b++) {
    let off = b << 6;
    let blen: u32 = len - off;
    if (blen > 64) blen = 64;
    let flags: u32 = b == 0 ? CHUNK_START : 0;
    if (b == blocks - 1) flags |= CHUNK_END | rootFlag;
    let m = ptr + off;
    if (blen < 64) {
      memory.fill(BLOCK, 0, 64);
      memory.copy(BLOCK, m, blen);
      m = BLOCK;
    }
    compress(CV, m, chunkIndex, blen, flags | modeFlags, CV);
  }
  memory.copy(outPtr, CV, 32);
}

/** Parent node: left cv at l, right cv at r -> outPtr. */
function parentCV(l: usize, r: usize, flags: u32, outPtr: usize): void {
  memory.copy(BLOCK, l, 32);
  memory.copy(BLOCK + 32, r, 32);
  setIV(CV);
  compress(CV, BLOCK, 0, 64, PARENT | flags | modeFlags, outPtr);
}

/** Blake3-256 of len bytes at ptr, 32 bytes written at outPtr (may overlap the input). */
export function blake3(ptr: usize, len: u32, outPtr: usize): void {
  if (len <= 1024) {
    chunkCV(ptr, len, 0, ROOT, outPtr);
    return;
  }
  let off: u32 = 0;
  let chunk: u64 = 0;
  let sp: u32 = 0;
  while (len - off > 1024) {
    chunkCV(ptr + off, 1024, chunk, 0, STACK + (sp << 5));
    sp++;
    // Merge completed subtrees: as many as the trailing zero bits of the chunk count (Blake3 §5.1.2).
    let total = chunk + 1;
    while ((total & 1) == 0) {
      parentCV(STACK + ((sp - 2) << 5), STACK + ((sp - 1) << 5), 0, STACK + ((sp - 2) << 5));
      sp--;
      total >>= 1;
    }
    off += 1024;
    chunk++;
  }
  chunkCV(ptr + off, len - off, chunk, 0, TMP);
  while (sp > 0) {
    parentCV(STACK + ((sp - 1) << 5), TMP, sp == 1 ? ROOT : 0, TMP);
    sp--;
  }
  memory.copy(outPtr, TMP, 32);
}

/** Blake3 keyed_hash with the 32-byte key at key: len bytes at ptr → 32 bytes at outPtr. */
export function blake3Keyed(key: usize, ptr: usize, len: u32, outPtr: usize): void {
  keyPtr = key;
  modeFlags = KEYED_HASH;
  blake3(ptr, len, outPtr);
  keyPtr = 0;
  modeFlags = 0;
}
