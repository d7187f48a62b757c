import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Level } from 'level';
import { GroupState, packBlockWrite, TreePending } from '../../src/storage/block-batch.js';
import { ChainStore, type BlockWrite, type StateWrite } from '../../src/storage/chain-store.js';
import { FORMAT, Prefix, prefixed, readU64, TREE_KEY_FIRST, TREE_MARKER, u64 } from '../../src/storage/keys.js';
import { StateRootCheck } from '../../src/storage/state-root-check.js';

/**
 * The state tree on disk (docs/storage.md "The state tree on disk", storage format 5): the tree's
 * records (0xF0 bucket records, 0xF1 nodes) are written at checkpoints, the state records with every
 * block; a tree that trails the head is rebuilt from the records at open. The blocks here carry the
 * tree StateRootCheck computes for their state (the TypeScript twin of the core's tree, checked
 * against it by the integrity tests), so every write is what the core would give.
 */

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A deterministic chain of states: each block changes, adds and deletes some balance records. */
class Chain {
  readonly state = new Map<string, Uint8Array>();
  private tree = new Map<string, Uint8Array>();
  private seed = 7;
  readonly roots: Uint8Array[] = [];
  readonly trees: Array<Map<string, Uint8Array>> = [];

  private next(): number {
    this.seed = (this.seed * 1103515245 + 12345) >>> 0;
    return this.seed;
  }

  private bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.next() & 0xff);
  }

  async block(height: number): Promise<BlockWrite> {
    const changes = new Map<string, Uint8Array | null>();
    const keys = [...this.state.keys()];
    for (let i = 0; i < 40; i++) changes.set(hex(Uint8Array.of(0x02, ...this.bytes(64))), this.bytes(16));
    for (let i = 0; i < 20 && keys.length > 0; i++) changes.set(keys[this.next() % keys.length]!, this.bytes(16));
    for (let i = 0; i < 5 && keys.length > 0; i++) changes.set(keys[this.next() % keys.length]!, null);
    for (const [k, v] of changes) {
      if (v === null) this.state.delete(k);
      else this.state.set(k, v);
    }
    const check = await StateRootCheck.create();
    for (const [k, v] of this.state) check.add(Buffer.from(k, 'hex'), v);
    this.roots.push(check.finish());
    const tree = new Map(check.treeRecords().map(([k, v]) => [hex(k), v]));
    const writes: StateWrite[] = [...changes].map(([k, v]) => ({ key: Buffer.from(k, 'hex'), value: v }));
    for (const [k, v] of tree) if (hex(this.tree.get(k) ?? new Uint8Array()) !== hex(v)) writes.push({ key: Buffer.from(k, 'hex'), value: v });
    for (const k of this.tree.keys()) if (!tree.has(k)) writes.push({ key: Buffer.from(k, 'hex'), value: null });
    writes.sort((a, b) => Buffer.compare(a.key, b.key));
    this.tree = tree;
    this.trees.push(tree);
    return { height, hash: new Uint8Array(32).fill(height), block: new Uint8Array([height]), bundleHashes: [], state: writes };
  }
}

/** The stored state split into records and tree, with the root StateRootCheck finds (anomalies: stored tree ≠ records). */
async function stored(db: Level<Uint8Array, Uint8Array>): Promise<{ records: Map<string, string>; tree: Map<string, string>; root: string; anomalies: number; marker: number | undefined }> {
  const records = new Map<string, string>();
  const tree = new Map<string, string>();
  const check = await StateRootCheck.create();
  for await (const [key, value] of db.iterator({ gte: Uint8Array.of(Prefix.State), lt: Uint8Array.of(Prefix.State + 1) })) {
    const k = key.subarray(1);
    (k[0]! >= TREE_KEY_FIRST ? tree : records).set(hex(k), hex(value));
    check.add(k, value);
  }
  const root = hex(check.finish());
  const marker = await db.get(TREE_MARKER);
  return { records, tree, root, anomalies: check.anomalyCount, marker: marker && readU64(marker) };
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function newPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ntv-tree-'));
  dirs.push(dir);
  return join(dir, 'db');
}

const raw = (path: string) => new Level<Uint8Array, Uint8Array>(path, { keyEncoding: 'view', valueEncoding: 'view', multithreading: true });

/** A closed database at a new path holding blocks 0–2 of a new Chain (`treeEvery` as given). */
async function closedStore(options: { treeEvery?: number } = {}): Promise<{ path: string; chain: Chain }> {
  const path = await newPath();
  const chain = new Chain();
  const s = new ChainStore(path, {}, options);
  await s.open();
  for (let h = 0; h < 3; h++) await s.commitBlock(await chain.block(h));
  await s.close();
  return { path, chain };
}

