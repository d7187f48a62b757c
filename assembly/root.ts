// The state root: a bucketed Merkle tree (docs/core-abi.md "State root", docs/state-root.md).
//   path = Blake3(key); leaf = Blake3_keyed(K_LEAF, path ‖ value)
//   65,536 buckets by path[0..2]; bucket = sorted (path, leaf) entries;
//   bucket_hash = Blake3_keyed(K_BUCKET, entries) or zero when empty
//   node i has children 2i, 2i+1; leaves at 65,536 + bucket;
//   node = Blake3_keyed(K_NODE, l ‖ r), zero if both zero
//   K_x = Blake3("ntv.state-root.x"): three domains, and one compression for a node, for the leaf of
//   any value up to 32 bytes, and for a bucket of one entry (docs/state-root.md, "Hashing").
// Only the buckets of keys written in the block, and their paths to node 1, are rehashed at commit.
// Bucket records (0xF0, or 0xF3 slices for a bucket of more than 16 entries), node hashes (0xF1)
// and group records (0xF2: the 16 bucket hashes under a level-12 node) are loaded lazily through
// kv_get and kept for the life of the instance, like every other key. The group records are what
// make a fresh instance cheap: the siblings of a dirty path at levels 12–16 come from one 512-byte
// record instead of up to 31 bucket records (docs/state-root.md "Group records").

import { blake3, blake3Keyed } from "./blake3";
import { blake3Many, setJob, JOB } from "./blake3x4";
import { kv_get, kv_read } from "./env";
import { P_BUCKET, P_NODE, P_GROUP, P_SLICE, BUCKET_SLICE_ABOVE } from "./abi";
import {
  bufNew, bufPtr, bufLen, bufSetLen, bufReserve, bufU8, bufU32, bufBytes, bufEnsure, bytesCmp, isZero,
} from "./mem";
import {
  dirtyList, clearJournal, E_FLAGS, E_KEY, E_KEYLEN, E_VALLEN, F_DIRTY, F_PATH, valPtr, pathOf,
} from "./state";

// @ts-ignore: decorator
@inline const NBUCKETS: u32 = 65536;
// @ts-ignore: decorator
@inline const NNODES: u32 = 131072;
/** Nodes below this index (levels 0-11) are persisted as 0xF1 records; see nodePtr. */
// @ts-ignore: decorator
@inline const STORED_NODES: u32 = 4096;
/** Level-12 subtrees of 16 buckets each; group g holds the hashes of buckets 16g … 16g + 15. */
// @ts-ignore: decorator
@inline const NGROUPS: u32 = 4096;

const NODES: usize = heap.alloc(<usize>NNODES * 32);
const nodeLoaded: usize = heap.alloc(NNODES >> 3);
const nodeDirty: usize = heap.alloc(NNODES >> 3);
const BUCKETS: usize = heap.alloc(<usize>NBUCKETS * 12); // [ptr u32 (a spare byte, then the entries), count u32, cap u32]
const bucketLoaded: usize = heap.alloc(NBUCKETS >> 3);
/** The buckets a commit changed, ascending (step 3 meets them in bucket order), and how many. */
const dirtyBuckets: usize = heap.alloc(<usize>NBUCKETS << 2);
let dirtyBucketCount: u32 = 0;
const groupDirty: usize = heap.alloc(NGROUPS >> 3);
/**
 * A bucket of more than SLICE_ABOVE entries is stored as up to 16 slice records (0xF3 ‖ u16be b ‖
 * u8 s: its entries whose path[2] >> 4 is s), so a block that changes a few of its entries writes
 * those slices and not the whole bucket (docs/state-root.md "Bucket slices"). Storage only: the
 * bucket hash is over all its entries either way. `bucketSliced`: the bucket is stored as slices;
 * `sliceDirty`: per bucket, the slices this block changed (u16 mask).
 */
const SLICE_ABOVE = BUCKET_SLICE_ABOVE;
const bucketSliced: usize = heap.alloc(NBUCKETS >> 3);
const sliceDirty: usize = heap.alloc(<usize>NBUCKETS << 1);
memory.fill(bucketSliced, 0, NBUCKETS >> 3);
memory.fill(sliceDirty, 0, <usize>NBUCKETS << 1);
memory.fill(NODES, 0, <usize>NNODES * 32);
memory.fill(nodeLoaded, 0, NNODES >> 3);
memory.fill(nodeDirty, 0, NNODES >> 3);
memory.fill(BUCKETS, 0, <usize>NBUCKETS * 12);
memory.fill(bucketLoaded, 0, NBUCKETS >> 3);
memory.fill(groupDirty, 0, NGROUPS >> 3);

