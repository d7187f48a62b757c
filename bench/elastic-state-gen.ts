import { join } from 'node:path';
import { Level } from 'level';
import { NTV_MINT } from '../src/abi/constants.js';
import { accountKey, balanceKey } from '../src/abi/state.js';
import { decodeStoredBlock, encodeBlock, headerHash, transactionsRoot, type BlockHeader } from '../src/chain/block.js';
import { blake3, initHashing } from '../src/codec/hash.js';
import { bucketRecords } from '../src/codec/bucket-records.js';
import { signEd25519 } from '../src/codec/keys.js';
import { loadValidatorKey } from '../src/chain/validator-key.js';
import { ChainStore } from '../src/storage/chain-store.js';
import { encodeColdSettings } from '../src/storage/cold-store.js';
import { COLD_MARKER, HEAD, Prefix, prefixed, readU64 } from '../src/storage/keys.js';
import { groupRecord, treeHashers } from '../src/storage/state-root-check.js';

/**
 * The elastic bench's state, built directly (creating 5 million accounts through the node takes
 * tens of minutes, twice): into the data directory of a stopped node that has funded one template
 * account, `count` more accounts with the template's account and balance records are written, the
 * state-root tree (bucket records 0xF0 and stored nodes 0xF1, docs/state-root.md) is recomputed
 * over the whole state, and a block on top of the head carries the new root (signed by the node's
 * validator key, with no bundles), so the node opens on it and its start-up check passes.
 *
 * `tier: 'cold'` writes the new records into the cold range (src/storage/cold-store.ts) and
 * enables the cold tier, as on a node whose old accounts went cold; the in-memory node loads them
 * all the same (its load reads both ranges).
 */

const NBUCKETS = 65536;
const STORED_NODES = 4096;
const WRITE_BATCH = 50_000;
const ZERO = new Uint8Array(32);

export interface BuiltState {
  height: number;
  records: number;
  stateRoot: string;
  ms: number;
}

/** The address of generated account `i` (deterministic: Blake3 of a tag and i). */
export function generatedAddress(i: number): Uint8Array {
  const tag = new Uint8Array(12);
  tag.set(Buffer.from('ntv-bench'), 0);
  new DataView(tag.buffer).setUint16(10, 0);
  const input = new Uint8Array(16);
  input.set(tag.subarray(0, 12), 0);
  new DataView(input.buffer).setUint32(12, i);
  return blake3(input);
}

