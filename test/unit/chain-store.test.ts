import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Level } from 'level';
import { blake3 } from '../../src/codec/hash.js';
import { packHashes } from '../../src/storage/block-batch.js';
import { ChainStore, IndexKeys, type BlockWrite, type StateWrite } from '../../src/storage/chain-store.js';
import { BlockFileReader, blockFilesDir, decodeLocation, segmentPath } from '../../src/storage/block-files.js';
import { blockKey, FORMAT, HISTORY_MARKER, LOOKUP_MARKER, outcomeKey, Prefix, STORAGE_FORMAT, u64 } from '../../src/storage/keys.js';
import { MIGRATED } from '../../src/storage/migrate-format3.js';
import { encodeBlockResult } from './block-result-fixture.js';
import { random } from './seeded-random.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function store(): Promise<ChainStore> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-store-'));
  dirs.push(dir);
  const s = new ChainStore(join(dir, 'db'));
  await s.open();
  return s;
}

/** An open store with a genesis block, and the lookup failures it reports. */
async function storeReportingFailures(): Promise<{ s: ChainStore; failures: string[] }> {
  const failures: string[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'ntv-store-'));
  dirs.push(dir);
  const s = new ChainStore(join(dir, 'db'), { onLookupFailure: (error) => failures.push(error) });
  await s.open();
  await s.commitBlock(write(0, []));
  return { s, failures };
}

/** A block write whose stored block holds one 32-byte bundle per hash (each its own sender, for the address history). */
function write(height: number, hashes: Uint8Array[], outcome?: Uint8Array): BlockWrite {
  return { height, hash: new Uint8Array(32).fill(height), block: storedBlock(hashes).block, bundleHashes: hashes, state: [], ...(outcome ? { outcome } : {}) };
}

/** A block written during a catch-up: with its bundle list (`t`), as the writer derives it for executed blocks. */
function synced(height: number, hashes: Uint8Array[]): BlockWrite {
  return { ...write(height, hashes), indexes: hashes.length > 0 ? [{ type: 'put', key: IndexKeys.blockTxs(height), value: packHashes(hashes) }] : [] };
}

/** Stored block bytes (src/chain/block.ts layout) with these bundles, and their hashes. */
function storedBlock(bundles: Uint8Array[]): { block: Uint8Array; hashes: Uint8Array[] } {
  const parts = [u32(2), Buffer.from('{}'), u32(bundles.length), ...bundles.flatMap((b) => [u32(b.length), b])];
  return { block: Buffer.concat(parts), hashes: bundles.map((b) => blake3(b)) };
}

function u32(n: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(n);
  return out;
}

