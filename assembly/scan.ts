// scan_bundles and transactions_root (docs/core-abi.md "Block scan"): what block import and block
// production otherwise do in JS per bundle (hash-wasm Blake3, the transactions Merkle root, a JS
// decode for the signature, sender key and nonce), done in one call per block.
//
// Both are pure functions of their input: no state read or written, no events, so they may run
// while a block is open (between apply_block and commit_block) without changing its result. They
// reuse decodeBundle's globals and OPS table, which apply_block no longer needs once it returns.

import * as S from "./status";
import { blake3Many, setJob, JOB } from "./blake3x4";
import {
  decodeBundle, bNonce, bSig, bSigLen, bHasPubkey, bPubkey, bPubkeyLen, bHasExpiry, bExpiry, bValidUntil,
} from "./bundle";
import { bufNew, bufEnsure, bufSetLen } from "./mem";

/** Output header: transactions_root [32], count u32. */
// @ts-ignore: decorator
@inline export const SCAN_HEAD: u32 = 36;
/**
 * One row per bundle after the hashes (docs/core-abi.md "Block scan"): status u16 @0, nonce u64 @2,
 * sig_offset u32 @10, sig_len u32 @14, pubkey_offset u32 @18, pubkey_len u32 @22, expiry u64 @26.
 * The hashes come first, side by side, so the host takes them as one array without gathering them.
 */
// @ts-ignore: decorator
@inline export const SCAN_ROW: u32 = 34;
/**
 * Most bundles one section may hold. A bundle that decodes is at least 75 bytes (one field-less
 * operation, docs/bundle-format.md), so a 48 MiB block frame (src/p2p/network.ts) holds fewer than
 * 2^20; the bound keeps the output (≤ 66 MiB: 32 + 34 bytes a bundle) and tree scratch far inside
 * wasm32 memory, so a hostile section of empty bundles cannot make the allocator trap.
 */
// @ts-ignore: decorator
@inline const MAX_SCAN_BUNDLES: u32 = 1 << 20;

// Tree scratch: one 32-byte node per leaf, each level reduced in place (grown as needed).
const tree = bufNew(1 << 15);
// Hash jobs (blake3x4.ts): a block's bundles, or one tree level's nodes (grown as needed).
const jobList = bufNew(1 << 14);
/**
 * K_TX_NODE = Blake3("ntv.transactions-root.node") (ASCII, named like the state root's K_NODE,
 * docs/core-abi.md "State root"), the key of every inner node; src/chain/block.ts TX_NODE_KEY holds
 * the same bytes. Written out rather than hashed at start: it is part of the block format.
 */
const K_TX_NODE = memory.data<u8>([
  152, 210, 156, 2, 245, 28, 42, 63, 85, 180, 99, 247, 30, 136, 83, 235,
  100, 98, 72, 202, 156, 79, 241, 168, 64, 2, 42, 35, 48, 208, 42, 46,
]);

/**
 * The transactions root (src/chain/block.ts transactionsRoot, which headers commit to;
 * docs/core-abi.md "Block scan"): a binary Merkle tree over n bundle hashes read `stride` bytes
 * apart from `hashes`. The leaves are the bundle hashes themselves; inner = Blake3_keyed(K_TX_NODE,
 * left ‖ right), 64 bytes and so one compression; an odd last node carried up unchanged; 32 zero
 * bytes for n = 0, the one hash for n = 1. The keyed hash is another function than the plain
 * Blake3 that made the bundle hashes, so a node cannot pass for a bundle hash: the job the former
 * 0x00/0x01 prefix bytes did at two compressions a node and one a leaf. Writes 32 bytes at out.
 */
function merkleRoot(hashes: usize, stride: u32, n: u32, out: usize): void {
  if (n == 0) {
    memory.fill(out, 0, 32);
    return;
  }
  // n ≤ len/32 (transactions_root) or ≤ MAX_SCAN_BUNDLES (scan_bundles): n << 5 fits u32.
  let t = bufEnsure(tree, n << 5);
  if (stride == 32) {
    memory.copy(t, hashes, <usize>n << 5);
  } else {
    for (let i: u32 = 0; i < n; i++) memory.copy(t + (<usize>i << 5), hashes + <usize>i * stride, 32);
  }
  let m = n;
  while (m > 1) {
    let half = m >> 1;
    // Node k of the next level goes to slot k and hashes its children (2k, 2k+1) in place: they
    // are the 64 bytes at slot 2k. blake3Many reads a group's four inputs before it stores their
    // digests, and every later pair sits above slot k, so nothing unread is overwritten.
    let jobs = bufEnsure(jobList, half * JOB);
    for (let k: u32 = 0; k < half; k++) setJob(jobs, k, t + (<usize>k << 6), 64, t + (<usize>k << 5));
    blake3Many(jobs, half, K_TX_NODE);
    if (m & 1) {
      memory.copy(t + (<usize>half << 5), t + (<usize>(m - 1) << 5), 32);
      m = half + 1;
    } else {
      m = half;
    }
  }
  memory.copy(out, t, 32);
}