export async function addAccounts(dataDir: string, template: Uint8Array, count: number, options: { tier: 'warm' | 'cold'; coldWindow?: number; log?: (line: string) => void }): Promise<BuiltState> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  await initHashing();
  const tree = await treeHashers();
  // Opened once as the node opens it first: a source node stopped before its tree checkpoint (a
  // kill) leaves the tree behind its head, which the open rebuilds; the records added below are
  // folded into the stored tree, so it must describe the head.
  const opened = new ChainStore(join(dataDir, 'db'));
  await opened.open();
  await opened.close();
  const db = new Level<Uint8Array, Uint8Array>(join(dataDir, 'db'), { keyEncoding: 'view', valueEncoding: 'view' });
  await db.open();
  let head: number;
  let root: Uint8Array;
  let records = 0;
  try {
    head = readU64((await db.get(HEAD))!);
    const templateAccount = await db.get(prefixed(Prefix.State, accountKey(template)));
    const templateBalance = await db.get(prefixed(Prefix.State, balanceKey(template, NTV_MINT)));
    if (!templateBalance) throw new Error('the template account holds no NTV balance record');
    const values = templateAccount ? [templateAccount, templateBalance] : [templateBalance];
    const keyOf = (address: Uint8Array, j: number) => (templateAccount && j === 0 ? accountKey(address) : balanceKey(address, NTV_MINT));
    const perAccount = values.length;
    const total = count * perAccount;
    records = total;

    // 1. Every new record's tree entry (path ‖ leaf) and bucket; the records themselves written in batches.
    const entries = new Uint8Array(total * 64);
    const buckets = new Uint16Array(total);
    const counts = new Uint32Array(NBUCKETS + 1);
    const dbPrefix = options.tier === 'cold' ? Prefix.Cold : Prefix.State;
    let batch = db.batch();
    let inBatch = 0;
    for (let i = 0, e = 0; i < count; i++) {
      const address = generatedAddress(i);
      for (let j = 0; j < perAccount; j++, e++) {
        const key = keyOf(address, j);
        const value = values[j]!;
        const path = blake3(key);
        const preimage = new Uint8Array(32 + value.length);
        preimage.set(path, 0);
        preimage.set(value, 32);
        entries.set(path, e * 64);
        entries.set(tree.leaf(preimage), e * 64 + 32);
        const bucket = (path[0]! << 8) | path[1]!;
        buckets[e] = bucket;
        counts[bucket + 1]!++;
        batch.put(prefixed(dbPrefix, key), value);
        if (++inBatch >= WRITE_BATCH) {
          await batch.write();
          batch = db.batch();
          inBatch = 0;
        }
      }
      if (i > 0 && i % 500_000 === 0) log(`  ${i} accounts written (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    await batch.write();

    // 2. Counting sort of the entries by bucket.
    for (let b = 0; b < NBUCKETS; b++) counts[b + 1]! += counts[b]!;
    const order = new Uint32Array(total);
    const fill = counts.slice(0, NBUCKETS);
    for (let e = 0; e < total; e++) order[fill[buckets[e]!]!++] = e;

    // 3. Each bucket: its stored entries (the template chain's buckets are small: whole records) and
    //    the new ones, sorted by path; its records, its hash.
    const bucketKeys = Array.from({ length: NBUCKETS }, (_, b) => prefixed(Prefix.State, Uint8Array.of(0xf0, b >> 8, b & 0xff)));
    const stored = await db.getMany(bucketKeys);
    const nodes: Array<Uint8Array | undefined> = new Array(2 * NBUCKETS);
    batch = db.batch();
    inBatch = 0;
    for (let b = 0; b < NBUCKETS; b++) {
      const list: Uint8Array[] = [];
      const old = stored[b];
      if (old) for (let o = 0; o < old.length; o += 64) list.push(old.subarray(o, o + 64));
      for (let k = counts[b]!; k < counts[b + 1]!; k++) list.push(entries.subarray(order[k]! * 64, order[k]! * 64 + 64));
      if (list.length === 0) continue;
      list.sort((x, y) => Buffer.compare(x.subarray(0, 32), y.subarray(0, 32)));
      const record = new Uint8Array(list.length * 64);
      list.forEach((entry, i) => record.set(entry, i * 64));
      // stored as the core stores it: one record, or slices for a bucket of more than 16 entries
      const records = bucketRecords(b, record);
      if (records[0]![0][0] !== 0xf0) batch.del(bucketKeys[b]!);
      for (const [key, value] of records) batch.put(prefixed(Prefix.State, key), value);
      nodes[NBUCKETS + b] = tree.bucket(record);
      inBatch += list.length;
      if (inBatch >= WRITE_BATCH * 4) {
        await batch.write();
        batch = db.batch();
        inBatch = 0;
      }
    }
    // 4. The nodes above the buckets; 1…4095 are stored (zero ones are absent).
    const pair = new Uint8Array(64);
    for (let i = NBUCKETS - 1; i >= 1; i--) {
      const l = nodes[2 * i];
      const r = nodes[2 * i + 1];
      if (!l && !r) continue;
      pair.set(l ?? ZERO, 0);
      pair.set(r ?? ZERO, 32);
      nodes[i] = tree.node(pair);
    }
    for (let i = 1; i < STORED_NODES; i++) {
      const key = new Uint8Array(5);
      key[0] = 0xf1;
      new DataView(key.buffer).setUint32(1, i);
      const node = nodes[i];
      if (node) batch.put(prefixed(Prefix.State, key), node);
      else batch.del(prefixed(Prefix.State, key));
    }
    // 5. The group records: the 16 bucket hashes under each level-12 node (docs/state-root.md).
    for (let g = 0; g < NBUCKETS / 16; g++) {
      const key = prefixed(Prefix.State, Uint8Array.of(0xf2, g >> 8, g & 0xff));
      const record = groupRecord(g, (b) => nodes[NBUCKETS + b]);
      if (record) batch.put(key, record);
      else batch.del(key);
    }
    if (options.tier === 'cold') batch.put(COLD_MARKER, encodeColdSettings({ enabledAt: head, window: options.coldWindow ?? 10_000 }));
    await batch.write();
    root = nodes[1] ?? new Uint8Array(32);
  } finally {
    await db.close();
  }

  // 6. A block on top of the head with the new root (no bundles), signed by the node's key.
  const store = new ChainStore(join(dataDir, 'db'));
  await store.open();
  try {
  const parent = decodeStoredBlock((await store.getBlock(head))!).header;
  const unsigned: Omit<BlockHeader, 'hash' | 'signature'> = {
    chainId: parent.chainId, height: head + 1, parentHash: parent.hash, timestamp: parent.timestamp + 1, proposer: parent.proposer,
    proposerPubkey: parent.proposerPubkey, stateRoot: root, transactionsRoot: transactionsRoot([]), gasUsed: 0, gasLimit: parent.gasLimit,
    baseFee: parent.baseFee, bundleCount: 0, round: 0, missed: [],
  };
  const hash = headerHash(unsigned);
  const { seed } = await loadValidatorKey(undefined, dataDir);
  const header: BlockHeader = { ...unsigned, hash, signature: signEd25519(seed, hash) };
    await store.commitBlock({ height: head + 1, hash, block: encodeBlock({ header, bundles: [], bundleHashes: [] }), bundleHashes: [], state: [] });
  } finally {
    await store.close();
  }
  return { height: head + 1, records, stateRoot: Buffer.from(root).toString('hex'), ms: Date.now() - started };
}
