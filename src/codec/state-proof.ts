import { blake3, bytesEqual, keyedBlake3 } from './hash.js';
import { Prefix } from '../abi/constants.js';
import { storedBucketEntries } from './bucket-records.js';

/**
 * Inclusion and absence proofs against the state root (docs/core-abi.md "State root",
 * docs/state-root.md "Proof shape", docs/replay.md "State proofs"): the key's bucket record (its
 * sorted `path ‖ leaf` entries) and the 16 sibling hashes from the bucket's leaf node up to node 1.
 * `proveState` builds one from committed state (the node's StateView: the key's 0xF0 bucket record or 0xF3 slices,
 * the 0xF1 nodes 1–4,095, and for the deeper siblings (levels 12–16) the 0xF2 group records of 16
 * bucket hashes, as the core reads them); `verifyStateProof` checks one with nothing but the root. Pure TypeScript, so the client
 * library and the browser build verify without the core.
 */

const encoder = new TextEncoder();
const hashLeaf = await keyedBlake3(blake3(encoder.encode('ntv.state-root.leaf')));
const hashBucket = await keyedBlake3(blake3(encoder.encode('ntv.state-root.bucket')));
const hashNode = await keyedBlake3(blake3(encoder.encode('ntv.state-root.node')));

export const STATE_TREE_DEPTH = 16;
const BUCKETS = 1 << STATE_TREE_DEPTH;
/** nodes below this index are stored as 0xF1 records (docs/core-abi.md "State root") */
const STORED_NODES = 4096;
const ENTRY = 64;
const ZERO = new Uint8Array(32);

export interface StateProof {
  /** the state key */
  key: Uint8Array;
  /** the value proven present, or undefined for an absence proof */
  value: Uint8Array | undefined;
  /** bucket index: the first two bytes of Blake3(key), big-endian */
  bucket: number;
  /** the bucket's record: its entries (path [32] ‖ leaf [32]) sorted by path; empty for an empty bucket */
  entries: Uint8Array;
  /** 16 sibling hashes, from the bucket's leaf node (level 16) up to a child of the root */
  siblings: Uint8Array[];
}

export type StateProofCheck = { ok: true; present: boolean; value: Uint8Array | undefined } | { ok: false; reason: string };

interface StateReadable {
  get(key: Uint8Array): Uint8Array | undefined;
}

function isZero(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 0) return false;
  return true;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** A derived key (0xF0 bucket or 0xF1 node) is no state key: it is never in the tree. */
export function isProvableKey(key: Uint8Array): boolean {
  return key.length > 0 && key[0]! < Prefix.ROOT_BUCKET;
}

export function bucketOf(path: Uint8Array): number {
  return (path[0]! << 8) | path[1]!;
}

export function leafHash(path: Uint8Array, value: Uint8Array): Uint8Array {
  return hashLeaf(concat(path, value));
}

export function bucketHash(entries: Uint8Array): Uint8Array {
  return entries.length === 0 ? new Uint8Array(32) : hashBucket(entries);
}

/** node = Blake3_keyed(K_NODE, left ‖ right), zero when both children are zero. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return isZero(left) && isZero(right) ? new Uint8Array(32) : hashNode(concat(left, right));
}

/** Build the proof of `key` over committed state whose root is node 1 of these records. */
export function proveState(state: StateReadable, key: Uint8Array): StateProof {
  if (!isProvableKey(key)) throw new RangeError('0xF0 and 0xF1 keys are the tree itself, not state');
  const path = blake3(key);
  const bucket = bucketOf(path);
  // its 0xF0 record or its 0xF3 slices (./bucket-records.ts)
  const record = (b: number) => storedBucketEntries((k) => state.get(k), b);
  const groups = new Map<number, Uint8Array | undefined>();
  const leaf = (b: number): Uint8Array => {
    const g = b >> 4;
    if (!groups.has(g)) groups.set(g, state.get(Uint8Array.of(Prefix.ROOT_GROUP, g >> 8, g & 0xff)));
    const group = groups.get(g);
    return group ? group.subarray(32 * (b & 15), 32 * (b & 15) + 32) : ZERO;
  };
  const node = (i: number): Uint8Array => {
    if (i >= BUCKETS) return leaf(i - BUCKETS);
    if (i >= STORED_NODES) return nodeHash(node(2 * i), node(2 * i + 1));
    const k = new Uint8Array(5);
    k[0] = Prefix.ROOT_NODE;
    new DataView(k.buffer).setUint32(1, i, false);
    return state.get(k) ?? new Uint8Array(32);
  };
  const siblings: Uint8Array[] = [];
  for (let i = BUCKETS + bucket; i > 1; i >>= 1) siblings.push(node(i ^ 1));
  return { key, value: state.get(key), bucket, entries: record(bucket), siblings };
}

/**
 * Check a proof against a state root: the claimed value (or absence) against the bucket record, the
 * record and siblings up to the root. Never throws; a malformed proof is `ok: false` with a reason.
 */
export function verifyStateProof(proof: StateProof, stateRoot: Uint8Array): StateProofCheck {
  if (stateRoot.length !== 32) return { ok: false, reason: 'a state root is 32 bytes' };
  if (!isProvableKey(proof.key)) return { ok: false, reason: 'the key is not a state key' };
  if (proof.siblings.length !== STATE_TREE_DEPTH || proof.siblings.some((s) => s.length !== 32)) {
    return { ok: false, reason: `a proof has ${STATE_TREE_DEPTH} sibling hashes of 32 bytes` };
  }
  if (proof.entries.length % ENTRY !== 0) return { ok: false, reason: 'the bucket record is not whole 64-byte entries' };
  const path = blake3(proof.key);
  const bucket = bucketOf(path);
  if (proof.bucket !== bucket) return { ok: false, reason: `the key falls in bucket ${bucket}, the proof is of bucket ${proof.bucket}` };
  let found: Uint8Array | undefined;
  let previous: Uint8Array | undefined;
  for (let o = 0; o < proof.entries.length; o += ENTRY) {
    const entryPath = proof.entries.subarray(o, o + 32);
    if (bucketOf(entryPath) !== bucket) return { ok: false, reason: 'an entry of the record belongs to another bucket' };
    if (previous && compare(previous, entryPath) >= 0) return { ok: false, reason: 'the record\'s entries are not sorted by path' };
    previous = entryPath;
    if (bytesEqual(entryPath, path)) found = proof.entries.subarray(o + 32, o + ENTRY);
  }
  if (proof.value === undefined) {
    if (found) return { ok: false, reason: 'the record holds the key: it is present, not absent' };
  } else {
    if (!found) return { ok: false, reason: 'the record holds no entry for the key' };
    if (!bytesEqual(found, leafHash(path, proof.value))) return { ok: false, reason: 'the value does not hash to the key\'s leaf' };
  }
  let hash = bucketHash(proof.entries);
  let index = BUCKETS + bucket;
  for (const sibling of proof.siblings) {
    hash = index & 1 ? nodeHash(sibling, hash) : nodeHash(hash, sibling);
    index >>= 1;
  }
  if (!bytesEqual(hash, stateRoot)) return { ok: false, reason: 'the proof leads to another state root' };
  return { ok: true, present: proof.value !== undefined, value: proof.value };
}

function compare(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** A proof as JSON (svc_getProof's `proof`): hex strings. */
export interface StateProofJson {
  key: string;
  value: string | null;
  bucket: number;
  entries: string;
  siblings: string[];
}