describe('the state tree on disk (storage formats 5 and 6)', () => {
  it('writes the state records with every block and the tree only at a checkpoint; close writes one at the head', async () => {
    const path = await newPath();
    const chain = new Chain();
    const s = new ChainStore(path);
    await s.open();
    for (let h = 0; h < 4; h++) await s.commitBlock(await chain.block(h));
    // a second handle on the running database: the records are the head's, the tree is not stored yet
    const db = raw(path);
    await db.open();
    let now = await stored(db);
    expect(now.records.size).toBe(chain.state.size);
    for (const [k, v] of chain.state) expect(now.records.get(k)).toBe(hex(v));
    expect(now.tree.size).toBe(0);
    expect(now.marker).toBeUndefined();
    await db.close();
    await s.close();

    const after = raw(path);
    await after.open();
    now = await stored(after);
    expect(now.marker).toBe(3);
    expect(now.anomalies).toBe(0);
    expect(now.root).toBe(hex(chain.roots[3]!));
    expect([...now.tree.keys()].sort()).toEqual([...chain.trees[3]!.keys()].sort());
    await after.close();
  });

  it('holds a lone catch-up block\'s tree records until folded, while the writer hands block buffers back for reuse', async () => {
    // Each block its own group (awaited), none queued for the address history (a catch-up's): the
    // tree's run of views is the only thing keeping the block's buffer until it is folded, and the
    // next blocks are packed into the buffers handed back (docs/performance.md "Fresh buffers").
    const path = await newPath();
    const chain = new Chain();
    const s = new ChainStore(path);
    await s.open();
    for (let h = 0; h < 12; h++) await s.commitBlocks([await chain.block(h)], { linger: true });
    expect(s.writeStats.recycled).toBeGreaterThan(4);
    expect(s.writeStats.reused).toBeGreaterThan(4);
    await s.close();
    const db = raw(path);
    await db.open();
    const now = await stored(db);
    expect(now.marker).toBe(11);
    expect(now.anomalies).toBe(0);
    expect(now.root).toBe(hex(chain.roots[11]!));
    expect([...now.tree.keys()].sort()).toEqual([...chain.trees[11]!.keys()].sort());
    for (const [k, v] of chain.trees[11]!) expect(now.tree.get(k)).toBe(hex(v));
    await db.close();
  });

  it('rebuilds a tree a kill left behind its head (records at the head, tree at an older checkpoint) and gives the same root', async () => {
    const path = await newPath();
    const chain = new Chain();
    const s = new ChainStore(path, {}, { treeEvery: 2 });
    await s.open();
    for (let h = 0; h < 6; h++) await s.commitBlock(await chain.block(h));
    await s.close();
    // What a kill -9 after block 5's batch leaves when the last checkpoint was block 2: the state
    // records of block 5, the tree records and marker of block 2.
    const db = raw(path);
    await db.open();
    const batch = db.batch();
    for await (const key of db.keys({ gte: Uint8Array.of(Prefix.State, TREE_KEY_FIRST), lt: Uint8Array.of(Prefix.State + 1) })) batch.del(key);
    for (const [k, v] of chain.trees[2]!) batch.put(prefixed(Prefix.State, Buffer.from(k, 'hex')), v);
    batch.put(TREE_MARKER, u64(2));
    await batch.write();
    expect((await stored(db)).anomalies).toBeGreaterThan(0);
    await db.close();

    const rebuilt: Array<{ from: number; head: number }> = [];
    const again = new ChainStore(path, { onTreeRebuilt: (r) => rebuilt.push(r) });
    await again.open();
    expect(rebuilt).toMatchObject([{ from: 2, head: 5 }]);
    // and it goes on from there: another block, then a clean close
    await again.commitBlock(await chain.block(6));
    await again.close();
    const after = raw(path);
    await after.open();
    const now = await stored(after);
    expect(now).toMatchObject({ marker: 6, anomalies: 0, root: hex(chain.roots[6]!) });
    await after.close();
  });

  it('rebuilds the tree of a database killed before its first checkpoint (no marker)', async () => {
    const { path, chain } = await closedStore();
    const db = raw(path);
    await db.open();
    await db.clear({ gte: Uint8Array.of(Prefix.State, TREE_KEY_FIRST), lt: Uint8Array.of(Prefix.State + 1) });
    await db.del(TREE_MARKER);
    await db.close();

    const again = new ChainStore(path);
    await again.open();
    await again.close();
    const after = raw(path);
    await after.open();
    expect(await stored(after)).toMatchObject({ marker: 2, anomalies: 0, root: hex(chain.roots[2]!) });
    await after.close();
  });

  it('moves a format 4 database (its tree at its head, no group records) to format 6: the tree is rebuilt with them, same root', async () => {
    const { path, chain } = await closedStore({ treeEvery: 1 });
    // format 4: the same records without the group records (0xF2), no tree marker
    const db = raw(path);
    await db.open();
    await db.batch([{ type: 'put', key: FORMAT, value: Uint8Array.of(4) }, { type: 'del', key: TREE_MARKER }]);
    await db.clear({ gte: Uint8Array.of(Prefix.State, 0xf2), lt: Uint8Array.of(Prefix.State, 0xf3) });
    await db.close();

    const rebuilt: unknown[] = [];
    const again = new ChainStore(path, { onTreeRebuilt: (r) => rebuilt.push(r) });
    await again.open();
    expect(await again.head()).toBe(2);
    await again.close();
    expect(rebuilt).toMatchObject([{ head: 2 }]);
    const after = raw(path);
    await after.open();
    expect((await after.get(FORMAT))![0]).toBe(6);
    const now = await stored(after);
    expect(now).toMatchObject({ marker: 2, anomalies: 0, root: hex(chain.roots[2]!) });
    expect([...now.tree.keys()].sort()).toEqual([...chain.trees[2]!.keys()].sort());
    expect([...now.tree.keys()].some((k) => k.startsWith('f2'))).toBe(true);
    await after.close();
  });

  it('moves a format 5 database (a tree without group records) to format 6 by rebuilding the tree at open', async () => {
    const { path, chain } = await closedStore({ treeEvery: 1 });
    const db = raw(path);
    await db.open();
    await db.put(FORMAT, Uint8Array.of(5));
    await db.clear({ gte: Uint8Array.of(Prefix.State, 0xf2), lt: Uint8Array.of(Prefix.State, 0xf3) });
    // without its group records the tree is incomplete: the check names them
    expect((await stored(db)).anomalies).toBeGreaterThan(0);
    await db.close();

    const rebuilt: unknown[] = [];
    const again = new ChainStore(path, { onTreeRebuilt: (r) => rebuilt.push(r) });
    await again.open();
    await again.close();
    expect(rebuilt).toMatchObject([{ from: -1, head: 2 }]);
    const after = raw(path);
    await after.open();
    expect((await after.get(FORMAT))![0]).toBe(6);
    expect(await stored(after)).toMatchObject({ marker: 2, anomalies: 0, root: hex(chain.roots[2]!) });
    await after.close();
  });

  it('with treeEvery 1 (--elastic-state) writes the tree with every block', async () => {
    const path = await newPath();
    const chain = new Chain();
    const s = new ChainStore(path, {}, { treeEvery: 1 });
    await s.open();
    const db = raw(path);
    await db.open();
    for (let h = 0; h < 3; h++) {
      await s.commitBlock(await chain.block(h));
      expect(await stored(db)).toMatchObject({ marker: h, anomalies: 0, root: hex(chain.roots[h]!) });
    }
    await db.close();
    await s.close();
  });

  it('gives a consistent read (export, integrity) a tree at its head while the checkpoint trails', async () => {
    const path = await newPath();
    const chain = new Chain();
    const s = new ChainStore(path);
    await s.open();
    for (let h = 0; h < 3; h++) await s.commitBlock(await chain.block(h));
    const read = await s.openRead();
    // blocks go on landing while the read is open
    await s.commitBlock(await chain.block(3));
    const check = await StateRootCheck.create();
    for await (const entries of read.entries({ gte: Uint8Array.of(Prefix.State), lt: Uint8Array.of(Prefix.State + 1) })) {
      for (const [key, value] of entries) check.add(key.subarray(1), value);
    }
    expect(read.head).toBe(2);
    expect(hex(check.finish())).toBe(hex(chain.roots[2]!));
    expect(check.anomalyCount).toBe(0);
    await read.close();
    await s.close();
  });
});

