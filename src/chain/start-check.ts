import { blake3 } from '../codec/hash.js';
import { encodeHash } from '../codec/address.js';
import { BUCKET_PREFIX, checkUpperTree, GROUP_PREFIX, NODE_PREFIX, SLICE_PREFIX, treeHashers, type StateAnomaly } from '../storage/state-root-check.js';
import { BUCKET_SLICES, BucketSlices } from '../codec/bucket-records.js';
import type { StateView } from './state-view.js';

/**
 * What a start checks of the state it loaded (docs/operations.md "What a start checks"; issue 41
 * item 6). Before, it compared only the stored root node with the head block's root, so a data dir
 * with an altered record started and produced blocks on it.
 *
 * - `records: false`, every normal start: the stored tree itself, each bucket record hashed and
 *   folded up through the group records and stored nodes to the head's root (65,536 hashes at
 *   most, ~0.1 s). An altered bucket, group or node record stops the start.
 * - `records: true`: also every state record's leaf, Blake3(key) and the keyed leaf, looked up in
 *   its stored bucket record (sorted by path), and every bucket's entries all found, so the bucket
 *   records are exactly the records' leaves. That is what finds an altered balance record; on a
 *   1,000,000-account state it took 0.19 of the start time (bench/start-check.ts), over the 0.10 the
 *   issue allows a normal start, so the start logs how to run it instead (--verify-on-start).
 *
 * Leaner than the sweep's StateRootCheck, which recomputes every bucket record from its entries and
 * holds ~150 bytes a record: here only a count per bucket is kept beside the loaded state.
 */

const NBUCKETS = 65536;
const ENTRY = 64;

export interface StartCheckReport {
  records: number;
  anomalies: StateAnomaly[];
  anomalyCount: number;
  ms: number;
}

export async function checkLoadedState(state: StateView, headRoot: Uint8Array, options: { records: boolean }, maxAnomalies = 10): Promise<StartCheckReport> {
  const started = performance.now();
  const h = await treeHashers();
  const anomalies: StateAnomaly[] = [];
  let anomalyCount = 0;
  const report = (key: Uint8Array | string, reason: string) => {
    anomalyCount++;
    if (anomalies.length < maxAnomalies) anomalies.push({ key: typeof key === 'string' ? key : Buffer.from(key).toString('hex'), reason });
  };
  const buckets: Array<Uint8Array | undefined> = new Array(NBUCKETS);
  const storedNodes = new Map<number, Uint8Array>();
  const storedGroups = new Map<number, Uint8Array>();
  const found = new Uint32Array(NBUCKETS);
  const keyBytes = Buffer.alloc(1 << 16);
  let preimage = new Uint8Array(1 << 12);
  let records = 0;
  // The tree's own records first (its bucket records are what the leaves are looked up in). A
  // bucket is one 0xF0 record or up to 16 0xF3 slices (src/codec/bucket-records.ts), joined here.
  const slices = new BucketSlices();
  state.forEachRecord((k, value) => {
    const prefix = k.charCodeAt(0);
    if (prefix === BUCKET_PREFIX && k.length === 3) buckets[(k.charCodeAt(1) << 8) | k.charCodeAt(2)] = value.slice();
    else if (prefix === SLICE_PREFIX && k.length === 4 && k.charCodeAt(3) < BUCKET_SLICES) slices.add((k.charCodeAt(1) << 8) | k.charCodeAt(2), k.charCodeAt(3), value.slice());
    else if (prefix === NODE_PREFIX && k.length === 5) storedNodes.set(Buffer.from(k, 'latin1').readUInt32BE(1), value.slice());
    else if (prefix === GROUP_PREFIX && k.length === 3) storedGroups.set((k.charCodeAt(1) << 8) | k.charCodeAt(2), value.slice());
  });
  slices.join((b) => buckets[b] !== undefined, (b, entries) => { buckets[b] = entries; }, report);
  if (options.records) state.forEachRecord((k, value) => {
    const prefix = k.charCodeAt(0);
    if (prefix === BUCKET_PREFIX || prefix === NODE_PREFIX || prefix === GROUP_PREFIX || prefix === SLICE_PREFIX) return;
    records++;
    const key = keyBytes.subarray(0, keyBytes.write(k, 0, 'latin1'));
    const path = blake3(key);
    if (preimage.length < 32 + value.length) preimage = new Uint8Array(2 * (32 + value.length));
    preimage.set(path, 0);
    preimage.set(value, 32);
    const leaf = h.leaf(preimage.subarray(0, 32 + value.length));
    const b = (path[0]! << 8) | path[1]!;
    const at = entryOf(buckets[b], path);
    if (at < 0) {
      report(key, 'record missing from its state-root bucket (no leaf for its path)');
      return;
    }
    found[b]!++;
    if (Buffer.compare(buckets[b]!.subarray(at + 32, at + ENTRY), leaf) !== 0) report(key, 'value does not match its state-root leaf (the record or its bucket was altered)');
  });
  const nodes = new Map<number, Uint8Array>();
  for (let b = 0; b < NBUCKETS; b++) {
    const record = buckets[b];
    if (record === undefined) continue;
    if (record.length % ENTRY !== 0 || (options.records && found[b] !== record.length / ENTRY)) {
      report(Uint8Array.of(BUCKET_PREFIX, b >> 8, b & 0xff), `bucket ${b} lists ${record.length / ENTRY - found[b]!} path(s) with no state record`);
    }
    nodes.set(NBUCKETS + b, h.bucket(record));
  }
  const root = checkUpperTree(h, nodes, { nodes: storedNodes, groups: storedGroups, groupsStored: true }, report);
  if (Buffer.compare(root, headRoot) !== 0) report('state root', `the state records hash to ${encodeHash(root)}, the head block names ${encodeHash(headRoot)}`);
  return { records, anomalies, anomalyCount, ms: Math.round(performance.now() - started) };
}

/** The byte offset of `path`'s entry in a bucket record (entries sorted by path), or −1. */
function entryOf(record: Uint8Array | undefined, path: Uint8Array): number {
  if (record === undefined) return -1;
  let lo = 0;
  let hi = Math.floor(record.length / ENTRY) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = Buffer.compare(record.subarray(mid * ENTRY, mid * ENTRY + 32), path);
    if (c === 0) return mid * ENTRY;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The loaded state disagrees with its tree or the head: the start stops, exit 1 (src/cli/run.ts). */
export class StateCheckError extends Error {}

/** The lines an operator reads, as --verify-on-start words its findings (src/operator/integrity.ts). */
export function describeStartCheck(report: StartCheckReport, dbPath: string): string {
  const lines = report.anomalies.map((a) => `  ${a.key}: ${a.reason}`);
  const more = report.anomalyCount > report.anomalies.length ? `\n  … and ${report.anomalyCount - report.anomalies.length} more` : '';
  return `the start-up state check found ${report.anomalyCount} ${report.anomalyCount === 1 ? 'record that disagrees' : 'records that disagree'} with the state root${report.records > 0 ? ` among ${report.records}` : ''} (first ${report.anomalies.length}):\n`
    + `${lines.join('\n')}${more}\nthe state at ${dbPath} was altered or damaged: restore it from a snapshot or an export, or sync into a new data directory`;
}
