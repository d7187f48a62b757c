import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ElasticState } from '../../src/chain/elastic-state.js';
import { ChainStore, type StateWrite } from '../../src/storage/chain-store.js';
import { bucketKey, groupKey, sliceKey } from '../../src/abi/state.js';
import { storedBucketEntries } from '../../src/codec/bucket-records.js';

// The cold tier (src/storage/cold-store.ts, docs/operations.md "Elastic state"): records not
// written for a window of blocks move from the warm range to the cold one on the block writer's
// thread; reads go through both; a block's write brings a record back; every reader of the whole
// range sees each record once.

const dirs: string[] = [];
const stores: ChainStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function open(dir?: string): Promise<ChainStore> {
  const path = dir ?? (await mkdtemp(join(tmpdir(), 'ntv-cold-')));
  if (!dir) dirs.push(path);
  const s = new ChainStore(join(path, 'db'));
  await s.open();
  stores.push(s);
  return s;
}

const key = (name: string) => new Uint8Array(Buffer.from(name));
const value = (text: string) => new Uint8Array(Buffer.from(text));
const text = (v: Uint8Array | undefined) => (v === undefined ? undefined : Buffer.from(v).toString());
/** a read's value as text, with its tier */
const read = (r: { value: Uint8Array | undefined; tier: string }) => [text(r.value), r.tier];

async function commit(store: ChainStore, height: number, state: StateWrite[]): Promise<void> {
  await store.commitBlock({ height, hash: new Uint8Array(32).fill(height), block: Uint8Array.of(height), bundleHashes: [], state });
}

/** `count` records a0…, written at height 0, then blocks 1…`head` writing only `busy`. */
async function aged(store: ChainStore, count: number, head: number, window: number): Promise<Array<{ key: Uint8Array; value: Uint8Array }>> {
  const records = Array.from({ length: count }, (_, i) => ({ key: key(`a${String(i).padStart(3, '0')}`), value: value(`v${i}`) }));
  await commit(store, 0, [...records, { key: key('busy'), value: value('b0') }]);
  await store.cold({ kind: 'configure', window, height: 0 });
  for (let h = 1; h <= head; h++) await commit(store, h, [{ key: key('busy'), value: value(`b${h}`) }]);
  return records;
}

async function all(store: ChainStore): Promise<Array<[string, string]>> {
  const out: Array<[string, string]> = [];
  await store.loadState((k, v) => out.push([text(k)!, text(v)!]));
  return out;
}