const DKEY = memory.data(8);
const GROUP_RECORD = memory.data(512);
const K_LEAF = memory.data(32);
const K_BUCKET = memory.data(32);
const K_NODE = memory.data(32);
const D_LEAF = memory.data<u8>([110, 116, 118, 46, 115, 116, 97, 116, 101, 45, 114, 111, 111, 116, 46, 108, 101, 97, 102]);
const D_BUCKET = memory.data<u8>([110, 116, 118, 46, 115, 116, 97, 116, 101, 45, 114, 111, 111, 116, 46, 98, 117, 99, 107, 101, 116]);
const D_NODE = memory.data<u8>([110, 116, 118, 46, 115, 116, 97, 116, 101, 45, 114, 111, 111, 116, 46, 110, 111, 100, 101]);
blake3(D_LEAF, 19, K_LEAF);
blake3(D_BUCKET, 21, K_BUCKET);
blake3(D_NODE, 19, K_NODE);
const PAIR = memory.data(72);
const sorted = bufNew(1 << 16);
const sortTmp = bufNew(1 << 16);
const bucketCounts = bufNew((NBUCKETS + 1) << 2);
const groupBuf = bufNew(1 << 16);
// A commit's hashes go four abreast (blake3x4.ts): the job lists, the leaf preimages (path ‖ value,
// one after another) and the leaves they hash to, 32 bytes a key in bucket order.
const jobList = bufNew(1 << 14);
const leafInputs = bufNew(1 << 16);
const leafHashes = bufNew(1 << 15);

// @ts-ignore: decorator
@inline function bitGet(bm: usize, i: u32): bool {
  return (load<u8>(bm + (i >> 3)) & (<u8>1 << <u8>(i & 7))) != 0;
}
// @ts-ignore: decorator
@inline function bitSet(bm: usize, i: u32): void {
  let p = bm + (i >> 3);
  store<u8>(p, load<u8>(p) | (<u8>1 << <u8>(i & 7)));
}
// @ts-ignore: decorator
@inline function bitClear(bm: usize, i: u32): void {
  let p = bm + (i >> 3);
  store<u8>(p, load<u8>(p) & ~(<u8>1 << <u8>(i & 7)));
}

let treeChecked = false;

/**
 * On the first use of the tree, look at the root: a zero root means an empty tree (every bucket
 * empty, every node zero), so nothing else needs asking the host — this saves ~200k kv_get calls
 * when committing genesis.
 */
function checkEmptyTree(): void {
  treeChecked = true;
  store<u8>(DKEY, P_NODE);
  store<u32>(DKEY + 1, bswap<u32>(1));
  let n = kv_get(DKEY, 5);
  if (n == 32) {
    kv_read(NODES + 32);
    bitSet(nodeLoaded, 1);
  } else {
    assert(n < 0, "corrupt node record");
    memory.fill(nodeLoaded, 0xff, NNODES >> 3);
    memory.fill(bucketLoaded, 0xff, NBUCKETS >> 3);
  }
}

/**
 * Node i's hash. Nodes 1–4,095 are loaded from 0xF1 ‖ u32be i on first use (absent = zero); nodes of
 * levels 12–15 are recomputed from the leaves below them; a leaf node (the hash of bucket i − 65,536)
 * is the hash of its bucket row when that is loaded, else it comes with its group's record.
 */
export function nodePtr(i: u32): usize {
  if (!treeChecked) checkEmptyTree();
  let p = NODES + (<usize>i << 5);
  if (!bitGet(nodeLoaded, i)) {
    if (i >= NNODES / 2) {
      let b = i - NNODES / 2;
      if (bitGet(bucketLoaded, b)) {
        hashBucket(b, p);
        bitSet(nodeLoaded, i);
      } else loadGroup(b >> 4);
      return p;
    }
    if (i >= STORED_NODES) {
      // Not persisted: recompute from the children (a subtree of at most 16 buckets).
      combine(nodePtr(i << 1), nodePtr((i << 1) | 1), p);
      bitSet(nodeLoaded, i);
      return p;
    }
    store<u8>(DKEY, P_NODE);
    store<u32>(DKEY + 1, bswap<u32>(i));
    let n = kv_get(DKEY, 5);
    if (n == 32) kv_read(p);
    else assert(n < 0, "corrupt node record"); // the host store is damaged
    bitSet(nodeLoaded, i);
  }
  return p;
}

/**
 * The leaf nodes of group g from its 0xF2 ‖ u16be g record (absent: all 16 buckets empty), for the
 * leaves not in memory yet (a leaf in memory is as new as the record or newer).
 */
