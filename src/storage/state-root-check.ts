import { blake3, keyedBlake3 } from '../codec/hash.js';
import { BucketSlices, bucketRecords, sliceKeyParts, sliceOfPath } from '../codec/bucket-records.js';

/**
 * The state root recomputed from the state records alone, in TypeScript, to check stored or
 * exported state (docs/operations.md "Integrity"): the same bucketed Merkle tree as the core
 * (assembly/root.ts, docs/core-abi.md "State root"; testkit/reference.ts is its other twin):
 *   path = Blake3(key); leaf = Blake3_keyed(K_LEAF, path ‖ value); bucket = path[0..2];
 *   bucket record (0xF0 + bucket u16 BE) = its (path, leaf) entries sorted by path;
 *   bucket_hash = Blake3_keyed(K_BUCKET, record), zero when empty; nodes 1…65,535 above the
 *   65,536 bucket leaves, node = Blake3_keyed(K_NODE, l ‖ r), zero when both are zero; the root is
 *   node 1. Nodes 1–4,095 are stored (0xF1 + index u32 BE) when not zero, and the 16 bucket hashes
 *   under each level-12 node as a group record (0xF2 + group u16 BE, 512 bytes) when not all zero.
 *   A bucket of more than 16 entries is stored as slices instead of one record (0xF3 + bucket u16
 *   BE + slice u8: its entries whose path[2] >> 4 is the slice; src/codec/bucket-records.ts).
 * Records arrive in key order; every one is checked against the stored bucket and node records,
 * so a corrupted value is named by its key, not only by a different root.
 */

export const BUCKET_PREFIX = 0xf0;
export const NODE_PREFIX = 0xf1;
export const GROUP_PREFIX = 0xf2;
/** a bucket of more than 16 entries, stored in slices (src/codec/bucket-records.ts) */
export const SLICE_PREFIX = 0xf3;
const NBUCKETS = 65536;
const STORED_NODES = 4096;
/** level-12 subtrees of 16 buckets: group g is the bucket hashes of buckets 16g … 16g + 15 */
const NGROUPS = 4096;
const GROUP_BYTES = 512;

/** The group record of bucket hashes `leaf(b)` for buckets 16g … 16g + 15, or undefined when all are zero. */
export function groupRecord(g: number, leaf: (bucket: number) => Uint8Array | undefined): Uint8Array | undefined {
  const record = new Uint8Array(GROUP_BYTES);
  let any = false;
  for (let k = 0; k < 16; k++) {
    const h = leaf(16 * g + k);
    if (h && !isZero(h)) {
      record.set(h, 32 * k);
      any = true;
    }
  }
  return any ? record : undefined;
}

const K = (domain: string) => blake3(new TextEncoder().encode(domain));
let hashers: { leaf: (d: Uint8Array) => Uint8Array; bucket: (d: Uint8Array) => Uint8Array; node: (d: Uint8Array) => Uint8Array } | undefined;

/** The keyed Blake3 hashers of the state-root tree (leaf, bucket, node), shared with the bench's state builder (bench/elastic-state-gen.ts). */
export async function treeHashers(): Promise<NonNullable<typeof hashers>> {
  hashers ??= {
    leaf: await keyedBlake3(K('ntv.state-root.leaf')),
    bucket: await keyedBlake3(K('ntv.state-root.bucket')),
    node: await keyedBlake3(K('ntv.state-root.node')),
  };
  return hashers;
}

export interface StateAnomaly {
  /** the state key (without the database's 's' prefix), hex */
  key: string;
  reason: string;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const ZERO = new Uint8Array(32);
const isZero = (b: Uint8Array) => b.every((x) => x === 0);

export class StateRootCheck {
  /** computed (path ‖ leaf) entries per bucket, 64 bytes each, with the key that made each */
  private readonly buckets = new Map<number, Array<{ entry: Uint8Array; key: Uint8Array }>>();
  private readonly storedBuckets = new Map<number, Uint8Array>();
  private readonly storedSlices = new BucketSlices();
  private readonly storedNodes = new Map<number, Uint8Array>();
  private readonly storedGroups = new Map<number, Uint8Array>();
  private readonly anomalies: StateAnomaly[] = [];
  /** what finish() computed: bucket records by bucket, non-zero nodes 1–4,095 and group records (treeRecords) */
  private computedBuckets = new Map<number, Uint8Array>();
  private computedNodes = new Map<number, Uint8Array>();
  private computedGroups = new Map<number, Uint8Array>();
  records = 0;

  private constructor(private readonly h: NonNullable<typeof hashers>, private readonly maxAnomalies: number, private readonly groupsStored: boolean) {}

  /**
   * `groupsStored: false` for records written before the group records (0xF2) existed (a version 1
   * state export): a missing group record is then no anomaly, and treeRecords() supplies it.
   */
  static async create(maxAnomalies = 10, options: { groupsStored?: boolean } = {}): Promise<StateRootCheck> {
    return new StateRootCheck(await treeHashers(), maxAnomalies, options.groupsStored ?? true);
  }

