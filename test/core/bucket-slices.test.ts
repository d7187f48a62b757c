// Bucket slices (docs/state-root.md "Bucket slices", assembly/root.ts): a bucket of more than 16
// entries is stored as 0xF3 slices, and a block writes only the slices it changed. The root is the
// same however a bucket is stored; a fresh core, the proof builder, the integrity check and the
// start-up check read either form.
import { beforeAll, describe, expect, it } from 'vitest';
import { Core, type BundleInput, type Write } from '../../src/core/core.js';
import { balanceKey } from '../../src/core/records.js';
import { blake3, initHashing } from '../../src/codec/hash.js';
import { bucketKey, bucketRecords, sliceKeyParts, sliceOfPath, storedBucketEntries } from '../../src/codec/bucket-records.js';
import { proveState, verifyStateProof } from '../../src/codec/state-proof.js';
import { StateRootCheck } from '../../src/storage/state-root-check.js';
import { StateView } from '../../src/chain/state-view.js';
import { checkLoadedState } from '../../src/chain/start-check.js';
import { BUCKET_SLICE_ABOVE } from '../../src/abi/constants.js';
import { encodeBundle, addr, hex } from '../../testkit/encode.js';
import { Reference } from '../../testkit/reference.js';
import { MapStore, NTV, type TwinGenesis } from './harness.js';

const bucketOf = (key: Uint8Array) => { const p = blake3(key); return (p[0]! << 8) | p[1]!; };

/** `n` account numbers whose NTV balance keys all fall in one bucket (found by trying accounts in order). */
function crowded(n: number): { bucket: number; accounts: number[] } {
  const byBucket = new Map<number, number[]>();
  for (let i = 10_000; ; i++) {
    const b = bucketOf(balanceKey(addr(i), NTV));
    let list = byBucket.get(b);
    if (!list) byBucket.set(b, (list = []));
    list.push(i);
    if (list.length === n) return { bucket: b, accounts: list };
  }
}

const genesisOf = (accounts: number[], amount = 10n ** 12n): TwinGenesis => ({
  chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: [],
  tokens: [{ mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) }],
  balances: accounts.map((i) => ({ account: addr(i), mint: NTV, amount })),
});
const ctx = (height: bigint) => ({ height, timestamp: 1_700_000_000n + height * 10n, proposer: addr(900), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n });
const send = (from: number, to: number, amount: bigint, nonce = 0n): BundleInput => ({
  bytes: encodeBundle({ user: addr(from), ops: [{ kind: 'transfer', to: addr(to), token: NTV, amount }], nonce, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: 1_800_000_000n }),
  auth: 0,
});
const treeWrites = (writes: Write[], bucket: number) => writes.filter((w) => (w.key[0] === 0xf0 && w.key.length === 3 && ((w.key[1]! << 8) | w.key[2]!) === bucket)
  || sliceKeyParts(w.key)?.bucket === bucket);