function loadGroup(g: u32): void {
  store<u8>(DKEY, P_GROUP);
  store<u16>(DKEY + 1, bswap<u16>(<u16>g));
  let n = kv_get(DKEY, 3);
  if (n == 512) kv_read(GROUP_RECORD);
  else {
    assert(n < 0, "corrupt group record"); // the host store is damaged
    memory.fill(GROUP_RECORD, 0, 512);
  }
  let first = NNODES / 2 + (g << 4);
  for (let k: u32 = 0; k < 16; k++) {
    if (bitGet(nodeLoaded, first + k)) continue;
    memory.copy(NODES + (<usize>(first + k) << 5), GROUP_RECORD + (<usize>k << 5), 32);
    bitSet(nodeLoaded, first + k);
  }
}

/** Whether the 16 leaf hashes of group g are all zero (each loaded on the way, nodePtr). */
function groupIsEmpty(g: u32): bool {
  let first = NNODES / 2 + (g << 4);
  let empty = true;
  for (let k: u32 = 0; k < 16; k++) if (!isZero(nodePtr(first + k), 32)) empty = false;
  return empty;
}

/** bucket_hash = Blake3_keyed(K_BUCKET, entries), zero when empty, into dst. */
function hashBucket(b: u32, dst: usize): void {
  let row = bucketRow(b);
  let cnt = load<u32>(row, 4);
  if (cnt == 0) memory.fill(dst, 0, 32);
  else blake3Keyed(K_BUCKET, <usize>load<u32>(row, 0) + 1, cnt << 6, dst);
}

/**
 * The row of bucket b, loaded on first use: nothing when its hash (from its group record) is zero,
 * else its 0xF0 ‖ u16be b record, or when that is absent its 0xF3 slices in order.
 */
export function bucketRow(b: u32): usize {
  if (!treeChecked) checkEmptyTree();
  let row = BUCKETS + <usize>b * 12;
  if (!bitGet(bucketLoaded, b)) {
    if (!isZero(nodePtr(NNODES / 2 + b), 32)) {
      store<u8>(DKEY, P_BUCKET);
      store<u16>(DKEY + 1, bswap<u16>(<u16>b));
      let n = kv_get(DKEY, 3);
      if (n > 0) {
        assert((n & 63) == 0, "corrupt bucket record"); // entries are 64 bytes
        rowAppend(row, <u32>n >> 6);
        kv_read(<usize>load<u32>(row, 0) + 1);
        store<u32>(row, <u32>n >> 6, 4);
      } else {
        for (let s: u32 = 0; s < 16; s++) {
          store<u8>(DKEY, P_SLICE);
          store<u16>(DKEY + 1, bswap<u16>(<u16>b));
          store<u8>(DKEY + 3, <u8>s);
          let m = kv_get(DKEY, 4);
          if (m <= 0) continue;
          assert((m & 63) == 0, "corrupt bucket slice"); // entries are 64 bytes
          let cnt = load<u32>(row, 4);
          rowAppend(row, <u32>m >> 6);
          kv_read(<usize>load<u32>(row, 0) + 1 + (<usize>cnt << 6));
          store<u32>(row, cnt + (<u32>m >> 6), 4);
        }
        assert(load<u32>(row, 4) > 0, "missing bucket record"); // its hash is not zero: the host store is damaged
        bitSet(bucketSliced, b);
      }
    }
    bitSet(bucketLoaded, b);
  }
  return row;
}

/** Room in the row for `more` entries after its count (a spare byte, then the entries). */
function rowAppend(row: usize, more: u32): void {
  let ptr = <usize>load<u32>(row, 0);
  let cnt = load<u32>(row, 4);
  let cap = load<u32>(row, 8);
  if (cnt + more <= cap) return;
  // doubling: a row grows a few times as entries come in one by one, or a bucket slice by slice
  cap = cap << 1 > cnt + more ? cap << 1 : cnt + more + 4;
  let np = heap.alloc(1 + (<usize>cap << 6));
  store<u8>(np, 0x01);
  if (cnt > 0) memory.copy(np + 1, ptr + 1, <usize>cnt << 6);
  if (ptr != 0) heap.free(ptr);
  store<u32>(row, <u32>np, 0);
  store<u32>(row, cap, 8);
}

/** The slice of an entry's path (path[2] >> 4): which 0xF3 record holds it when its bucket is sliced. */
// @ts-ignore: decorator
@inline function sliceOfPath(path: usize): u32 {
  return <u32>load<u8>(path + 2) >> 4;
}

