import type { ChainStore } from './chain-store.js';
import { decodeLocation, LOCATION_BYTES } from './block-files.js';
import { Prefix } from './keys.js';
import { changeSetProblem } from './state-history.js';
import { StateRootCheck, type StateAnomaly } from './state-root-check.js';

/**
 * The integrity sweep (spec §4.20 `--verify-on-start`, `--rocksdb-verify-interval-secs`;
 * docs/operations.md "Integrity"): every record of the database, read from one consistent
 * snapshot, is checked against the layout of docs/storage.md (prefix, key and value lengths, block
 * locations inside the block files), and the state records against the stored state-root tree
 * (src/storage/state-root-check.ts), so a corrupted value is named by its key. The caller compares
 * the recomputed root with the head block's (decoding a block is the chain's business).
 */

export interface IntegrityReport {
  /** records read, all prefixes */
  records: number;
  stateRecords: number;
  /** the first anomalies in key order (at most `maxAnomalies`) */
  anomalies: StateAnomaly[];
  /** how many anomalies there were in all */
  anomalyCount: number;
  /** the state root recomputed from the state records */
  stateRoot: Uint8Array;
  /** the head in the snapshot read, and its block (to compare roots); undefined for an empty database */
  head: number | undefined;
  headBlock: Uint8Array | undefined;
  ms: number;
}

const META_LENGTHS: Record<string, number> = { head: 8, format: 1, 'index-version': 1, 'lookup-height': 8, 'oldest-height': 8, cold: 12, 'state-history-from': 8, 'state-history-indexed': 8 };

/** Expected key length (with the prefix byte) and a value check, per non-state prefix. */
const LAYOUT: Record<number, { name: string; key?: number; value?: (v: Uint8Array) => string | undefined }> = {
  [Prefix.Block]: { name: 'block location', key: 9, value: (v) => (v.length === LOCATION_BYTES ? undefined : `${v.length}-byte value, expected ${LOCATION_BYTES}`) },
  [Prefix.BlockHash]: { name: 'block hash', key: 33, value: (v) => (v.length === 8 ? undefined : `${v.length}-byte height, expected 8`) },
  [Prefix.Position]: { name: 'bundle position', key: 33, value: (v) => (v.length === 12 ? undefined : `${v.length}-byte position, expected 12`) },
  [Prefix.Outcome]: { name: 'format 3 execution result', key: 9 },
  [Prefix.Certificate]: { name: 'certificate', key: 9, value: (v) => (v.length > 0 ? undefined : 'empty certificate') },
  [Prefix.Meta]: { name: 'meta' },
  [Prefix.Local]: { name: 'node-local' },
  [Prefix.Intent]: { name: 'intent' },
  [Prefix.BlockTxs]: { name: 'block bundle list', key: 9, value: (v) => (v.length % 32 === 0 ? undefined : `${v.length} bytes, not 32 per bundle hash`) },
  [Prefix.AddressHistory]: { name: 'address history', key: 41, value: (v) => (v.length % 4 === 0 ? undefined : `${v.length} bytes, not 4 per bundle index`) },
  [Prefix.TokenTransfers]: { name: 'token transfers', key: 41, value: (v) => (v.length % 6 === 0 ? undefined : `${v.length} bytes, not 6 per transfer`) },
  [Prefix.TokenHolders]: { name: 'token holder', key: 66, value: (v) => (v.length === 0 ? undefined : 'non-empty value') },
  [Prefix.TokensHeld]: { name: 'tokens held', key: 65, value: (v) => (v.length === 0 ? undefined : 'non-empty value') },
  [Prefix.Written]: { name: 'cold tier written index', value: (v) => (v.length === 0 ? undefined : 'non-empty value') },
  // State history (docs/storage.md "State history"): key length u16 in the key, then the key and a height
  [Prefix.History]: {
    name: 'state history',
    value: (v) => (v.length === 1 && v[0] === 0) || (v.length >= 1 && v[0] === 1) ? undefined : 'neither 0 (absent) nor 1 ‖ a value',
  },
  [Prefix.ChangeSet]: { name: 'change set', key: 9, value: changeSetProblem },
};

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