describe('bucket slices', () => {
  let bucket: number;
  let accounts: number[];
  beforeAll(async () => {
    await initHashing();
    ({ bucket, accounts } = crowded(BUCKET_SLICE_ABOVE + 8));
  });

  it('a bucket of more than 16 entries is stored as slices; a block writes only the slices it changed', async () => {
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis(genesisOf(accounts));
    const g = core.commitBlock();
    store.apply(g.writes);
    const own = treeWrites(g.writes, bucket);
    // no 0xF0 record for it (its deletion at most), and a slice per slice its entries fall in
    expect(own.filter((w) => w.key[0] === 0xf0 && w.value)).toEqual([]);
    const slices = own.filter((w) => w.key[0] === 0xf3);
    const expected = new Set(accounts.map((i) => sliceOfPath(blake3(balanceKey(addr(i), NTV)))));
    expect(new Set(slices.map((w) => w.key[3]!))).toEqual(expected);
    // the stored slices, joined, are the bucket the core holds (its whole 0xF0 answer from memory)
    const whole = core.get(bucketKey(bucket))!;
    expect(whole.length).toBe(64 * accounts.length);
    expect(hex(storedBucketEntries((k) => store.get(k), bucket))).toBe(hex(whole));
    expect(bucketRecords(bucket, whole).map(([k]) => hex(k)).sort()).toEqual(slices.map((w) => hex(w.key)).sort());
    // the core answers each slice key from memory as stored, and an empty slice as absent
    for (let sl = 0; sl < 16; sl++) {
      const key = Uint8Array.of(0xf3, bucket >> 8, bucket & 0xff, sl);
      const got = core.get(key);
      expect(got && hex(got)).toBe(store.get(key) && hex(store.get(key)!));
    }

    // one sender in the bucket: its slice alone is written
    const sender = accounts[3]!;
    const b1 = core.applyBlock(ctx(1n), [send(sender, 77, 5n)]);
    expect(b1.results[0]!.status).toBe(0);
    const c1 = core.commitBlock();
    store.apply(c1.writes);
    const changed = treeWrites(c1.writes, bucket);
    expect(changed.map((w) => hex(w.key))).toEqual([hex(Uint8Array.of(0xf3, bucket >> 8, bucket & 0xff, sliceOfPath(blake3(balanceKey(addr(sender), NTV)))))]);

    // a fresh core over the store reads the slices and reaches the same root on the next block
    const reads = { whole: 0, slices: 0 };
    const fresh = await Core.create({ get: (key: Uint8Array) => {
      if (key[0] === 0xf0 && key.length === 3) reads.whole++;
      if (key[0] === 0xf3) reads.slices++;
      return store.get(key);
    } });
    const next = [send(accounts[5]!, 78, 7n)];
    fresh.applyBlock(ctx(2n), next);
    core.applyBlock(ctx(2n), next);
    const cf = fresh.commitBlock();
    const c2 = core.commitBlock();
    expect(hex(cf.stateRoot)).toBe(hex(c2.stateRoot));
    expect(cf.writes.map((w) => [hex(w.key), w.value && hex(w.value)])).toEqual(c2.writes.map((w) => [hex(w.key), w.value && hex(w.value)]));
    expect(reads.slices).toBe(16);
    store.apply(c2.writes);

    // the proof of a key in it carries the whole bucket and verifies against the root
    const key = balanceKey(addr(accounts[5]!), NTV);
    const proof = proveState(store, key);
    expect(proof.entries.length).toBe(64 * accounts.length);
    expect(verifyStateProof(proof, c2.stateRoot)).toMatchObject({ ok: true, present: true });

    // the integrity sweep over the records: the same root, no anomaly, and the tree it would rebuild is the stored one
    const check = await StateRootCheck.create();
    const stateKeys = [...store.map.keys()].sort();
    for (const k of stateKeys) check.add(Buffer.from(k, 'hex'), store.map.get(k)!);
    expect(hex(check.finish())).toBe(hex(c2.stateRoot));
    expect(check.found).toEqual([]);
    const rebuilt = check.treeRecords().filter(([k]) => k[0] === 0xf0 || k[0] === 0xf3).map(([k, v]) => [hex(k), hex(v)]);
    const stored = stateKeys.filter((k) => k.startsWith('f0') || k.startsWith('f3')).map((k) => [k, hex(store.map.get(k)!)]);
    expect(rebuilt).toEqual(stored);
  });

  it('a bucket that shrinks to 16 entries is one record again, its slices deleted; the root follows either way', async () => {
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis(genesisOf(accounts, 1000n));
    store.apply(core.commitBlock().writes);
    // empty enough senders (a zero balance's record is deleted) to bring the bucket to 16 entries
    const leaving = accounts.slice(0, accounts.length - BUCKET_SLICE_ABOVE);
    core.applyBlock(ctx(1n), leaving.map((i) => send(i, 5, 1000n)));
    const c = core.commitBlock();
    store.apply(c.writes);
    expect(core.get(bucketKey(bucket))!.length).toBe(64 * BUCKET_SLICE_ABOVE);
    const own = treeWrites(c.writes, bucket);
    expect(own.filter((w) => w.key[0] === 0xf3).every((w) => w.value === null)).toBe(true);
    expect(own.filter((w) => w.key[0] === 0xf3).length).toBe(16);
    expect(hex(store.get(bucketKey(bucket))!)).toBe(hex(core.get(bucketKey(bucket))!));
    expect([...store.map.keys()].some((k) => k.startsWith('f3'))).toBe(false);
    // a core reading the same records from scratch agrees with the one that wrote them
    const fresh = await Core.create(store);
    expect(hex(fresh.stateRoot())).toBe(hex(core.stateRoot()));
    expect(hex(fresh.get(bucketKey(bucket))!)).toBe(hex(core.get(bucketKey(bucket))!));
  });

  it('a whole 0xF0 record of more than 16 entries (written before slices) is read, and turned into slices at its next write', async () => {
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis(genesisOf(accounts));
    store.apply(core.commitBlock().writes);
    // the store as an older node left it: the bucket as one record
    const whole = core.get(bucketKey(bucket))!;
    for (const k of [...store.map.keys()]) if (k.startsWith('f3')) store.map.delete(k);
    store.map.set(hex(bucketKey(bucket)), whole.slice());
    const old = await Core.create(store);
    old.applyBlock(ctx(1n), [send(accounts[0]!, 99, 1n)]);
    core.applyBlock(ctx(1n), [send(accounts[0]!, 99, 1n)]);
    const co = old.commitBlock();
    expect(hex(co.stateRoot)).toBe(hex(core.commitBlock().stateRoot));
    store.apply(co.writes);
    const own = treeWrites(co.writes, bucket);
    expect(own.find((w) => w.key[0] === 0xf0)).toMatchObject({ value: null });
    expect(store.get(bucketKey(bucket))).toBeUndefined();
    expect(hex(storedBucketEntries((k) => store.get(k), bucket))).toBe(hex(old.get(bucketKey(bucket))!));
  });

  it('the start-up check reads a sliced bucket, and names a slice that was altered', async () => {
    const store = new MapStore();
    const core = await Core.create(store);
    core.genesis(genesisOf(accounts));
    store.apply(core.commitBlock().writes);
    const load = (tamper: boolean) => {
      const view = new StateView();
      for (const [k, v] of store.map) {
        const value = v.slice();
        if (tamper && k.startsWith('f3') && value.length >= 64) value[40]! ^= 1; // a leaf of every slice
        view.load(Buffer.from(k, 'hex'), value);
      }
      return view;
    };
    const clean = await checkLoadedState(load(false), core.stateRoot(), { records: true });
    expect(clean.anomalies).toEqual([]);
    const altered = await checkLoadedState(load(true), core.stateRoot(), { records: true });
    expect(altered.anomalies.some((a) => /does not match its state-root leaf/.test(a.reason))).toBe(true);
    // a bucket stored both ways is named by the start-up check and by the integrity sweep
    store.map.set(hex(bucketKey(bucket)), core.get(bucketKey(bucket))!.slice());
    const both = await checkLoadedState(load(false), core.stateRoot(), { records: true });
    expect(both.anomalies.map((a) => a.reason)).toContain(`bucket ${bucket} is stored both whole and as slices`);
    const check = await StateRootCheck.create();
    for (const k of [...store.map.keys()].sort()) check.add(Buffer.from(k, 'hex'), store.map.get(k)!);
    check.finish();
    expect(check.found.map((a) => a.reason)).toContain(`bucket ${bucket} is stored both whole and as slices`);
  });

  it('the bigint reference model writes the same records, slices included, as the bucket grows, changes and shrinks', async () => {
    const core = await Core.create(new MapStore());
    const ref = await Reference.create();
    const cfg = genesisOf(accounts, 1000n);
    core.genesis(cfg);
    ref.genesis(cfg);
    const same = (c: { writes: Write[] }, r: { writes: Array<{ key: Uint8Array; value: Uint8Array | null }> }) =>
      expect(r.writes.map((w) => [hex(w.key), w.value && hex(w.value)])).toEqual(c.writes.map((w) => [hex(w.key), w.value && hex(w.value)]));
    same(core.commitBlock(), ref.commitBlock());
    const blocks = [
      [send(accounts[1]!, 77, 5n)],
      [send(accounts[2]!, 78, 5n), send(accounts[9]!, accounts[10]!, 7n)],
      // empty eight of them (a zero balance's record is deleted): the bucket is one record again
      accounts.slice(0, accounts.length - BUCKET_SLICE_ABOVE).map((i) => (i === accounts[1] || i === accounts[2] ? send(i, 5, 995n, 1n) : send(i, 5, 1000n))),
    ];
    for (const [n, bundles] of blocks.entries()) {
      const height = BigInt(n + 1);
      core.applyBlock(ctx(height), bundles);
      ref.applyBlock(ctx(height), bundles);
      same(core.commitBlock(), ref.commitBlock());
    }
    expect(core.get(bucketKey(bucket))!.length).toBe(64 * BUCKET_SLICE_ABOVE);
  });
});