/** The index past the entries of slices ≤ sl from `from` on (a bucket's entries are in slice order). */
function sliceEnd(entries: usize, cnt: u32, from: u32, sl: u32): u32 {
  let j = from;
  while (j < cnt && sliceOfPath(entries + (<usize>j << 6)) <= sl) j++;
  return j;
}

// @ts-ignore: decorator
@inline function markSlice(path: usize): void {
  let p = sliceDirty + (<usize>bucketOfPath(path) << 1);
  store<u16>(p, load<u16>(p) | (<u16>1 << <u16>sliceOfPath(path)));
}

function cmp32(a: usize, b: usize): i32 {
  for (let i: usize = 0; i < 32; i += 8) {
    let x = bswap<u64>(load<u64>(a + i));
    let y = bswap<u64>(load<u64>(b + i));
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

// @ts-ignore: decorator
@inline function bucketOfPath(path: usize): u32 {
  return (<u32>load<u8>(path) << 8) | <u32>load<u8>(path + 1);
}

/** Insert/replace (leaf != 0) or remove (leaf == 0) the entry of path in the bucket of `row`. */
function bucketPut(row: usize, path: usize, leaf: usize): void {
  let ptr = <usize>load<u32>(row, 0);
  let cnt = load<u32>(row, 4);
  let lo: u32 = 0, hi = cnt;
  let c: i32 = 1;
  while (lo < hi) {
    let mid = (lo + hi) >> 1;
    c = cmp32(ptr + 1 + (<usize>mid << 6), path);
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  let at = ptr + 1 + (<usize>lo << 6);
  let found = lo < cnt && cmp32(at, path) == 0;
  if (leaf == 0 && !found) return;
  markSlice(path);
  if (leaf == 0) {
    memory.copy(at, at + 64, <usize>(cnt - lo - 1) << 6);
    store<u32>(row, cnt - 1, 4);
  } else if (found) {
    memory.copy(at + 32, leaf, 32);
  } else {
    if (cnt == load<u32>(row, 8)) {
      rowAppend(row, 1);
      at = <usize>load<u32>(row, 0) + 1 + (<usize>lo << 6);
    }
    memory.copy(at + 64, at, <usize>(cnt - lo) << 6);
    memory.copy(at, path, 32);
    memory.copy(at + 32, leaf, 32);
    store<u32>(row, cnt + 1, 4);
  }
}

// @ts-ignore: decorator
@inline function keyCmp(a: u32, b: u32): i32 {
  return bytesCmp(<usize>a + E_KEY, load<u32>(<usize>a, E_KEYLEN), <usize>b + E_KEY, load<u32>(<usize>b, E_KEYLEN));
}

/** The first 8 key bytes as a big-endian u64 (zero-padded): orders most keys without a deref. */
function keyPrefix(e: usize): u64 {
  let n = load<u32>(e, E_KEYLEN);
  if (n >= 8) return bswap<u64>(load<u64>(e + E_KEY));
  let v: u64 = 0;
  for (let i: u32 = 0; i < 8; i++) v = (v << 8) | (i < n ? <u64>load<u8>(e + E_KEY + i) : 0);
  return v;
}

// @ts-ignore: decorator
@inline function recLess(a: usize, b: usize): bool {
  let pa = load<u64>(a), pb = load<u64>(b);
  if (pa != pb) return pa < pb;
  return keyCmp(load<u32>(a, 8), load<u32>(b, 8)) < 0;
}

/**
 * Sort 16-byte records [prefix u64, entry u32, pad u32] by key: insertion-sorted runs of 16, then
 * bottom-up merges through `tmp`. A merge sort because its O(n log n) holds for every input order
 * (a quicksort pivot rule was driven quadratic by genesis's write order); the prefix keeps most
 * comparisons inside the array instead of dereferencing two scattered entries.
 */
function sortRecords(base: usize, n: u32, tmp: usize): usize {
  const RUN: u32 = 16;
  for (let lo: u32 = 0; lo < n; lo += RUN) {
    let hi = lo + RUN < n ? lo + RUN : n;
    for (let i = lo + 1; i < hi; i++) {
      let x0 = load<u64>(base + (<usize>i << 4));
      let x1 = load<u64>(base + (<usize>i << 4), 8);
      store<u64>(tmp, x0);
      store<u64>(tmp, x1, 8);
      let j = i;
      while (j > lo && recLess(tmp, base + (<usize>(j - 1) << 4))) {
        memory.copy(base + (<usize>j << 4), base + (<usize>(j - 1) << 4), 16);
        j--;
      }
      store<u64>(base + (<usize>j << 4), x0);
      store<u64>(base + (<usize>j << 4), x1, 8);
    }
  }
  let src = base, dst = tmp;
  for (let width = RUN; width < n; width <<= 1) {
    for (let lo: u32 = 0; lo < n; lo += width << 1) {
      let mid = lo + width < n ? lo + width : n;
      let hi = lo + (width << 1) < n ? lo + (width << 1) : n;
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        let a = src + (<usize>i << 4);
        let b = src + (<usize>j << 4);
        let d = dst + (<usize>k << 4);
        if (recLess(b, a)) {
          store<u64>(d, load<u64>(b));
          store<u64>(d, load<u64>(b, 8), 8);
          j++;
        } else {
          store<u64>(d, load<u64>(a));
          store<u64>(d, load<u64>(a, 8), 8);
          i++;
        }
        k++;
      }
      if (i < mid) memory.copy(dst + (<usize>k << 4), src + (<usize>i << 4), <usize>(mid - i) << 4);
      else if (j < hi) memory.copy(dst + (<usize>k << 4), src + (<usize>j << 4), <usize>(hi - j) << 4);
    }
    let t = src;
    src = dst;
    dst = t;
  }
  return src;
}

/** node = Blake3_keyed(K_NODE, l ‖ r), or zero when both children are zero. */
function combine(l: usize, r: usize, dst: usize): void {
  if (isZero(l, 32) && isZero(r, 32)) {
    memory.fill(dst, 0, 32);
  } else {
    memory.copy(PAIR, l, 32);
    memory.copy(PAIR + 32, r, 32);
    blake3Keyed(K_NODE, PAIR, 64, dst);
  }
}

/**
 * Close the block: fold the dirty keys into their buckets, rehash the dirty buckets and their paths
 * to the root, and write CommitResult { state_root, writes } into out (sorted by key:
 * state keys, then 0xF0 buckets, then 0xF1 nodes — big-endian indices keep byte order).
 */
export function commit(out: usize): void {
  // 1. The keys written in the block, sorted.
  let dl = bufPtr(dirtyList);
  let dn = bufLen(dirtyList) >> 2;
  let rp = bufEnsure(sorted, dn << 4);
  let sn: u32 = 0;
  for (let i: u32 = 0; i < dn; i++) {
    let e = <usize>load<u32>(dl + (<usize>i << 2));
    let f = load<u32>(e, E_FLAGS);
    if ((f & F_DIRTY) == 0) continue; // reverted, or listed twice
    store<u32>(e, f & ~F_DIRTY, E_FLAGS);
    let r = rp + (<usize>sn << 4);
    store<u64>(r, keyPrefix(e));
    store<u64>(r, <u64>e, 8);
    sn++;
  }
  bufSetLen(dirtyList, 0);
  clearJournal();
  let tmp = bufEnsure(sortTmp, sn << 4);
  let sp = sortRecords(rp, sn, tmp);

  // 2. Paths (computed once per key for the instance's life, the new ones hashed together) and a
  //    counting sort of the keys by bucket, so each dirty bucket takes all its keys while its
  //    record is in cache.
  let jobs = bufEnsure(jobList, sn * JOB);
  let nj: u32 = 0;
  for (let i: u32 = 0; i < sn; i++) {
    let e = <usize>load<u32>(sp + (<usize>i << 4), 8);
    let f = load<u32>(e, E_FLAGS);
    if ((f & F_PATH) == 0) {
      setJob(jobs, nj++, e + E_KEY, load<u32>(e, E_KEYLEN), pathOf(e));
      store<u32>(e, f | F_PATH, E_FLAGS);
    }
  }
  blake3Many(jobs, nj, 0);
  let counts = bufEnsure(bucketCounts, (NBUCKETS + 1) << 2);
  memory.fill(counts, 0, <usize>(NBUCKETS + 1) << 2);
  for (let i: u32 = 0; i < sn; i++) {
    let e = <usize>load<u32>(sp + (<usize>i << 4), 8);
    let b = bucketOfPath(pathOf(e));
    let c = counts + (<usize>(b + 1) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  for (let b: u32 = 1; b <= NBUCKETS; b++) {
    let c = counts + (<usize>b << 2);
    store<u32>(c, load<u32>(c) + load<u32>(c - 4));
  }
  let byBucket = bufEnsure(groupBuf, sn << 2);
  for (let i: u32 = 0; i < sn; i++) {
    let e = load<u32>(sp + (<usize>i << 4), 8);
    let c = counts + (<usize>bucketOfPath(pathOf(<usize>e)) << 2);
    let at = load<u32>(c);
    store<u32>(c, at + 1);
    store<u32>(byBucket + (<usize>at << 2), e);
  }

  // 3. The leaves, leaf = Blake3_keyed(K_LEAF, path ‖ value) (the path commits to the key), all
  //    hashed at once; then per dirty bucket its leaves in (a deleted key's entry out), and the
  //    dirty buckets' hashes at once.
  let inSize: usize = 0;
  for (let i: u32 = 0; i < sn; i++) {
    let vlen = load<i32>(<usize>load<u32>(byBucket + (<usize>i << 2)), E_VALLEN);
    if (vlen >= 0) inSize += 32 + <usize>vlen;
  }
  // Values are records of the block (≤ the 4 GiB of wasm32 memory in all), so inSize fits u32.
  let pre = bufEnsure(leafInputs, <u32>inSize);
  let leaves = bufEnsure(leafHashes, sn << 5);
  nj = 0;
  for (let i: u32 = 0; i < sn; i++) {
    let e = <usize>load<u32>(byBucket + (<usize>i << 2));
    let vlen = load<i32>(e, E_VALLEN);
    if (vlen < 0) continue;
    let total = 32 + <u32>vlen;
    memory.copy(pre, pathOf(e), 32);
    memory.copy(pre + 32, valPtr(e), <u32>vlen);
    setJob(jobs, nj++, pre, total, leaves + (<usize>i << 5));
    pre += total;
  }
  blake3Many(jobs, nj, K_LEAF);
  // Bucket hashes go into leaf node 65,536 + b (zero for an empty bucket). A bucket's record is
  // final once its own keys are in: later buckets' inserts never move it.
  let i: u32 = 0;
  nj = 0;
  while (i < sn) {
    let e0 = <usize>load<u32>(byBucket + (<usize>i << 2));
    let b = bucketOfPath(pathOf(e0));
    let row = bucketRow(b);
    while (i < sn) {
      let e = <usize>load<u32>(byBucket + (<usize>i << 2));
      if (bucketOfPath(pathOf(e)) != b) break;
      bucketPut(row, pathOf(e), load<i32>(e, E_VALLEN) >= 0 ? leaves + (<usize>i << 5) : 0);
      i++;
    }
    store<u32>(dirtyBuckets + (<usize>dirtyBucketCount << 2), b);
    dirtyBucketCount++;
    bitSet(groupDirty, b >> 4);
    let node = NNODES / 2 + b;
    let dst = NODES + (<usize>node << 5);
    let cnt = load<u32>(row, 4);
    if (cnt == 0) memory.fill(dst, 0, 32);
    else setJob(jobs, nj++, <usize>load<u32>(row, 0) + 1, cnt << 6, dst);
    bitSet(nodeLoaded, node);
    bitSet(nodeDirty, node);
  }
  blake3Many(jobs, nj, K_BUCKET);

  // 4. Up the tree, level by level (levels 16 .. 1), each parent once, each level's hashes at once.
  for (let L: u32 = 16; L >= 1; L--) {
    let start: u32 = 1 << L;
    let end: u32 = start << 1;
    let i = start;
    nj = 0;
    while (i < end) {
      let w = i >> 6;
      let word = load<u64>(nodeDirty + (<usize>w << 3));
      word &= (<u64>-1) << <u64>(i & 63);
      if (end < (w + 1) << 6) word &= (<u64>1 << <u64>(end & 63)) - 1;
      while (word != 0) {
        let idx = (w << 6) + <u32>ctz<u64>(word);
        word &= word - 1;
        let p = idx >> 1;
        if (bitGet(nodeDirty, p)) continue;
        // Both children in place (a sibling not yet in memory is loaded or recomputed now): they
        // are the 64 bytes at node 2p, the preimage of node p.
        let l = nodePtr(p << 1);
        let r = nodePtr((p << 1) | 1);
        let dst = NODES + (<usize>p << 5);
        if (isZero(l, 32) && isZero(r, 32)) memory.fill(dst, 0, 32);
        else setJob(jobs, nj++, l, 64, dst);
        bitSet(nodeLoaded, p);
        bitSet(nodeDirty, p);
      }
      i = (w + 1) << 6;
    }
    // A level has no more parents than dirty nodes, and never more dirty nodes than the block has
    // dirty keys (sn): the job list holds them.
    blake3Many(jobs, nj, K_NODE);
  }

  // 5. CommitResult. The exact size first, then plain stores (6 MB for a 10,000-transfer block).
  if (!treeChecked) checkEmptyTree();
  let size: usize = 36;
  for (let i: u32 = 0; i < sn; i++) {
    let e = <usize>load<u32>(sp + (<usize>i << 4), 8);
    let vlen = load<i32>(e, E_VALLEN);
    size += 5 + <usize>load<u32>(e, E_KEYLEN) + (vlen >= 0 ? 4 + <usize>vlen : 0);
  }
  for (let k: u32 = 0; k < dirtyBucketCount; k++) {
    let b = load<u32>(dirtyBuckets + (<usize>k << 2));
    let cnt = load<u32>(BUCKETS + <usize>b * 12, 4);
    // its 0xF0 record (or its deletion), and up to 16 slices (puts or deletions) holding its entries
    size += 12 + 16 * 13 + (<usize>cnt << 7);
  }
  size += <usize>(STORED_NODES) * 46; // upper bound for the nodes
  for (let w: u32 = 0; w < (NGROUPS >> 6); w++) size += <usize>popcnt<u64>(load<u64>(groupDirty + (<usize>w << 3))) * 524;
  let o = bufEnsure(out, <u32>size);
  let w0 = o;
  memory.copy(o, nodePtr(1), 32);
  o += 36;
  let nw: u32 = 0;
  for (let i: u32 = 0; i < sn; i++) {
    let e = <usize>load<u32>(sp + (<usize>i << 4), 8);
    let klen = load<u32>(e, E_KEYLEN);
    store<u32>(o, klen);
    memory.copy(o + 4, e + E_KEY, klen);
    o += 4 + klen;
    let vlen = load<i32>(e, E_VALLEN);
    if (vlen >= 0) {
      store<u8>(o, 1);
      store<u32>(o + 1, <u32>vlen);
      memory.copy(o + 5, valPtr(e), <u32>vlen);
      o += 5 + <usize>vlen;
    } else {
      store<u8>(o, 0);
      o += 1;
    }
    nw++;
  }
  for (let k: u32 = 0; k < dirtyBucketCount; k++) {
    let b = load<u32>(dirtyBuckets + (<usize>k << 2));
    let row = BUCKETS + <usize>b * 12;
    let cnt = load<u32>(row, 4);
    // Stored whole (put, or deleted when empty), or as slices (below, after the groups, in key
    // order), when the whole record goes (it may hold more than 16 entries: written before slices).
    if (cnt > SLICE_ABOVE && bitGet(bucketSliced, b)) continue;
    store<u32>(o, 3);
    store<u8>(o + 4, P_BUCKET);
    store<u8>(o + 5, <u8>(b >> 8));
    store<u8>(o + 6, <u8>b);
    if (cnt == 0 || cnt > SLICE_ABOVE) {
      store<u8>(o + 7, 0);
      o += 8;
    } else {
      store<u8>(o + 7, 1);
      store<u32>(o + 8, cnt << 6);
      memory.copy(o + 12, <usize>load<u32>(row, 0) + 1, <usize>cnt << 6);
      o += 12 + (<usize>cnt << 6);
    }
    nw++;
  }
  // Nodes 1..4,095 only (levels 0-11): deeper nodes and the bucket hashes are recomputed from the
  // bucket records when needed (docs/core-abi.md "State root", docs/state-root.md).
  for (let w: u32 = 0; w < (STORED_NODES >> 6); w++) {
    let word = load<u64>(nodeDirty + (<usize>w << 3));
    while (word != 0) {
      let idx = (w << 6) + <u32>ctz<u64>(word);
      word &= word - 1;
      store<u32>(o, 5);
      store<u8>(o + 4, P_NODE);
      store<u32>(o + 5, bswap<u32>(idx));
      let h = NODES + (<usize>idx << 5);
      if (isZero(h, 32)) {
        store<u8>(o + 9, 0);
        o += 10;
      } else {
        store<u8>(o + 9, 1);
        store<u32>(o + 10, 32);
        memory.copy(o + 14, h, 32);
        o += 46;
      }
      nw++;
    }
  }
  // The dirty groups' records (their 16 leaves are in memory: step 4 computed each dirty path's
  // level-12 ancestor from all the leaves below it).
  for (let w: u32 = 0; w < (NGROUPS >> 6); w++) {
    let word = load<u64>(groupDirty + (<usize>w << 3));
    while (word != 0) {
      let g = (w << 6) + <u32>ctz<u64>(word);
      word &= word - 1;
      store<u32>(o, 3);
      store<u8>(o + 4, P_GROUP);
      store<u8>(o + 5, <u8>(g >> 8));
      store<u8>(o + 6, <u8>g);
      if (groupIsEmpty(g)) {
        store<u8>(o + 7, 0);
        o += 8;
      } else {
        store<u8>(o + 7, 1);
        store<u32>(o + 8, 512);
        memory.copy(o + 12, NODES + (<usize>(NNODES / 2 + (g << 4)) << 5), 512);
        o += 524;
      }
      nw++;
    }
  }
  // The sliced buckets' changed slices (every non-empty one for a bucket sliced now), and every
  // slice of a bucket stored whole again deleted.
  for (let k: u32 = 0; k < dirtyBucketCount; k++) {
    let b = load<u32>(dirtyBuckets + (<usize>k << 2));
    let row = BUCKETS + <usize>b * 12;
    let cnt = load<u32>(row, 4);
    let was = bitGet(bucketSliced, b);
    let mask = <u32>load<u16>(sliceDirty + (<usize>b << 1));
    store<u16>(sliceDirty + (<usize>b << 1), 0);
    if (cnt <= SLICE_ABOVE) {
      if (!was) continue;
      for (let sl: u32 = 0; sl < 16; sl++) {
        o = sliceHead(o, b, sl);
        store<u8>(o, 0);
        o += 1;
        nw++;
      }
      bitClear(bucketSliced, b);
      continue;
    }
    let entries = <usize>load<u32>(row, 0) + 1;
    let i: u32 = 0;
    for (let sl: u32 = 0; sl < 16; sl++) {
      let j = sliceEnd(entries, cnt, i, sl);
      if (!was ? j > i : (mask & (<u32>1 << sl)) != 0) {
        o = sliceHead(o, b, sl);
        if (j == i) {
          store<u8>(o, 0);
          o += 1;
        } else {
          store<u8>(o, 1);
          store<u32>(o + 1, (j - i) << 6);
          memory.copy(o + 5, entries + (<usize>i << 6), <usize>(j - i) << 6);
          o += 5 + (<usize>(j - i) << 6);
        }
        nw++;
      }
      i = j;
    }
    bitSet(bucketSliced, b);
  }
  store<u32>(w0 + 32, nw);
  bufSetLen(out, <u32>(o - w0));
  dirtyBucketCount = 0;
  memory.fill(nodeDirty, 0, NNODES >> 3);
  memory.fill(groupDirty, 0, NGROUPS >> 3);
}

/** A slice record's key in the commit output: key length 4, then 0xF3 ‖ u16be b ‖ u8 s; returns where its value flag goes. */
function sliceHead(o: usize, b: u32, sl: u32): usize {
  store<u32>(o, 4);
  store<u8>(o + 4, P_SLICE);
  store<u8>(o + 5, <u8>(b >> 8));
  store<u8>(o + 6, <u8>b);
  store<u8>(o + 7, <u8>sl);
  return o + 8;
}

/**
 * Serve a derived key (0xF0 bucket, 0xF1 node, 0xF2 group, 0xF3 slice) to `get`: value into out, -1
 * if absent. A 0xF0 key answers the whole bucket, however it is stored.
 */
export function getDerived(key: usize, n: u32, out: usize): i32 {
  bufSetLen(out, 0);
  let prefix = load<u8>(key);
  if (prefix == P_BUCKET && n == 3) {
    let b = (<u32>load<u8>(key + 1) << 8) | <u32>load<u8>(key + 2);
    let row = bucketRow(b);
    let cnt = load<u32>(row, 4);
    if (cnt == 0) return -1;
    bufBytes(out, <usize>load<u32>(row, 0) + 1, cnt << 6);
    return <i32>(cnt << 6);
  }
  if (prefix == P_NODE && n == 5) {
    let idx = bswap<u32>(load<u32>(key + 1));
    if (idx == 0 || idx >= STORED_NODES) return -1; // deeper nodes are not records
    let h = nodePtr(idx);
    if (isZero(h, 32)) return -1;
    bufBytes(out, h, 32);
    return 32;
  }
  if (prefix == P_SLICE && n == 4) {
    let b = (<u32>load<u8>(key + 1) << 8) | <u32>load<u8>(key + 2);
    let sl = <u32>load<u8>(key + 3);
    let row = bucketRow(b);
    let cnt = load<u32>(row, 4);
    if (cnt <= SLICE_ABOVE || sl >= 16) return -1;
    let entries = <usize>load<u32>(row, 0) + 1;
    let i = sl == 0 ? 0 : sliceEnd(entries, cnt, 0, sl - 1);
    let j = sliceEnd(entries, cnt, i, sl);
    if (j == i) return -1;
    bufBytes(out, entries + (<usize>i << 6), (j - i) << 6);
    return <i32>((j - i) << 6);
  }
  if (prefix == P_GROUP && n == 3) {
    let g = (<u32>load<u8>(key + 1) << 8) | <u32>load<u8>(key + 2);
    if (g >= NGROUPS || groupIsEmpty(g)) return -1;
    bufBytes(out, NODES + (<usize>(NNODES / 2 + (g << 4)) << 5), 512);
    return 512;
  }
  return -1;
}