  /** Anomalies found, at most `maxAnomalies` (the first ones, in key order). */
  get found(): readonly StateAnomaly[] {
    return this.anomalies;
  }

  /** How many anomalies there were in all (more than `found` holds when it was cut). */
  anomalyCount = 0;

  private report(key: Uint8Array | string, reason: string): void {
    this.anomalyCount++;
    if (this.anomalies.length < this.maxAnomalies) this.anomalies.push({ key: typeof key === 'string' ? key : hex(key), reason });
  }

  /** One state record (key without the 's' prefix). */
  add(key: Uint8Array, value: Uint8Array): void {
    this.records++;
    if (key.length === 0) {
      this.report(key, 'empty state key');
      return;
    }
    if (key[0] === BUCKET_PREFIX) {
      if (key.length !== 3 || value.length === 0 || value.length % 64 !== 0) {
        this.report(key, `malformed state-root bucket record (key ${key.length} bytes, value ${value.length} bytes; expected 3 and a non-zero multiple of 64)`);
        return;
      }
      this.storedBuckets.set((key[1]! << 8) | key[2]!, value);
      return;
    }
    if (key[0] === SLICE_PREFIX) {
      const parts = sliceKeyParts(key);
      if (!parts || value.length === 0 || value.length % 64 !== 0) {
        this.report(key, `malformed state-root bucket slice (key ${key.length} bytes, value ${value.length} bytes; expected 4 with a slice 0–15 and a non-zero multiple of 64)`);
        return;
      }
      for (let o = 0; o < value.length; o += 64) {
        if (sliceOfPath(value.subarray(o, o + 32)) !== parts.slice) {
          this.report(key, `slice ${parts.slice} of bucket ${parts.bucket} holds an entry of slice ${sliceOfPath(value.subarray(o, o + 32))}`);
          return;
        }
      }
      this.storedSlices.add(parts.bucket, parts.slice, value);
      return;
    }
    if (key[0] === NODE_PREFIX) {
      const index = key.length === 5 ? new DataView(key.buffer, key.byteOffset + 1, 4).getUint32(0) : -1;
      if (index < 1 || index >= STORED_NODES || value.length !== 32 || isZero(value)) {
        this.report(key, `malformed state-root node record (key ${key.length} bytes, value ${value.length} bytes; expected node 1–4095 and 32 non-zero bytes)`);
        return;
      }
      this.storedNodes.set(index, value);
      return;
    }
    if (key[0] === GROUP_PREFIX) {
      const group = key.length === 3 ? (key[1]! << 8) | key[2]! : -1;
      if (group < 0 || group >= NGROUPS || value.length !== GROUP_BYTES || isZero(value)) {
        this.report(key, `malformed state-root group record (key ${key.length} bytes, value ${value.length} bytes; expected group 0–4095 and 512 bytes not all zero)`);
        return;
      }
      this.storedGroups.set(group, value);
      return;
    }
    if (value.length === 0) {
      this.report(key, 'empty value (a state record is deleted, never stored empty)');
      return;
    }
    const path = blake3(key);
    const preimage = new Uint8Array(32 + value.length);
    preimage.set(path, 0);
    preimage.set(value, 32);
    const entry = new Uint8Array(64);
    entry.set(path, 0);
    entry.set(this.h.leaf(preimage), 32);
    const bucket = (path[0]! << 8) | path[1]!;
    let list = this.buckets.get(bucket);
    if (!list) this.buckets.set(bucket, (list = []));
    list.push({ entry, key: Uint8Array.from(key) });
  }

  /** The recomputed root; anomalies where the stored bucket or node records disagree with the records. */
  finish(): Uint8Array {
    this.storedSlices.join((b) => this.storedBuckets.has(b), (b, entries) => this.storedBuckets.set(b, entries), (key, reason) => this.report(key, reason));
    const nodes = new Map<number, Uint8Array>();
    const bucketIds = new Set<number>([...this.buckets.keys(), ...this.storedBuckets.keys()]);
    for (const b of [...bucketIds].sort((x, y) => x - y)) {
      const list = (this.buckets.get(b) ?? []).sort((x, y) => Buffer.compare(x.entry.subarray(0, 32), y.entry.subarray(0, 32)));
      const stored = this.storedBuckets.get(b);
      const storedEntries = new Map<string, Uint8Array>();
      if (stored) for (let i = 0; i < stored.length; i += 64) storedEntries.set(hex(stored.subarray(i, i + 32)), stored.subarray(i + 32, i + 64));
      for (const { entry, key } of list) {
        const leaf = storedEntries.get(hex(entry.subarray(0, 32)));
        if (!leaf) this.report(key, 'record missing from its state-root bucket (no leaf for its path)');
        else if (Buffer.compare(leaf, entry.subarray(32)) !== 0) this.report(key, 'value does not match its state-root leaf (the record or its bucket was altered)');
        storedEntries.delete(hex(entry.subarray(0, 32)));
      }
      for (const path of storedEntries.keys()) {
        this.report(`f0${b.toString(16).padStart(4, '0')}`, `bucket ${b} lists path ${path} with no state record`);
      }
      if (list.length > 0) {
        const record = new Uint8Array(list.length * 64);
        list.forEach((e, i) => record.set(e.entry, i * 64));
        nodes.set(NBUCKETS + b, this.h.bucket(record));
        this.computedBuckets.set(b, record);
      }
    }
    return checkUpperTree(this.h, nodes, { nodes: this.storedNodes, groups: this.storedGroups, groupsStored: this.groupsStored },
      (key, reason) => this.report(key, reason), { nodes: this.computedNodes, groups: this.computedGroups });
  }