export async function verifyStore(store: ChainStore, options: { maxAnomalies?: number } = {}): Promise<IntegrityReport> {
  const started = Date.now();
  const max = options.maxAnomalies ?? 10;
  const state = await StateRootCheck.create(max);
  const anomalies: StateAnomaly[] = [];
  let anomalyCount = 0;
  const report = (key: Uint8Array, reason: string) => {
    anomalyCount++;
    if (anomalies.length < max) anomalies.push({ key: hex(key), reason });
  };
  const fileSizes = await store.blockFileSizes();
  const read = await store.openRead();
  let records = 0;
  let headBlock: Uint8Array | undefined;
  try {
    // Every range but the state's ('s' warm, 'z' cold), which is read merged below.
    const ranges = [{ lt: Uint8Array.of(Prefix.State) }, { gte: Uint8Array.of(Prefix.State + 1), lt: Uint8Array.of(Prefix.Cold) }, { gte: Uint8Array.of(Prefix.Cold + 1) }];
    for (const range of ranges) for await (const batch of read.entries(range)) {
      for (const [key, value] of batch) {
        records++;
        const prefix = key[0]!;
        if (prefix === Prefix.History && (key.length < 11 || ((key[1]! << 8) | key[2]!) !== key.length - 11)) {
          report(key, `state history key of ${key.length} bytes does not hold the key length it names`);
          continue;
        }
        if (prefix === Prefix.Written && key.length < 6) {
          report(key, `cold tier written index key of ${key.length} bytes, expected at least 6`);
          continue;
        }
        const layout = LAYOUT[prefix];
        if (!layout) {
          report(key, `unknown record prefix 0x${prefix.toString(16).padStart(2, '0')} (docs/storage.md lists the prefixes)`);
          continue;
        }
        if (layout.key !== undefined && key.length !== layout.key) {
          report(key, `${layout.name} key of ${key.length} bytes, expected ${layout.key}`);
          continue;
        }
        const bad = layout.value?.(value);
        if (bad) {
          report(key, `${layout.name}: ${bad}`);
          continue;
        }
        if (prefix === Prefix.Meta) {
          const name = Buffer.from(key.subarray(1)).toString('latin1');
          const expected = META_LENGTHS[name];
          if (expected !== undefined && value.length !== expected) report(key, `meta ${name}: ${value.length} bytes, expected ${expected}`);
        } else if (prefix === Prefix.Block) {
          const at = decodeLocation(value);
          const size = fileSizes.get(at.segment);
          const end = at.offset + at.blockLength + at.outcomeLength;
          if (size === undefined) report(key, `block location in block file ${at.segment}, which does not exist`);
          else if (end > size) report(key, `block location ends at byte ${end} of block file ${at.segment}, which has ${size}`);
          else if (at.blockLength === 0) report(key, 'block location of an empty block');
        }
      }
    }
    // The state records of both tiers merged in key order (src/storage/cold-store.ts), from the
    // same snapshot: the root is that of the whole state wherever each record lies.
    for await (const batch of read.state({ onBoth: (key) => report(Uint8Array.of(Prefix.Cold, ...key), 'state record held both warm and cold (a move or a write half applied)') })) {
      records += batch.length;
      for (const [key, value] of batch) state.add(key, value);
    }
    const head = await read.headBlock().catch(() => undefined);
    headBlock = head?.block;
    if (read.head !== undefined && !headBlock) report(Uint8Array.of(Prefix.Meta), `the head block ${read.head} cannot be read from the block files`);
  } finally {
    await read.close();
  }
  const stateRoot = state.finish();
  // State anomalies and the others, in key order ('s' sorts after every other prefix but 't w x').
  const all = [...anomalies, ...state.found.map((a) => ({ key: `73${a.key}`, reason: a.reason }))].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    records, stateRecords: state.records, anomalies: all.slice(0, max), anomalyCount: anomalyCount + state.anomalyCount, stateRoot,
    head: read.head, headBlock, ms: Date.now() - started,
  };
}