async function until(condition: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('packHashes', () => {
  it('packs adjacent views (an imported block\'s scan) and scattered ones alike, into an array of its own', () => {
    const run = randomBytes(5 * 32);
    const adjacent = Array.from({ length: 5 }, (_, i) => new Uint8Array(run.buffer, run.byteOffset + 32 * i, 32));
    const scattered = adjacent.map((h) => Uint8Array.from(h));
    const packed = packHashes(adjacent);
    expect(Buffer.from(packed)).toEqual(Buffer.from(run));
    expect(Buffer.from(packHashes(scattered))).toEqual(Buffer.from(run));
    expect(packed.buffer).not.toBe(run.buffer);
    expect(packed.byteOffset).toBe(0);
    // views of one array, not in order
    expect(Buffer.from(packHashes([adjacent[1]!, adjacent[0]!]))).toEqual(Buffer.concat([adjacent[1]!, adjacent[0]!]));
    expect(packHashes([]).length).toBe(0);
  });
});

describe('ChainStore', () => {
  it('stores each bundle\'s position and the block\'s execution result with the block', async () => {
    const s = await store();
    const a = new Uint8Array(32).fill(0xaa);
    const b = new Uint8Array(32).fill(0xbb);
    await s.commitBlock(write(0, []));
    const one = encodeBlockResult([{ status: 0, gas: 1, fee: 2n, nonce: 3n }], []);
    const two = encodeBlockResult([{ status: 0, gas: 4, fee: 5n, nonce: 6n }, { status: 20, gas: 7, fee: 8n, nonce: 9n }], []);
    await s.commitBlocks([write(1, [a], one), write(2_000_000_000_000, [new Uint8Array(32), b], two)]);
    expect(await s.getPositions([b, a, new Uint8Array(32).fill(1)])).toEqual([{ height: 2_000_000_000_000, index: 1 }, { height: 1, index: 0 }, undefined]);
    expect((await s.getOutcomes([1, 2_000_000_000_000, 3])).map((o) => o && Buffer.from(o))).toEqual([Buffer.from(one), Buffer.from(two), undefined]);
    await s.close();
  });

  it('finds every bundle of a group of full blocks (position records are written in key order)', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const blocks = [1, 2, 3].map((height) => Array.from({ length: 1_500 }, () => randomBytes(32)));
    const handedOver = performance.timeOrigin + performance.now();
    const timings = await s.commitBlocks(blocks.map((hashes, i) => write(i + 1, hashes)));
    const answered = performance.timeOrigin + performance.now();
    // When the group became durable, on the clock the threads share (the full-block figure's end).
    expect(timings!.durableAt).toBeGreaterThanOrEqual(handedOver);
    expect(timings!.durableAt).toBeLessThanOrEqual(answered);
    expect(timings!.level).toBeGreaterThanOrEqual(0);
    const positions = await s.getPositions(blocks.flat());
    expect(positions).toEqual(blocks.flatMap((hashes, b) => hashes.map((_, index) => ({ height: b + 1, index }))));
    expect(await s.head()).toBe(3);
    await s.close();
  });

  it('refuses a write the batch cannot take, keeps its head, and writes again after a reopen', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const broken = { ...write(1, []), state: [{ key: Uint8Array.of(1), value: undefined as unknown as Uint8Array }] };
    await expect(s.commitBlock(broken)).rejects.toThrow(/block write failed/);
    expect(await s.head()).toBe(0);
    await s.close();
    await s.open();
    await s.commitBlock(write(1, [new Uint8Array(32).fill(7)]));
    expect(await s.head()).toBe(1);
    expect(await s.getPositions([new Uint8Array(32).fill(7)])).toEqual([{ height: 1, index: 0 }]);
    await s.close();
  });

  it('lands blocks handed over one by one in order, several to a synced batch while catching up', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const hashes = Array.from({ length: 30 }, () => randomBytes(32));
    const before = s.writeStats;
    const landed: number[] = [];
    await Promise.all(hashes.map((hash, i) => s.commitBlocks([synced(i + 1, [hash])], { linger: true }).then(() => landed.push(i + 1))));
    expect(landed).toEqual(hashes.map((_, i) => i + 1));
    expect(await s.head()).toBe(30);
    const stats = s.writeStats;
    expect(stats.blocks - before.blocks).toBe(30);
    expect(stats.groups - before.groups).toBeLessThan(30);
    // A catch-up leaves the lookup index behind; it is built once no catch-up block came for a while.
    expect(s.lookupHeight).toBe(0);
    await until(() => s.lookupHeight === 30);
    expect(await s.getPositions(hashes)).toEqual(hashes.map((_, i) => ({ height: i + 1, index: 0 })));
    await s.close();
  });


  it('stores the state of a group\'s last block when its blocks write the same keys (merged writes)', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const key = (n: number) => Uint8Array.of(0x01, n);
    const value = (n: number) => new Uint8Array(40).fill(n);
    // Block by block, as the core hands them over: key 1 rewritten every block, key 2 deleted then
    // put again, key 3 put then deleted, key 4 written once in the middle.
    const blocks: Array<BlockWrite & { state: StateWrite[] }> = [
      { ...write(1, []), state: [{ key: key(1), value: value(11) }, { key: key(2), value: value(21) }, { key: key(3), value: value(31) }] },
      { ...write(2, []), state: [{ key: key(1), value: value(12) }, { key: key(2), value: null }, { key: key(4), value: value(42) }] },
      { ...write(3, []), state: [{ key: key(3), value: null }, { key: key(2), value: value(23) }, { key: key(1), value: value(13) }] },
    ];
    const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
    const expected = new Map<string, string>();
    for (const b of blocks) {
      for (const { key: k, value: v } of b.state) {
        if (v === null) expected.delete(hex(k));
        else expected.set(hex(k), hex(v));
      }
    }
    const before = s.writeStats;
    // One call: its blocks land in one batch, whatever the timing.
    await s.commitBlocks(blocks, { linger: true });
    expect(s.writeStats.groups - before.groups).toBe(1);
    const stored = new Map<string, string>();
    await s.loadState((k, v) => stored.set(hex(k), hex(v)));
    expect(stored).toEqual(expected);
    await s.close();
    await s.open();
    const reopened = new Map<string, string>();
    await s.loadState((k, v) => reopened.set(hex(k), hex(v)));
    expect(reopened).toEqual(expected);
    await s.close();
  });
  it('builds the lookup index behind a catch-up: live blocks meanwhile are found at once, and the marker survives a reopen', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const caughtUp = Array.from({ length: 45 }, (_, i) => Array.from({ length: 1 + (i % 3) }, () => randomBytes(32)));
    // Block 8 has no bundles: no bundle list, and a stored block that says so.
    await Promise.all(caughtUp.map((hashes, i) => s.commitBlocks([i === 7 ? { ...write(8, []), block: storedBlock([]).block } : synced(i + 1, hashes)], { linger: true })));
    expect(await s.getPositions(caughtUp[3]!)).toEqual(caughtUp[3]!.map(() => undefined));
    // The address history of a catch-up's blocks is built behind it too (each bundle is its own sender here).
    const historyOf = async (sender: Uint8Array) => {
      const heights: number[] = [];
      await s.scanIndex(IndexKeys.addressHistoryPrefix(sender), (key) => { heights.push(IndexKeys.heightOf(key)); return true; });
      return heights;
    };
    expect(await historyOf(caughtUp[3]![0]!)).toEqual([]);
    // Closed before the index was built: the next open resumes it.
    await s.close();
    await s.open();
    expect(s.lookupHeight).toBe(0);
    const live = randomBytes(32);
    await s.commitBlock(synced(46, [live]));
    expect(await s.getPositions([live])).toEqual([{ height: 46, index: 0 }]);
    await until(() => s.lookupHeight === 46);
    for (const [i, hashes] of caughtUp.entries()) {
      if (i === 7) continue;
      expect(await s.getPositions(hashes)).toEqual(hashes.map((_, index) => ({ height: i + 1, index })));
      expect(await historyOf(hashes[0]!)).toEqual([i + 1]);
    }
    // At the head, a live block's position records follow its batch and move the marker: a lookup
    // right after the write waits for them.
    const head = randomBytes(32);
    await s.commitBlock(synced(47, [head]));
    expect(await s.getPositions([head])).toEqual([{ height: 47, index: 0 }]);
    // the records can be found a moment before the thread's word that moved the marker arrives
    await until(() => s.lookupHeight === 47);
    await s.close();
    await s.open();
    expect(s.lookupHeight).toBe(47);
    await s.close();
  });

  it('answers every bundle of a block at or below the lookup height while live and catch-up writes interleave (seeded)', async () => {
    // The rule receiptByHash relies on (docs/storage.md "The transaction lookup index"): read the
    // marker and the head, then look up; a bundle of a block at or below both is found. Live groups'
    // records follow their batch, catch-up groups' come from the build behind the head, and a reader
    // samples blocks all the while.
    const next = random(45);
    const s = await store();
    const bundles: Uint8Array[][] = [];
    let head = -1;
    let reading = true;
    const misses: string[] = [];
    const reader = (async () => {
      while (reading) {
        const marker = s.lookupHeight;
        const top = Math.min(marker, head);
        if (top >= 0) {
          const h = Math.floor(next() * (top + 1));
          if ((await s.getPositions(bundles[h]!)).some((p) => p === undefined)) misses.push(`block ${h}: marker ${marker}, head ${head}`);
        }
        await new Promise((r) => setTimeout(r, next() * 3));
      }
    })();
    let height = 0;
    for (let group = 0; group < 40; group++) {
      const catchUp = next() < 0.4;
      const writes = Array.from({ length: 1 + Math.floor(next() * 4) }, () => {
        const hashes = [randomBytes(32), randomBytes(32)];
        bundles[height] = hashes;
        return { ...synced(height++, hashes), deriveIndexes: true };
      });
      const landed = Promise.all(writes.map((w) => s.commitBlocks([w], { linger: catchUp }).then(() => (head = Math.max(head, w.height)))));
      // most groups land before the next is handed over; the others overlap it
      if (next() < 0.7) await landed;
      await new Promise((r) => setTimeout(r, next() * 40));
    }
    await until(() => s.lookupHeight === height - 1);
    reading = false;
    await reader;
    expect(misses).toEqual([]);
    for (let h = 0; h < height; h++) expect(await s.getPositions(bundles[h]!)).toEqual([{ height: h, index: 0 }, { height: h, index: 1 }]);
    await s.close();
  });

  it('writes a live block\'s positions and address history after its batch, and builds what a kill lost from the stored blocks', async () => {
    const s = await store();
    const senders = Array.from({ length: 6 }, () => randomBytes(32));
    const bundles = senders.map((sender) => storedBlock([sender]));
    const live = (height: number): BlockWrite => ({ ...write(height, bundles[height]!.hashes), block: bundles[height]!.block, deriveIndexes: true });
    const historyOf = async (sender: Uint8Array) => {
      const heights: number[] = [];
      await s.scanIndex(IndexKeys.addressHistoryPrefix(sender), (key) => { heights.push(IndexKeys.heightOf(key)); return true; });
      return heights;
    };
    for (let h = 0; h < 4; h++) await s.commitBlock(live(h));
    // the positions and the history follow the receipt's batch
    await until(() => s.historyHeight === 3);
    expect(s.lookupHeight).toBe(3);
    for (let h = 0; h < 4; h++) expect(await historyOf(senders[h]!)).toEqual([h]);
    await s.close();

    // What a kill after the batches of blocks 2 and 3 and before their follow-up leaves: both
    // markers at 1, no position or history records of 2 and 3.
    const raw = new Level<Uint8Array, Uint8Array>(s.path, { keyEncoding: 'view', valueEncoding: 'view' });
    await raw.batch([
      { type: 'del', key: IndexKeys.addressHistory(senders[2]!, 2) },
      { type: 'del', key: IndexKeys.addressHistory(senders[3]!, 3) },
      { type: 'del', key: Uint8Array.of(Prefix.Position, ...bundles[2]!.hashes[0]!) },
      { type: 'del', key: Uint8Array.of(Prefix.Position, ...bundles[3]!.hashes[0]!) },
      { type: 'put', key: HISTORY_MARKER, value: u64(1) },
      { type: 'put', key: LOOKUP_MARKER, value: u64(1) },
    ]);
    await raw.close();
    await s.open();
    expect(s.historyHeight).toBe(1);
    expect(s.lookupHeight).toBe(1);
    // nothing is on its way after the open: the lookup answers at once (the chain says TX_INDEXING)
    expect(await s.getPositions(bundles[2]!.hashes)).toEqual([undefined]);
    await s.commitBlock(live(4));
    // block 4's own records wait for the build behind the head, which writes 2…4
    await until(() => s.historyHeight === 4 && s.lookupHeight === 4);
    for (let h = 0; h < 5; h++) {
      expect(await historyOf(senders[h]!)).toEqual([h]);
      expect(await s.getPositions(bundles[h]!.hashes)).toEqual([{ height: h, index: 0 }]);
    }
    await s.commitBlock(live(5));
    await until(() => s.historyHeight === 5);
    expect(await historyOf(senders[5]!)).toEqual([5]);
    await s.close();
  });

  it('hashes a stored block\'s bundles for the lookup index when its bundle list is missing (--backfill-indexes clears them)', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const one = storedBlock([randomBytes(120), randomBytes(90)]);
    const empty = storedBlock([]);
    await s.commitBlocks([{ ...write(1, one.hashes), block: one.block }], { linger: true });
    await s.commitBlocks([{ ...write(2, []), block: empty.block }], { linger: true });
    await until(() => s.lookupHeight === 2);
    expect(await s.getPositions(one.hashes)).toEqual([{ height: 1, index: 0 }, { height: 1, index: 1 }]);
    await s.close();
  });

  it('stops building the lookup index on a block it cannot read, and goes on writing blocks', async () => {
    const { s, failures } = await storeReportingFailures();
    // no bundle list, and block bytes that are not a stored block
    await s.commitBlocks([{ ...write(1, [randomBytes(32)]), block: Uint8Array.of(1, 2, 3) }], { linger: true });
    await until(() => failures.length > 0);
    expect(failures[0]).toMatch(/stored block 1 does not decode/);
    expect(s.lookupFailure).toBe(failures[0]);
    expect(s.lookupHeight).toBe(0);
    const later = randomBytes(32);
    await s.commitBlock(synced(2, [later]));
    expect(await s.head()).toBe(2);
    expect(await s.getPositions([later])).toEqual([{ height: 2, index: 0 }]);
    expect(s.lookupHeight).toBe(0);
    // nothing is on its way any more: a hash in no block is answered at once, not after a wait
    const asked = performance.now();
    expect(await s.getPositions([randomBytes(32)])).toEqual([undefined]);
    expect(performance.now() - asked).toBeLessThan(1000);
    await s.close();
  });

  it('writes a live block\'s position records even when its address history cannot be built, and stops the history there', async () => {
    const { s, failures } = await storeReportingFailures();
    await until(() => s.historyHeight === 0);
    // a live block whose bytes are not a stored block: its history cannot be derived
    const broken = randomBytes(32);
    await s.commitBlock({ ...write(1, [broken]), block: Uint8Array.of(1, 2, 3), deriveIndexes: true });
    expect(await s.getPositions([broken])).toEqual([{ height: 1, index: 0 }]);
    await until(() => failures.length > 0);
    expect(failures[0]).toMatch(/address history of block 1 does not build/);
    const { block, hashes } = storedBlock([randomBytes(32)]);
    await s.commitBlock({ ...write(2, hashes), block, deriveIndexes: true });
    expect(await s.getPositions(hashes)).toEqual([{ height: 2, index: 0 }]);
    await until(() => s.lookupHeight === 2);
    // the history marker never passes the block without its history
    expect(s.historyHeight).toBe(0);
    await s.close();
  });

  it('writes nothing after a failed block: storage keeps the blocks before it', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const broken = { ...write(2, []), state: [{ key: Uint8Array.of(1), value: undefined as unknown as Uint8Array }] };
    const results = await Promise.allSettled([s.commitBlock(write(1, [])), s.commitBlock(broken), s.commitBlock(write(3, []))]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/an earlier write failed/);
    expect(await s.head()).toBe(1);
    await s.close();
  });

  it('leaves the caller\'s arrays usable: the writer gets copies (a pooled Buffer view is not detached)', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    const frame = Buffer.from('xxblock bytesyy');
    const block = frame.subarray(2, 13);
    const outcome = encodeBlockResult([{ status: 0, gas: 1, fee: 2n, nonce: 3n }], []);
    await s.commitBlock({ ...write(1, [new Uint8Array(32).fill(9)], outcome), block });
    expect(frame.toString()).toBe('xxblock bytesyy');
    expect(outcome.byteLength).toBeGreaterThan(0);
    expect(Buffer.from((await s.getBlock(1))!).toString()).toBe('block bytes');
    expect(Buffer.from((await s.getOutcomes([1]))[0]!)).toEqual(Buffer.from(outcome));
    await s.close();
  });

  it('refuses a database of another storage format, and reopens its own', async () => {
    const own = await store();
    await own.commitBlock(write(0, []));
    await own.close();
    await own.open();
    expect(await own.head()).toBe(0);
    await own.close();

    // A database with blocks but no format marker: written by a node that stored receipt JSON.
    const old = await store();
    await old.commitBlock(write(3, []));
    await old.close();
    await expect(old.open()).rejects.toThrow(/storage format 1, this node reads format 6/);
  });

  it('refuses a format 2 database: its blocks were made under the first transactions root', async () => {
    const s = await store();
    await s.commitBlock(write(0, []));
    await s.close();
    const raw = new Level<Uint8Array, Uint8Array>(s.path, { keyEncoding: 'view', valueEncoding: 'view' });
    await raw.batch([{ type: 'put', key: FORMAT, value: Uint8Array.of(2) }, { type: 'del', key: LOOKUP_MARKER }]);
    await raw.close();
    await expect(s.open()).rejects.toThrow(/storage format 2, this node reads format 6 \(its blocks were made under the first transactions root/);
  });

  it('cuts off a group whose batch a kill stopped after its blocks were appended, and writes the next block after the head', async () => {
    const s = await store();
    const outcome = encodeBlockResult([{ status: 0, gas: 1, fee: 2n, nonce: 3n }], []);
    const one = write(1, [randomBytes(32)], outcome);
    await s.commitBlocks([write(0, []), one]);
    await s.close();
    // the files synced, the batch never written: stray bytes past block 1
    appendFileSync(segmentPath(blockFilesDir(s.path), 0), randomBytes(5000));
    await s.open();
    expect(await s.head()).toBe(1);
    const next = write(2, [randomBytes(32)], outcome);
    await s.commitBlock(next);
    expect(Buffer.from((await s.getBlock(2))!)).toEqual(Buffer.from(next.block));
    expect(Buffer.from((await s.getOutcomes([2]))[0]!)).toEqual(Buffer.from(outcome));
    expect(Buffer.from((await s.getBlock(1))!)).toEqual(Buffer.from(one.block));
    await s.close();
  });

  it('refuses to open when the block files are gone', async () => {
    const s = await store();
    await s.commitBlocks([write(0, []), write(1, [randomBytes(32)])]);
    await s.close();
    await rm(blockFilesDir(s.path), { recursive: true });
    await expect(s.open()).rejects.toThrow(/blocks-000000\.dat holds 0 bytes, but the stored head's block ends at byte \d+: the block files are damaged or missing/);
  });

  it('moves a format 3 database\'s blocks and results into the block files, and resumes a move a kill stopped', async () => {
    const outcome = encodeBlockResult([{ status: 0, gas: 1, fee: 2n, nonce: 3n }], []);
    const writes = [write(0, []), ...[1, 2, 3, 4].map((h) => write(h, [randomBytes(32), randomBytes(32)], outcome))];
    const s = await store();
    await s.commitBlocks(writes);
    await s.close();
    // Back to format 3: blocks 2..4 under 'b' and their stored results under 'e'; blocks 0..1 already
    // moved (the marker at 1), and the files holding blocks 2..4 past block 1, as a kill leaves them.
    const raw = new Level<Uint8Array, Uint8Array>(s.path, { keyEncoding: 'view', valueEncoding: 'view' });
    const reader = new BlockFileReader(blockFilesDir(s.path));
    const records = await reader.read((await raw.getMany([2, 3, 4].map(blockKey))).map((l) => decodeLocation(l!)));
    await reader.close();
    await raw.batch([
      ...records.flatMap((r, i) => [
        { type: 'put' as const, key: blockKey(i + 2), value: r!.block },
        { type: 'put' as const, key: outcomeKey(i + 2), value: r!.outcome! },
      ]),
      { type: 'put', key: FORMAT, value: Uint8Array.of(3) },
      { type: 'put', key: MIGRATED, value: u64(1) },
    ]);
    await raw.close();

    await s.open();
    for (const w of writes) expect(Buffer.from((await s.getBlock(w.height))!)).toEqual(Buffer.from(w.block));
    const outcomes = await s.getOutcomes([0, 1, 2, 3, 4]);
    expect(outcomes[0]).toBeUndefined();
    for (const o of outcomes.slice(1)) expect(Buffer.from(o!)).toEqual(Buffer.from(outcome));
    await s.commitBlock(write(5, [randomBytes(32)]));
    await s.close();

    const after = new Level<Uint8Array, Uint8Array>(s.path, { keyEncoding: 'view', valueEncoding: 'view' });
    expect((await after.get(FORMAT))![0]).toBe(STORAGE_FORMAT);
    expect(await after.get(MIGRATED)).toBeUndefined();
    expect(await after.keys({ gte: Uint8Array.of(Prefix.Outcome), lt: Uint8Array.of(Prefix.Outcome + 1) }).all()).toEqual([]);
    await after.close();
    expect(existsSync(segmentPath(blockFilesDir(s.path), 1))).toBe(false);
  });
});