  /**
   * After finish(): the state tree's records as the core stores them (state keys without the 's'
   * prefix): every non-empty bucket, as one record (0xF0 + bucket u16 BE) or as slices (0xF3), every non-zero node 1–4,095
   * (0xF1 + index u32 BE) and every group record not all zero (0xF2 + group u16 BE), in key order. The store rebuilds a tree that trails its head from these
   * (chain-store.ts `rebuildTree`, docs/storage.md "The state tree on disk").
   */
  treeRecords(): Array<[Uint8Array, Uint8Array]> {
    const out: Array<[Uint8Array, Uint8Array]> = [];
    const sliced: Array<[Uint8Array, Uint8Array]> = [];
    for (const b of [...this.computedBuckets.keys()].sort((x, y) => x - y)) {
      for (const record of bucketRecords(b, this.computedBuckets.get(b)!)) (record[0][0] === BUCKET_PREFIX ? out : sliced).push(record);
    }
    for (const i of [...this.computedNodes.keys()].sort((x, y) => x - y)) {
      const key = new Uint8Array(5);
      key[0] = NODE_PREFIX;
      new DataView(key.buffer).setUint32(1, i);
      out.push([key, this.computedNodes.get(i)!]);
    }
    for (const g of [...this.computedGroups.keys()].sort((x, y) => x - y)) {
      out.push([Uint8Array.of(GROUP_PREFIX, g >> 8, g & 0xff), this.computedGroups.get(g)!]);
    }
    return [...out, ...sliced];
  }
}

/**
 * The tree above the bucket hashes (`nodes` holds them at 65,536 + b; folded in place): every node
 * up to the root, checked against the stored nodes 1–4,095 (0xF1) and the group records (0xF2);
 * `report` gets each disagreement, `computed` (when given) the nodes and groups as they should be
 * stored. The root (node 1). Shared by the sweep above and the start-up check of the loaded state
 * (src/chain/start-check.ts).
 */
export function checkUpperTree(
  h: Pick<NonNullable<typeof hashers>, 'node'>,
  nodes: Map<number, Uint8Array>,
  held: { nodes: ReadonlyMap<number, Uint8Array>; groups: ReadonlyMap<number, Uint8Array>; groupsStored: boolean },
  report: (key: Uint8Array, reason: string) => void,
  out?: { nodes: Map<number, Uint8Array>; groups: Map<number, Uint8Array> },
): Uint8Array {
  // Fold upwards: only non-zero nodes are kept; a parent of two zero children is zero.
  let level = [...nodes.keys()].sort((x, y) => x - y);
  const pair = new Uint8Array(64);
  while (level.length > 0 && level[0] !== 1) {
    const parents = [...new Set(level.map((i) => i >> 1))];
    for (const p of parents) {
      pair.set(nodes.get(2 * p) ?? ZERO, 0);
      pair.set(nodes.get(2 * p + 1) ?? ZERO, 32);
      nodes.set(p, h.node(pair));
    }
    level = parents;
  }
  for (let i = 1; i < STORED_NODES; i++) {
    const computed = nodes.get(i);
    if (computed !== undefined && !isZero(computed)) out?.nodes.set(i, computed);
    const stored = held.nodes.get(i);
    if (computed === undefined && stored === undefined) continue;
    if (computed === undefined || stored === undefined || Buffer.compare(computed, stored) !== 0) {
      const key = new Uint8Array(5);
      key[0] = NODE_PREFIX;
      new DataView(key.buffer).setUint32(1, i);
      report(key, stored === undefined ? `state-root node ${i} is missing` : `state-root node ${i} does not match the records below it`);
    }
  }
  for (let g = 0; g < NGROUPS; g++) {
    const computed = groupRecord(g, (b) => nodes.get(NBUCKETS + b));
    if (computed) out?.groups.set(g, computed);
    const stored = held.groups.get(g);
    if (computed === undefined && stored === undefined) continue;
    if (stored === undefined && !held.groupsStored) continue;
    if (computed === undefined || stored === undefined || Buffer.compare(computed, stored) !== 0) {
      report(Uint8Array.of(GROUP_PREFIX, g >> 8, g & 0xff), stored === undefined ? `state-root group ${g} is missing` : `state-root group ${g} does not match the bucket records below it`);
    }
  }
  return nodes.get(1) ?? new Uint8Array(32);
}