describe('the cold tier', () => {
  it('moves nothing until two whole windows have passed since it was enabled', async () => {
    const store = await open();
    await aged(store, 5, 3, 2); // head 3: window 1, the window before it (0) is the one it was enabled in
    expect(await store.cold({ kind: 'step', maxKeys: 100 })).toEqual({ scanned: 0, moved: 0, movedBytes: 0, wrapped: false });
    expect((await store.countCold()).keys).toBe(0);
  });

  it('moves the records not written for a window, reads them through warm then cold, and keeps the busy one warm', async () => {
    const store = await open();
    const records = await aged(store, 50, 5, 2);
    const step = await store.cold({ kind: 'step', maxKeys: 1000 });
    expect(step).toMatchObject({ scanned: 51, moved: 50, wrapped: true });
    expect((await store.countCold()).keys).toBe(50);
    expect((await store.countState()).keys).toBe(1);
    for (const { key: k, value: v } of records) {
      expect(read(store.readStateSync(k))).toEqual([text(v), 'cold']);
      expect(text(store.getStateSync(k))).toBe(text(v));
    }
    expect(read(store.readStateSync(key('busy')))).toEqual(['b5', 'warm']);
    expect(read(store.readStateSync(key('nothing')))).toEqual([undefined, 'warm']);
    const many = await store.readStateMany([key('a007'), key('busy'), key('nothing')]);
    expect(many.map((r) => [text(r.value), r.tier])).toEqual([['v7', 'cold'], ['b5', 'warm'], [undefined, 'warm']]);
  });

  it('steps through the warm range in pieces, its cursor wrapping at the end', async () => {
    const store = await open();
    await aged(store, 25, 5, 2);
    const steps = [];
    for (let i = 0; i < 3; i++) steps.push(await store.cold({ kind: 'step', maxKeys: 10 }));
    expect(steps.map((s) => [s.scanned, s.wrapped])).toEqual([[10, false], [10, false], [6, true]]);
    expect((await store.countCold()).keys).toBe(25);
  });

  it('a block that writes or deletes a cold key puts it back into warm (or removes it) in the same batch', async () => {
    const store = await open();
    await aged(store, 10, 5, 2);
    await store.cold({ kind: 'step', maxKeys: 100 });
    await commit(store, 6, [{ key: key('a001'), value: value('new') }, { key: key('a002'), value: null }]);
    expect(read(store.readStateSync(key('a001')))).toEqual(['new', 'warm']);
    expect(store.getStateSync(key('a002'))).toBeUndefined();
    expect((await store.countCold()).keys).toBe(8);
    // Written in the current window: the next sweep leaves it warm.
    await store.cold({ kind: 'step', maxKeys: 100 });
    expect(store.readStateSync(key('a001')).tier).toBe('warm');
  });

  it('every reader of the whole range sees each record once, in key order, with records cold; a restart keeps the tiers', async () => {
    const store = await open();
    const records = await aged(store, 30, 5, 2);
    const before = await all(store);
    await store.cold({ kind: 'step', maxKeys: 100 });
    await commit(store, 6, [{ key: key('a010'), value: value('again') }]);
    const expected = before.map(([k, v]) => [k, k === 'a010' ? 'again' : v]);
    expect(await all(store)).toEqual(expected);
    // a consistent read (export, snapshots, the integrity sweep)
    const snapshot = await store.openRead();
    const seen: Array<[string, string]> = [];
    const both: Uint8Array[] = [];
    for await (const batch of snapshot.state({ onBoth: (k) => both.push(k) })) for (const [k, v] of batch) seen.push([text(k)!, text(v)!]);
    await snapshot.close();
    expect(seen).toEqual(expected);
    expect(both).toEqual([]);
    // a prefix scan (the domain readers' watched prefixes)
    const scanned: string[] = [];
    await store.scanState('a'.charCodeAt(0), (k) => scanned.push(text(k)!));
    expect(scanned).toEqual(records.map((r) => text(r.key)));
    // restart: the cold records are where they were, and writes still bring them back
    const path = store.path;
    await store.close();
    stores.pop();
    const again = await open(join(path, '..'));
    expect(await all(again)).toEqual(expected);
    expect(again.readStateSync(key('a020')).tier).toBe('cold');
    await commit(again, 7, [{ key: key('a020'), value: value('back') }]);
    expect(read(again.readStateSync(key('a020')))).toEqual(['back', 'warm']);
  });

  it('the elastic state reads cold records through its tiers, promotes them into hot and counts each tier', async () => {
    const store = await open();
    await aged(store, 20, 5, 2);
    await store.cold({ kind: 'step', maxKeys: 100 });
    const state = new ElasticState(store, { hotBytes: 1 << 20, coreKeys: 1000, coreBytes: 64 << 20, coldAfter: 2 });
    // The core instance is replaced past either bound: its keys, or its WebAssembly memory (the
    // stub runtime never frees, docs/operations.md "Memory bound").
    expect(state.wantsCoreRecycle(1000, 64 << 20)).toBe(false);
    expect(state.wantsCoreRecycle(1001, 8 << 20)).toBe(true);
    expect(state.wantsCoreRecycle(10, (64 << 20) + 65536)).toBe(true);
    expect(await state.loadFrom(store)).toBe(21);
    expect(text(state.get(key('a003')))).toBe('v3');
    expect(text(state.get(key('a003')))).toBe('v3'); // now from hot
    expect(state.get(key('nothing'))).toBeUndefined();
    await state.prefetch([key('a004'), key('busy')]);
    let { cold, warm, hot } = state.stats().tiers;
    expect(cold).toMatchObject({ keys: 20, hits: 2, misses: 1, promotions: 2, evictions: 0 });
    expect(warm).toMatchObject({ keys: 1, hits: 1, misses: 3 });
    expect(hot).toMatchObject({ hits: 1, misses: 2, promotions: 4 });
    // A block writes the cold record: it is back in warm; the counts follow.
    await commit(store, 6, [{ key: key('a003'), value: value('w') }]);
    state.apply([{ key: key('a003'), value: value('w') }]);
    ({ cold, warm } = state.stats().tiers);
    expect(cold).toMatchObject({ keys: 19, evictions: 1 });
    expect(warm).toMatchObject({ keys: 2, promotions: 1 });
    expect(text(state.get(key('a003')))).toBe('w');
    expect(store.readStateSync(key('a003')).tier).toBe('warm');
  });

  it('the elastic state prefetches the slices of a bucket stored in slices, and none of a bucket that is one record or empty', async () => {
    const path = await mkdtemp(join(tmpdir(), 'ntv-cold-'));
    dirs.push(path);
    // the tree with every block, as --elastic-state writes it (docs/storage.md "The state tree on disk")
    const store = new ChainStore(join(path, 'db'), {}, { treeEvery: 1 });
    await store.open();
    stores.push(store);
    const sliced = 0x1234;
    const whole = 0x1235;
    const empty = 0x1236;
    const group = new Uint8Array(512);
    group.fill(7, 32 * (sliced & 15), 32 * (sliced & 15) + 32);
    group.fill(9, 32 * (whole & 15), 32 * (whole & 15) + 32);
    await commit(store, 0, [
      { key: bucketKey(whole), value: new Uint8Array(64).fill(1) },
      { key: groupKey(sliced >> 4), value: group },
      { key: sliceKey(sliced, 3), value: new Uint8Array(64).fill(2) },
      { key: sliceKey(sliced, 9), value: new Uint8Array(128).fill(3) },
    ]);
    const state = new ElasticState(store, { hotBytes: 1 << 20, coreKeys: 1000, coreBytes: 64 << 20, coldAfter: 0 });
    await state.loadFrom(store);
    const asked: string[][] = [];
    const readMany = store.readStateMany.bind(store);
    store.readStateMany = (keys: Uint8Array[]) => {
      asked.push(keys.map((k) => Buffer.from(k).toString('hex')));
      return readMany(keys);
    };
    await state.prefetch([bucketKey(sliced), bucketKey(whole), bucketKey(empty), groupKey(sliced >> 4)]);
    // a second read, of the 16 slices of the one bucket with no record whose hash is not zero
    expect(asked.length).toBe(2);
    expect(asked[1]).toEqual(Array.from({ length: 16 }, (_, s) => Buffer.from(sliceKey(sliced, s)).toString('hex')));
    const hotBefore = state.stats().tiers.hot.hits;
    expect(storedBucketEntries((k) => state.get(k), sliced)).toEqual(Uint8Array.from([...new Uint8Array(64).fill(2), ...new Uint8Array(128).fill(3)]));
    expect(state.stats().tiers.hot.hits - hotBefore).toBe(17); // every read from hot: the 0xF0 miss is remembered too
  });

  it('a prefetch that a block landed during keeps what it read of the keys the block did not write, and never a written key\'s older value', async () => {
    const store = await open();
    await commit(store, 0, [{ key: key('a'), value: value('old') }, { key: key('b'), value: value('b0') }]);
    const state = new ElasticState(store, { hotBytes: 1 << 20, coreKeys: 1000, coreBytes: 64 << 20, coldAfter: 0 });
    await state.loadFrom(store);
    // the read returns what was durable when it began; a block writing `a` lands before it returns
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    const readMany = store.readStateMany.bind(store);
    store.readStateMany = async (keys: Uint8Array[]) => {
      const values = await readMany(keys);
      await gate;
      return values;
    };
    const prefetched = state.prefetch([key('a'), key('b')]);
    await new Promise((r) => setTimeout(r, 10));
    await commit(store, 1, [{ key: key('a'), value: value('new') }]);
    state.apply([{ key: key('a'), value: value('new') }]);
    release();
    await prefetched;
    const before = state.stats().tiers;
    expect(text(state.get(key('a')))).toBe('new');
    expect(text(state.get(key('b')))).toBe('b0');
    // both from hot: `b` kept from the prefetch, `a` as the block wrote it
    expect(state.stats().tiers.hot.hits - before.hot.hits).toBe(2);
    expect(state.stats().tiers.warm.hits).toBe(before.warm.hits);
  });
});