/**
 * scan_bundles: input `[u32 count]` then count × `[u32 length][bundle]` (the tail of the stored
 * block, src/chain/block.ts encodeBlock). Output: transactions_root, count, every bundle's hash, then
 * one SCAN_ROW per bundle. A bundle that does not decode gets decodeBundle's status in its row (the rest of its
 * row zero); a section that is not exactly count length-prefixed bundles is INVALID_INPUT.
 */
export function scanBundles(inp: usize, len: u32, outBuf: usize): u32 {
  bufSetLen(outBuf, 0);
  if (len < 4) return S.INVALID_INPUT;
  let count = load<u32>(inp);
  // Every bundle takes at least its 4-byte length: count is bounded by the input before anything
  // is allocated for it.
  if (count > (len - 4) >> 2 || count > MAX_SCAN_BUNDLES) return S.INVALID_INPUT;
  // Walk the lengths first: the bundles must end exactly at len (no truncation, no trailing bytes),
  // so a refused section costs no hashing. off ≤ len holds throughout, so len - off cannot wrap.
  let off: u32 = 4;
  for (let i: u32 = 0; i < count; i++) {
    if (len - off < 4) return S.INVALID_INPUT;
    let n = load<u32>(inp + off);
    off += 4;
    if (n > len - off) return S.INVALID_INPUT;
    off += n;
  }
  if (off != len) return S.INVALID_INPUT;

  let size = SCAN_HEAD + count * (32 + SCAN_ROW); // ≤ 36 + 2^20 × 66: no overflow
  let o = bufEnsure(outBuf, size);
  store<u32>(o, count, 32);
  // Each bundle's row, and its hash job (docs/bundle-format.md "Bundle hash"; src/codec/bundle.ts
  // bundleHash): the hashes are made after the walk, four at a time. count ≤ 2^20, so the job list
  // (12 bytes a bundle) fits u32.
  let jobs = bufEnsure(jobList, count * JOB);
  let row = o + SCAN_HEAD + (<usize>count << 5);
  off = 4;
  for (let i: u32 = 0; i < count; i++) {
    let n = load<u32>(inp + off);
    let b = inp + off + 4;
    off += 4 + n;
    setJob(jobs, i, b, n, o + SCAN_HEAD + (<usize>i << 5));
    let st = decodeBundle(b, n);
    store<u16>(row, <u16>st, 0);
    if (st == S.OK) {
      store<u64>(row, bNonce, 2);
      store<u32>(row, <u32>(bSig - b), 10);
      store<u32>(row, bSigLen, 14);
      store<u32>(row, bHasPubkey ? <u32>(bPubkey - b) : 0, 18);
      store<u32>(row, bPubkeyLen, 22);
      // The earlier of the two deadlines (docs/core-abi.md "Expiry": either refuses the bundle).
      store<u64>(row, bHasExpiry && bExpiry < bValidUntil ? bExpiry : bValidUntil, 26);
    } else {
      memory.fill(row + 2, 0, SCAN_ROW - 2);
    }
    row += SCAN_ROW;
  }
  blake3Many(jobs, count, 0);
  merkleRoot(o + SCAN_HEAD, 32, count, o);
  bufSetLen(outBuf, size);
  return S.OK;
}

/** transactions_root: input n × 32-byte bundle hashes; output the 32-byte root. */
export function transactionsRoot(inp: usize, len: u32, outBuf: usize): u32 {
  bufSetLen(outBuf, 0);
  if ((len & 31) != 0) return S.INVALID_INPUT;
  let o = bufEnsure(outBuf, 32);
  merkleRoot(inp, 32, len >> 5, o);
  bufSetLen(outBuf, 32);
  return S.OK;
}