describe('TreePending (the writer thread\'s tree records between checkpoints)', () => {
  const sink = () => {
    const ops = new Map<string, string | null>();
    return { ops, put: (k: Uint8Array, v: Uint8Array) => ops.set(hex(k), hex(v)), del: (k: Uint8Array) => ops.set(hex(k), null) };
  };
  const packed = (writes: Array<[number[], number[] | null]>) => {
    const { packed: p } = packBlockWrite({ height: 1, hash: new Uint8Array(32), block: new Uint8Array(1), bundleHashes: [], state: writes.map(([k, v]) => ({ key: Uint8Array.from(k), value: v && Uint8Array.from(v) })) });
    return p;
  };

  it('keeps the newest value of each tree record across lone blocks (packed runs) and merged groups, in block order', () => {
    const tree = new TreePending();
    const lone = (writes: Array<[number[], number[] | null]>) => {
      const g = new GroupState();
      g.add(packed(writes));
      const batch = sink();
      g.putInto(batch, tree);
      return batch.ops;
    };
    // sorted (the core's order): the records go to the batch, the tree's tail to the pending set
    expect([...lone([[[0x02, 1], [1]], [[0xf0, 0, 1], [7]], [[0xf1, 0, 0, 0, 1], [8]]]).keys()]).toEqual(['730201']);
    // not sorted: every write still goes its own way
    expect([...lone([[[0xf0, 0, 1], [9]], [[0x02, 2], [2]]]).keys()]).toEqual(['730202']);
    const merged = new GroupState();
    merged.add(packed([[[0xf0, 0, 2], [3]]]));
    merged.add(packed([[[0xf0, 0, 2], null], [[0xf1, 0, 0, 0, 1], [10]]]));
    merged.putInto(sink(), tree);
    lone([[[0xf0, 0, 1], [11]]]);
    const out = sink();
    tree.drainInto(out);
    expect(Object.fromEntries(out.ops)).toEqual({ '73f00001': '0b', '73f00002': null, '73f100000001': '0a' });
    expect(tree.size).toBe(0);
  });

  it('with records in the cold tier: the sweep leaves the tree records warm, and a tree rebuilt at open reads the cold records too', async () => {
    const path = await newPath();
    const chain = new Chain();
    const s = new ChainStore(path, {}, { treeEvery: 2 });
    await s.open();
    for (let h = 0; h < 2; h++) await s.commitBlock(await chain.block(h));
    await s.cold({ kind: 'configure', window: 2, height: 1 });
    for (let h = 2; h < 8; h++) await s.commitBlock(await chain.block(h));
    await s.close();
    // a checkpoint at the head (close), then the sweep: the records of blocks 0–3 not written since go cold
    const swept = new ChainStore(path, {}, { treeEvery: 2 });
    await swept.open();
    const step = await swept.cold({ kind: 'step', maxKeys: 100_000 });
    expect(step.moved).toBeGreaterThan(0);
    await swept.close();
    const db = raw(path);
    await db.open();
    const coldKeys: Uint8Array[] = [];
    for await (const key of db.keys({ gte: Uint8Array.of(Prefix.Cold), lt: Uint8Array.of(Prefix.Cold + 1) })) coldKeys.push(key.subarray(1));
    expect(coldKeys.length).toBe(step.moved);
    expect(coldKeys.filter((k) => k[0]! >= TREE_KEY_FIRST)).toEqual([]);
    // a kill that left the tree at block 6's checkpoint under block 7's records
    const batch = db.batch();
    for await (const key of db.keys({ gte: Uint8Array.of(Prefix.State, TREE_KEY_FIRST), lt: Uint8Array.of(Prefix.State + 1) })) batch.del(key);
    for (const [k, v] of chain.trees[6]!) batch.put(prefixed(Prefix.State, Buffer.from(k, 'hex')), v);
    batch.put(TREE_MARKER, u64(6));
    await batch.write();
    await db.close();

    const rebuilt: Array<{ from: number; head: number; stateRecords: number }> = [];
    const again = new ChainStore(path, { onTreeRebuilt: (r) => rebuilt.push(r) });
    await again.open();
    await again.close();
    expect(rebuilt).toMatchObject([{ from: 6, head: 7, stateRecords: chain.state.size }]);
    const after = raw(path);
    await after.open();
    const tree = new Map<string, string>();
    for await (const [key, value] of after.iterator({ gte: Uint8Array.of(Prefix.State, TREE_KEY_FIRST), lt: Uint8Array.of(Prefix.State + 1) })) tree.set(hex(key.subarray(1)), hex(value));
    await after.close();
    expect(tree).toEqual(new Map([...chain.trees[7]!].map(([k, v]) => [k, hex(v)])));
  });
});
