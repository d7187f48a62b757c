// NFT and multi-token collections in the core (spec §4.3, §4.4; docs/collections.md): the collection
// address, the record bytes of 0x20–0x24, owner counts and balances, the events' bytes, every
// failure status, gas per operation, whole-bundle revert of a failing batch, and the decoder's
// refusal of malformed Borsh. Operations are encoded here by hand (raw discriminants and fields),
// and events are read from the core's raw BlockResult bytes, independent of the host's decoders.
import { describe, expect, it } from 'vitest';
import { blake3 } from '@noble/hashes/blake3.js';
import { concatBytes as cat } from '@noble/hashes/utils.js';
import { Core, blockInputSize, writeBlockInput, type BlockContext, type BundleInput } from '../../src/core/core.js';
import { accountKey, decodeAccount } from '../../src/core/records.js';
import { Status } from '../../src/core/status.js';
import { encodeBundle, addr, hex, W, type Op } from '../../testkit/encode.js';
import { MapStore, genesisConfig } from './harness.js';

const TS = 1_700_000_100n;
const ZERO = new Uint8Array(32);
const utf8 = (s: string) => new TextEncoder().encode(s);
const ctx = (over: Partial<BlockContext> = {}): BlockContext => ({
  height: 1n, timestamp: TS, proposer: addr(500), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 100_000_000n, ...over,
});
const bundle = (user: Uint8Array, nonce: bigint, ops: Op[], maxGas = 1_000_000n): BundleInput => ({
  bytes: encodeBundle({ user, ops, nonce, maxGas, maxPriorityFee: 0n, validUntil: TS + 60n }), auth: 0,
});
const raw = (disc: number, f: (w: W) => void): Op => {
  const w = new W();
  f(w);
  return { kind: 'raw', disc, bytes: w.bytes() };
};
const u16 = (w: W, v: number) => {
  w.u8(v & 0xff);
  w.u8(v >> 8);
};
const be64 = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, false);
  return b;
};
const le = (v: bigint, n: number) => {
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = Number((v >> BigInt(8 * i)) & 0xffn);
  return b;
};

// ---- operations (docs/collections.md "Operations") ----
interface CollectionFields {
  name: string | Uint8Array; symbol: string; baseUri: string; maxSupply: bigint; royalty: number; owner: Uint8Array;
  description: string; icon: string; banner: string; external: string | Uint8Array;
}
const fields = (over: Partial<CollectionFields>): CollectionFields => ({
  name: 'Cats', symbol: 'CAT', baseUri: 'ipfs://cats/', maxSupply: 0n, royalty: 250, owner: addr(1),
  description: 'cats', icon: 'ipfs://icon', banner: '', external: 'https://cats.example', ...over,
});
const createNft = (over: Partial<CollectionFields> = {}): Op => {
  const c = fields(over);
  return raw(37, (w) => {
    w.str(c.name); w.str(c.symbol); w.str(c.baseUri); w.u64(c.maxSupply); u16(w, c.royalty); w.raw(c.owner);
    w.str(c.description); w.str(c.icon); w.str(c.banner); w.str(c.external);
  });
};
const createMulti = (over: Partial<CollectionFields> = {}): Op => {
  const c = fields({ name: 'Items', symbol: 'ITEM', ...over });
  return raw(41, (w) => {
    w.str(c.name); w.str(c.symbol); w.str(c.baseUri); u16(w, c.royalty); w.raw(c.owner);
    w.str(c.description); w.str(c.icon); w.str(c.banner); w.str(c.external);
  });
};
const mintNft = (col: Uint8Array, id: bigint, to: Uint8Array, uri: string | Uint8Array = 'ipfs://t'): Op =>
  raw(38, (w) => { w.raw(col); w.u64(id); w.str(uri); w.raw(to); });
const transferNft = (col: Uint8Array, id: bigint, to: Uint8Array): Op => raw(39, (w) => { w.raw(col); w.u64(id); w.raw(to); });
const burnNft = (col: Uint8Array, id: bigint): Op => raw(40, (w) => { w.raw(col); w.u64(id); });
const defineType = (col: Uint8Array, id: bigint, maxSupply: bigint, fungible: boolean, name: string | Uint8Array = 'Gold', uri: string | Uint8Array = 'ipfs://gold'): Op =>
  raw(42, (w) => { w.raw(col); w.u64(id); w.str(name); w.str(uri); w.u128(maxSupply); w.u8(fungible ? 1 : 0); });
const mintMulti = (col: Uint8Array, id: bigint, to: Uint8Array, amount: bigint): Op => raw(43, (w) => { w.raw(col); w.u64(id); w.raw(to); w.u128(amount); });
const transferMulti = (col: Uint8Array, id: bigint, to: Uint8Array, amount: bigint): Op => raw(44, (w) => { w.raw(col); w.u64(id); w.raw(to); w.u128(amount); });
const burnMulti = (col: Uint8Array, id: bigint, amount: bigint): Op => raw(45, (w) => { w.raw(col); w.u64(id); w.u128(amount); });
type Entry = [bigint, bigint];
const batch = (disc: 46 | 47, col: Uint8Array, to: Uint8Array, entries: Entry[]): Op =>
  raw(disc, (w) => { w.raw(col); w.raw(to); w.u32(entries.length); for (const [id, a] of entries) { w.u64(id); w.u128(a); } });
const batchMint = (col: Uint8Array, to: Uint8Array, entries: Entry[]) => batch(46, col, to, entries);
const batchTransfer = (col: Uint8Array, to: Uint8Array, entries: Entry[]) => batch(47, col, to, entries);

/** The address rule of docs/collections.md, computed with @noble/hashes. */
const collectionAddress = (creator: Uint8Array, nonce: bigint, opIndex: number) =>
  blake3(cat(utf8('ntv/collection'), creator, le(nonce, 8), le(BigInt(opIndex), 2)));

// ---- keys and records (docs/collections.md "State layout") ----
const colKey = (c: Uint8Array) => cat(Uint8Array.of(0x20), c);
const nftKey = (c: Uint8Array, id: bigint) => cat(Uint8Array.of(0x21), c, be64(id));
const countKey = (c: Uint8Array, o: Uint8Array) => cat(Uint8Array.of(0x22), c, o);
const typeKey = (c: Uint8Array, id: bigint) => cat(Uint8Array.of(0x23), c, be64(id));
const balKey = (c: Uint8Array, id: bigint, o: Uint8Array) => cat(Uint8Array.of(0x24), c, be64(id), o);
const rdU64 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getBigUint64(o, true);
const rdU128 = (b: Uint8Array, o: number) => rdU64(b, o) | (rdU64(b, o + 8) << 64n);

// ---- the raw BlockResult (docs/core-abi.md "Input and output layouts") ----
interface RawEvent { bundle: number; op: number; kind: number; data: Uint8Array }
interface RawResult { status: number; gasUsed: bigint }
function applyRaw(core: Core, c: BlockContext, bundles: BundleInput[]): { results: RawResult[]; events: RawEvent[] } {
  const x = core.exports;
  const size = blockInputSize(bundles);
  const ptr = x.input(size);
  writeBlockInput(c, bundles, new Uint8Array(x.memory.buffer), new DataView(x.memory.buffer), ptr);
  expect(x.apply_block(size)).toBe(Status.OK);
  const b = new Uint8Array(x.memory.buffer, x.output_ptr(), x.output_len()).slice();
  const dv = new DataView(b.buffer);
  const n = dv.getUint32(24, true);
  let o = 28;
  const results: RawResult[] = [];
  for (let i = 0; i < n; i++, o += 34) results.push({ status: dv.getUint16(o, true), gasUsed: dv.getBigUint64(o + 2, true) });
  const ne = dv.getUint32(o, true);
  o += 4;
  const events: RawEvent[] = [];
  for (let i = 0; i < ne; i++) {
    const len = dv.getUint32(o + 7, true);
    events.push({ bundle: dv.getUint32(o, true), op: dv.getUint16(o + 4, true), kind: b[o + 6]!, data: b.subarray(o + 11, o + 11 + len) });
    o += 11 + len;
  }
  return { results, events };
}
const nftTransfer = (e: RawEvent) => {
  expect(e.kind).toBe(11);
  expect(e.data.length).toBe(104);
  return { collection: hex(e.data.subarray(0, 32)), from: hex(e.data.subarray(32, 64)), to: hex(e.data.subarray(64, 96)), id: rdU64(e.data, 96) };
};
const multiTransfer = (e: RawEvent) => {
  const d = e.data;
  const head = { collection: hex(d.subarray(0, 32)), operator: hex(d.subarray(32, 64)), from: hex(d.subarray(64, 96)), to: hex(d.subarray(96, 128)) };
  if (e.kind === 13) {
    expect(d.length).toBe(152);
    return { ...head, entries: [[rdU64(d, 128), rdU128(d, 136)]] };
  }
  expect(e.kind).toBe(14);
  const count = new DataView(d.buffer, d.byteOffset).getUint32(128, true);
  expect(d.length).toBe(132 + 24 * count);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) entries.push([rdU64(d, 132 + 24 * i), rdU128(d, 140 + 24 * i)]);
  return { ...head, entries };
};

async function setup() {
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesisConfig(10));
  store.apply(core.commitBlock().writes);
  let height = 1n;
  const nonces = new Map<string, bigint>();
  /** One block; bundles given as [user, ops, maxGas?]; nonces tracked for OK bundles. */
  const block = (...bs: Array<[Uint8Array, Op[], bigint?]>) => {
    const inputs = bs.map(([u, ops, gas]) => bundle(u, nonces.get(hex(u)) ?? 0n, ops, gas));
    const r = applyRaw(core, ctx({ height }), inputs);
    const commit = core.commitBlock();
    store.apply(commit.writes);
    // the account's nonce as stored: a success moves it, and so does a 17th failure at one nonce
    for (const [u] of bs) {
      const rec = store.get(accountKey(u));
      nonces.set(hex(u), rec ? decodeAccount(rec).nonce : 0n);
    }
    height++;
    return { ...r, writes: commit.writes };
  };
  const nonceOf = (u: Uint8Array) => nonces.get(hex(u)) ?? 0n;
  /** Create a collection with the user's next nonce as op 0 and return its address. */
  const create = (user: Uint8Array, op: Op) => {
    const address = collectionAddress(user, nonceOf(user), 0);
    expect(block([user, [op]]).results[0]!.status).toBe(Status.OK);
    return address;
  };
  const statusOf = (user: Uint8Array, ops: Op[], gas?: bigint) => block([user, ops, gas]).results[0]!.status;
  return { core, store, block, create, statusOf, nonceOf };
}

const A = addr(1);
const B = addr(2);
const C = addr(3);

describe('NFT collections (disc. 37–40)', () => {
  it('creates a collection at Blake3("ntv/collection" ‖ creator ‖ nonce ‖ op_index) with the documented record and event', async () => {
    const { block, store, nonceOf } = await setup();
    block([A, [{ kind: 'transfer', to: B, token: ZERO, amount: 1n }]]); // nonce 1 next
    const n = nonceOf(A);
    expect(n).toBe(1n);
    const owner = addr(7);
    const r = block([A, [
      createNft({ owner, maxSupply: 1000n, royalty: 500 }),
      createMulti({ owner: A, royalty: 0, banner: 'ipfs://banner' }),
    ]]);
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + 60_000n + 60_000n });
    const c0 = collectionAddress(A, n, 0);
    const c1 = collectionAddress(A, n, 1);
    expect(hex(c0)).not.toBe(hex(c1));
    // record bytes: version, kind, owner, creator, royalty u16, max_supply, minted, burned, height, time, 7 strings
    const rec = (kind: number, own: Uint8Array, royalty: number, max: bigint, strs: string[]) => {
      const w = new W();
      w.u8(1); w.u8(kind); w.raw(own); w.raw(A); u16(w, royalty); w.u64(max); w.u64(0n); w.u64(0n); w.u64(2n); w.u64(TS);
      for (const s of strs) w.str(s);
      return hex(w.bytes());
    };
    expect(hex(store.get(colKey(c0))!)).toBe(rec(0, owner, 500, 1000n, ['Cats', 'CAT', 'ipfs://cats/', 'cats', 'ipfs://icon', '', 'https://cats.example']));
    expect(hex(store.get(colKey(c1))!)).toBe(rec(1, A, 0, 0n, ['Items', 'ITEM', 'ipfs://cats/', 'cats', 'ipfs://icon', 'ipfs://banner', 'https://cats.example']));
    // CollectionCreated: collection, kind, owner, creator
    expect(r.events.map((e) => [e.bundle, e.op, e.kind, e.data.length])).toEqual([[0, 0, 10, 97], [0, 1, 10, 97]]);
    const d = r.events[0]!.data;
    expect(hex(d.subarray(0, 32))).toBe(hex(c0));
    expect(d[32]).toBe(0);
    expect(hex(d.subarray(33, 65))).toBe(hex(owner));
    expect(hex(d.subarray(65, 97))).toBe(hex(A));
    expect(r.events[1]!.data[32]).toBe(1);
    expect(hex(r.events[1]!.data.subarray(0, 32))).toBe(hex(c1));
  });

  it('mints, transfers and burns with 0x21 records, 0x22 owner counts and NftTransfer events', async () => {
    const { block, create, store } = await setup();
    const col = create(A, createNft({ owner: A }));
    const m = block([A, [mintNft(col, 1n, B, 'ipfs://one'), mintNft(col, 2n, B), mintNft(col, 2n ** 64n - 1n, C)]]);
    expect(m.results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + 3n * 30_000n });
    const nftRec = (owner: Uint8Array, height: bigint, uri: string) => {
      const w = new W();
      w.u8(1); w.raw(owner); w.u64(height); w.u64(TS); w.str(uri);
      return hex(w.bytes());
    };
    expect(hex(store.get(nftKey(col, 1n))!)).toBe(nftRec(B, 2n, 'ipfs://one'));
    expect(store.get(nftKey(col, 2n ** 64n - 1n))).toBeDefined();
    expect(rdU64(store.get(countKey(col, B))!, 0)).toBe(2n);
    expect(store.get(countKey(col, B))!.length).toBe(8);
    expect(rdU64(store.get(countKey(col, C))!, 0)).toBe(1n);
    expect(m.events.map(nftTransfer)).toEqual([
      { collection: hex(col), from: hex(ZERO), to: hex(B), id: 1n },
      { collection: hex(col), from: hex(ZERO), to: hex(B), id: 2n },
      { collection: hex(col), from: hex(ZERO), to: hex(C), id: 2n ** 64n - 1n },
    ]);
    expect(m.events.map((e) => e.op)).toEqual([0, 1, 2]);

    const t = block([B, [transferNft(col, 1n, C)]]);
    expect(t.results[0]).toEqual({ status: Status.OK, gasUsed: 30_000n });
    expect(t.events.map(nftTransfer)).toEqual([{ collection: hex(col), from: hex(B), to: hex(C), id: 1n }]);
    expect(hex(store.get(nftKey(col, 1n))!)).toBe(nftRec(C, 2n, 'ipfs://one')); // only the owner changes
    expect(rdU64(store.get(countKey(col, B))!, 0)).toBe(1n);
    expect(rdU64(store.get(countKey(col, C))!, 0)).toBe(2n);

    // to oneself: success, an event, no write to the token or the counts
    const self = block([C, [transferNft(col, 1n, C)]]);
    expect(self.results[0]!.status).toBe(Status.OK);
    expect(self.events.map(nftTransfer)).toEqual([{ collection: hex(col), from: hex(C), to: hex(C), id: 1n }]);
    expect(self.writes.filter((w) => w.key[0]! >= 0x20 && w.key[0]! <= 0x24)).toEqual([]);

    const b = block([B, [burnNft(col, 2n)]]);
    expect(b.results[0]).toEqual({ status: Status.OK, gasUsed: 30_000n });
    expect(b.events.map(nftTransfer)).toEqual([{ collection: hex(col), from: hex(B), to: hex(ZERO), id: 2n }]);
    expect(store.get(nftKey(col, 2n))).toBeUndefined();
    expect(store.get(countKey(col, B))).toBeUndefined(); // deleted at zero
    const c = store.get(colKey(col))!;
    expect([rdU64(c, 76), rdU64(c, 84)]).toEqual([3n, 1n]); // minted, burned

    // a burned id can be minted again
    const again = block([A, [mintNft(col, 2n, A)]]);
    expect(again.results[0]!.status).toBe(Status.OK);
    expect(hex(store.get(nftKey(col, 2n))!.subarray(1, 33))).toBe(hex(A));
    expect(rdU64(store.get(colKey(col))!, 76)).toBe(4n);
  });

  it('lets only the owner (not the creator) mint, and only the holder transfer or burn', async () => {
    const { create, statusOf } = await setup();
    const col = create(A, createNft({ owner: B }));
    expect(statusOf(A, [mintNft(col, 1n, A)])).toBe(Status.NOT_COLLECTION_OWNER);
    expect(statusOf(B, [mintNft(col, 1n, C)])).toBe(Status.OK);
    expect(statusOf(B, [mintNft(col, 1n, B)])).toBe(Status.NFT_EXISTS);
    expect(statusOf(B, [transferNft(col, 1n, B)])).toBe(Status.NOT_NFT_OWNER);
    expect(statusOf(B, [burnNft(col, 1n)])).toBe(Status.NOT_NFT_OWNER);
    expect(statusOf(C, [transferNft(col, 9n, B)])).toBe(Status.NFT_NOT_FOUND);
    expect(statusOf(C, [burnNft(col, 9n)])).toBe(Status.NFT_NOT_FOUND);
    expect(statusOf(C, [burnNft(col, 1n)])).toBe(Status.OK);
    expect(statusOf(C, [burnNft(col, 1n)])).toBe(Status.NFT_NOT_FOUND);
    expect(statusOf(C, [transferNft(col, 1n, A)])).toBe(Status.NFT_NOT_FOUND);
    const nowhere = addr(999);
    expect(statusOf(B, [mintNft(nowhere, 1n, B)])).toBe(Status.COLLECTION_NOT_FOUND);
    expect(statusOf(B, [transferNft(nowhere, 1n, B)])).toBe(Status.COLLECTION_NOT_FOUND);
    expect(statusOf(B, [burnNft(nowhere, 1n)])).toBe(Status.COLLECTION_NOT_FOUND);
  });

  it('refuses the zero address as a recipient, which marks mints and burns in the events (ZERO_RECIPIENT)', async () => {
    const { create, statusOf } = await setup();
    const nft = create(A, createNft({ owner: A }));
    expect(statusOf(A, [mintNft(nft, 1n, ZERO)])).toBe(Status.ZERO_RECIPIENT);
    expect(statusOf(A, [mintNft(nft, 1n, A)])).toBe(Status.OK);
    expect(statusOf(A, [transferNft(nft, 1n, ZERO)])).toBe(Status.ZERO_RECIPIENT);
    // checked with the operation's own fields, before the collection is looked up
    expect(statusOf(A, [transferNft(addr(999), 1n, ZERO)])).toBe(Status.ZERO_RECIPIENT);
    const multi = create(A, createMulti({ owner: A }));
    expect(statusOf(A, [defineType(multi, 1n, 0n, true), mintMulti(multi, 1n, A, 10n)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(multi, 1n, ZERO, 1n)])).toBe(Status.ZERO_RECIPIENT);
    expect(statusOf(A, [transferMulti(multi, 1n, ZERO, 1n)])).toBe(Status.ZERO_RECIPIENT);
    expect(statusOf(A, [batchMint(multi, ZERO, [[1n, 1n]])])).toBe(Status.ZERO_RECIPIENT);
    expect(statusOf(A, [batchTransfer(multi, ZERO, [[1n, 1n]])])).toBe(Status.ZERO_RECIPIENT);
    expect(statusOf(A, [burnMulti(multi, 1n, 1n)])).toBe(Status.OK);
  });

  it('caps the number ever minted at max_supply; a burn does not give the slot back', async () => {
    const { create, statusOf } = await setup();
    const col = create(A, createNft({ owner: A, maxSupply: 2n }));
    expect(statusOf(A, [mintNft(col, 1n, A), mintNft(col, 2n, A)])).toBe(Status.OK);
    expect(statusOf(A, [mintNft(col, 3n, A)])).toBe(Status.MAX_SUPPLY_REACHED);
    expect(statusOf(A, [burnNft(col, 1n)])).toBe(Status.OK);
    expect(statusOf(A, [mintNft(col, 1n, A)])).toBe(Status.MAX_SUPPLY_REACHED);
  });

  it('checks the collection fields: lengths, symbol characters, royalty ≤ 10,000', async () => {
    const { statusOf } = await setup();
    const bad: Array<[Partial<CollectionFields>, number]> = [
      [{ name: '' }, Status.INVALID_COLLECTION_FIELD],
      [{ name: 'n'.repeat(65) }, Status.INVALID_COLLECTION_FIELD],
      [{ symbol: '' }, Status.INVALID_COLLECTION_FIELD],
      [{ symbol: 'S'.repeat(17) }, Status.INVALID_COLLECTION_FIELD],
      [{ symbol: 'CA-T' }, Status.INVALID_COLLECTION_FIELD],
      [{ symbol: 'CAT ' }, Status.INVALID_COLLECTION_FIELD],
      [{ baseUri: 'u'.repeat(257) }, Status.INVALID_COLLECTION_FIELD],
      [{ description: 'd'.repeat(1025) }, Status.INVALID_COLLECTION_FIELD],
      [{ icon: 'i'.repeat(257) }, Status.INVALID_COLLECTION_FIELD],
      [{ banner: 'b'.repeat(257) }, Status.INVALID_COLLECTION_FIELD],
      [{ external: 'e'.repeat(257) }, Status.INVALID_COLLECTION_FIELD],
      [{ royalty: 10_001 }, Status.INVALID_ROYALTY],
      [{ royalty: 65_535 }, Status.INVALID_ROYALTY],
    ];
    for (const [over, st] of bad) {
      expect(statusOf(A, [createNft(over)]), JSON.stringify(over).slice(0, 40)).toBe(st);
      expect(statusOf(A, [createMulti(over)]), JSON.stringify(over).slice(0, 40)).toBe(st);
    }
    const edge: Partial<CollectionFields> = {
      name: 'é'.repeat(32), symbol: 'aZ09'.repeat(4), baseUri: 'u'.repeat(256), royalty: 10_000, description: 'd'.repeat(1024),
      icon: 'i'.repeat(256), banner: 'b'.repeat(256), external: 'e'.repeat(256),
    };
    expect(statusOf(A, [createNft(edge)])).toBe(Status.OK);
    expect(statusOf(A, [createMulti({ ...edge, baseUri: '', description: '', icon: '', banner: '', external: '' })])).toBe(Status.OK);
  });

  it('refuses a mint uri over 256 bytes and operations on the other kind (WRONG_COLLECTION_KIND)', async () => {
    const { create, statusOf } = await setup();
    const nft = create(A, createNft({ owner: A }));
    const multi = create(A, createMulti({ owner: A }));
    expect(statusOf(A, [mintNft(nft, 1n, A, 'u'.repeat(257))])).toBe(Status.INVALID_COLLECTION_FIELD);
    expect(statusOf(A, [mintNft(nft, 1n, A, 'u'.repeat(256))])).toBe(Status.OK);
    expect(statusOf(A, [mintNft(multi, 1n, A)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [transferNft(multi, 1n, B)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [burnNft(multi, 1n)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [defineType(nft, 1n, 0n, true)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [mintMulti(nft, 1n, A, 1n)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [transferMulti(nft, 1n, B, 1n)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [burnMulti(nft, 1n, 1n)])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [batchMint(nft, A, [[1n, 1n]])])).toBe(Status.WRONG_COLLECTION_KIND);
    expect(statusOf(A, [batchTransfer(nft, B, [[1n, 1n]])])).toBe(Status.WRONG_COLLECTION_KIND);
    const nowhere = addr(999);
    for (const op of [defineType(nowhere, 1n, 0n, true), mintMulti(nowhere, 1n, A, 1n), transferMulti(nowhere, 1n, B, 1n), burnMulti(nowhere, 1n, 1n), batchMint(nowhere, A, [[1n, 1n]]), batchTransfer(nowhere, B, [[1n, 1n]])]) {
      expect(statusOf(A, [op])).toBe(Status.COLLECTION_NOT_FOUND);
    }
  });
});

describe('Multi-token collections (disc. 41–47)', () => {
  it('defines types with the documented record and TokenTypeDefined, counting types in the collection record', async () => {
    const { block, create, store, statusOf } = await setup();
    const col = create(A, createMulti({ owner: B }));
    expect(statusOf(A, [defineType(col, 1n, 0n, true)])).toBe(Status.NOT_COLLECTION_OWNER);
    const r = block([B, [defineType(col, 7n, 10n ** 30n, true, 'Gold', 'ipfs://g'), defineType(col, 8n, 0n, false, 'Sword', '')]]);
    expect(r.results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + 2n * 40_000n });
    const typeRec = (fungible: number, max: bigint, name: string, uri: string) => {
      const w = new W();
      w.u8(1); w.u8(fungible); w.u128(max); w.u128(0n); w.u128(0n); w.u64(3n); w.str(name); w.str(uri);
      return hex(w.bytes());
    };
    expect(hex(store.get(typeKey(col, 7n))!)).toBe(typeRec(1, 10n ** 30n, 'Gold', 'ipfs://g'));
    expect(hex(store.get(typeKey(col, 8n))!)).toBe(typeRec(0, 1n, 'Sword', '')); // non-fungible: stored as 1
    expect(rdU64(store.get(colKey(col))!, 76)).toBe(2n); // types defined
    const ev = r.events.map((e) => ({ kind: e.kind, len: e.data.length, col: hex(e.data.subarray(0, 32)), id: rdU64(e.data, 32), max: rdU128(e.data, 40), f: e.data[56] }));
    expect(ev).toEqual([
      { kind: 12, len: 57, col: hex(col), id: 7n, max: 10n ** 30n, f: 1 },
      { kind: 12, len: 57, col: hex(col), id: 8n, max: 1n, f: 0 },
    ]);
    expect(statusOf(B, [defineType(col, 7n, 0n, true)])).toBe(Status.TOKEN_TYPE_EXISTS);
    expect(statusOf(B, [defineType(col, 9n, 2n, false)])).toBe(Status.NON_FUNGIBLE_SUPPLY);
    expect(statusOf(B, [defineType(col, 9n, 1n << 64n, false)])).toBe(Status.NON_FUNGIBLE_SUPPLY);
    expect(statusOf(B, [defineType(col, 9n, 1n, false)])).toBe(Status.OK);
    expect(statusOf(B, [defineType(col, 10n, 0n, true, '')])).toBe(Status.INVALID_COLLECTION_FIELD);
    expect(statusOf(B, [defineType(col, 10n, 0n, true, 'n'.repeat(65))])).toBe(Status.INVALID_COLLECTION_FIELD);
    expect(statusOf(B, [defineType(col, 10n, 0n, true, 'n', 'u'.repeat(257))])).toBe(Status.INVALID_COLLECTION_FIELD);
    expect(statusOf(B, [defineType(col, 10n, 0n, true, 'n'.repeat(64), 'u'.repeat(256))])).toBe(Status.OK);
  });

  it('mints, transfers and burns with 0x24 balances (deleted at zero), supply counters and MultiTransferSingle events', async () => {
    const { block, create, store, statusOf } = await setup();
    const col = create(A, createMulti({ owner: A }));
    expect(statusOf(A, [defineType(col, 1n, 0n, true)])).toBe(Status.OK);
    const m = block([A, [mintMulti(col, 1n, B, 1000n)]]);
    expect(m.results[0]).toEqual({ status: Status.OK, gasUsed: 35_000n });
    expect(m.events.map(multiTransfer)).toEqual([{ collection: hex(col), operator: hex(A), from: hex(ZERO), to: hex(B), entries: [[1n, 1000n]] }]);
    expect(m.events[0]!.kind).toBe(13);
    expect(rdU128(store.get(balKey(col, 1n, B))!, 0)).toBe(1000n);
    expect(store.get(balKey(col, 1n, B))!.length).toBe(16);

    const t = block([B, [transferMulti(col, 1n, C, 400n)]]);
    expect(t.results[0]).toEqual({ status: Status.OK, gasUsed: 30_000n });
    expect(t.events.map(multiTransfer)).toEqual([{ collection: hex(col), operator: hex(B), from: hex(B), to: hex(C), entries: [[1n, 400n]] }]);
    expect(rdU128(store.get(balKey(col, 1n, B))!, 0)).toBe(600n);
    expect(rdU128(store.get(balKey(col, 1n, C))!, 0)).toBe(400n);

    const self = block([C, [transferMulti(col, 1n, C, 400n)]]);
    expect(self.results[0]!.status).toBe(Status.OK);
    expect(self.events.length).toBe(1);
    expect(self.writes.filter((w) => w.key[0] === 0x24)).toEqual([]);
    expect(statusOf(C, [transferMulti(col, 1n, C, 401n)])).toBe(Status.INSUFFICIENT_BALANCE);

    const b = block([C, [burnMulti(col, 1n, 400n)]]);
    expect(b.results[0]).toEqual({ status: Status.OK, gasUsed: 30_000n });
    expect(b.events.map(multiTransfer)).toEqual([{ collection: hex(col), operator: hex(C), from: hex(C), to: hex(ZERO), entries: [[1n, 400n]] }]);
    expect(store.get(balKey(col, 1n, C))).toBeUndefined();
    const tr = store.get(typeKey(col, 1n))!;
    expect([rdU128(tr, 18), rdU128(tr, 34)]).toEqual([1000n, 400n]); // minted, burned
    // transfer of the whole balance deletes the sender's key
    expect(statusOf(B, [transferMulti(col, 1n, A, 600n)])).toBe(Status.OK);
    expect(store.get(balKey(col, 1n, B))).toBeUndefined();
    expect(rdU128(store.get(balKey(col, 1n, A))!, 0)).toBe(600n);

    expect(statusOf(B, [transferMulti(col, 1n, A, 1n)])).toBe(Status.INSUFFICIENT_BALANCE);
    expect(statusOf(B, [burnMulti(col, 1n, 1n)])).toBe(Status.INSUFFICIENT_BALANCE);
    expect(statusOf(A, [mintMulti(col, 1n, A, 0n)])).toBe(Status.ZERO_AMOUNT);
    expect(statusOf(A, [transferMulti(col, 1n, B, 0n)])).toBe(Status.ZERO_AMOUNT);
    expect(statusOf(A, [burnMulti(col, 1n, 0n)])).toBe(Status.ZERO_AMOUNT);
    expect(statusOf(A, [mintMulti(col, 2n, A, 1n)])).toBe(Status.TOKEN_TYPE_NOT_FOUND);
    expect(statusOf(A, [transferMulti(col, 2n, B, 1n)])).toBe(Status.TOKEN_TYPE_NOT_FOUND);
    expect(statusOf(A, [burnMulti(col, 2n, 1n)])).toBe(Status.TOKEN_TYPE_NOT_FOUND);
    expect(statusOf(B, [mintMulti(col, 1n, B, 1n)])).toBe(Status.NOT_COLLECTION_OWNER);
    expect(statusOf(B, [batchMint(col, B, [[1n, 1n]])])).toBe(Status.NOT_COLLECTION_OWNER);
  });

  it('applies the supply rules: a type max_supply caps the amount ever minted; a non-fungible type moves one unit', async () => {
    const { create, statusOf, store } = await setup();
    const col = create(A, createMulti({ owner: A }));
    expect(statusOf(A, [defineType(col, 1n, 100n, true), defineType(col, 2n, 0n, false)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(col, 1n, A, 60n)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(col, 1n, A, 41n)])).toBe(Status.MAX_SUPPLY_REACHED);
    expect(statusOf(A, [burnMulti(col, 1n, 60n)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(col, 1n, A, 41n)])).toBe(Status.MAX_SUPPLY_REACHED);
    expect(statusOf(A, [mintMulti(col, 1n, A, 40n)])).toBe(Status.OK);

    expect(statusOf(A, [mintMulti(col, 2n, B, 2n)])).toBe(Status.NON_FUNGIBLE_SUPPLY);
    expect(statusOf(A, [mintMulti(col, 2n, B, 1n)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(col, 2n, B, 1n)])).toBe(Status.MAX_SUPPLY_REACHED);
    expect(statusOf(B, [transferMulti(col, 2n, C, 2n)])).toBe(Status.NON_FUNGIBLE_SUPPLY);
    expect(statusOf(B, [burnMulti(col, 2n, 2n)])).toBe(Status.NON_FUNGIBLE_SUPPLY);
    expect(statusOf(B, [transferMulti(col, 2n, C, 1n)])).toBe(Status.OK);
    expect(rdU128(store.get(balKey(col, 2n, C))!, 0)).toBe(1n);
    expect(statusOf(C, [burnMulti(col, 2n, 1n)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(col, 2n, A, 1n)])).toBe(Status.MAX_SUPPLY_REACHED); // ever minted

    // an unlimited fungible type stops at the u128 range
    expect(statusOf(A, [defineType(col, 3n, 0n, true)])).toBe(Status.OK);
    const max = (1n << 128n) - 1n;
    expect(statusOf(A, [mintMulti(col, 3n, A, max)])).toBe(Status.OK);
    expect(statusOf(A, [mintMulti(col, 3n, B, 1n)])).toBe(Status.AMOUNT_OVERFLOW);
  });

  it('batch-mints and batch-transfers in order, a type more than once, with one MultiTransferBatch event and 15,000 + 5,000 per entry gas', async () => {
    const { block, create, store } = await setup();
    const col = create(A, createMulti({ owner: A }));
    block([A, [defineType(col, 1n, 0n, true), defineType(col, 2n, 0n, true), defineType(col, 3n, 0n, false)]]);
    const m = block([A, [batchMint(col, B, [[1n, 10n], [2n, 20n], [1n, 5n], [3n, 1n]])]]);
    expect(m.results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + 15_000n + 4n * 5_000n });
    expect(m.events.map(multiTransfer)).toEqual([
      { collection: hex(col), operator: hex(A), from: hex(ZERO), to: hex(B), entries: [[1n, 10n], [2n, 20n], [1n, 5n], [3n, 1n]] },
    ]);
    expect(m.events[0]!.kind).toBe(14);
    expect(rdU128(store.get(balKey(col, 1n, B))!, 0)).toBe(15n);
    expect(rdU128(store.get(balKey(col, 2n, B))!, 0)).toBe(20n);
    expect(rdU128(store.get(typeKey(col, 1n))!, 18)).toBe(15n);

    const t = block([B, [batchTransfer(col, C, [[1n, 15n], [2n, 5n], [3n, 1n]])]]);
    expect(t.results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + 15_000n + 3n * 5_000n });
    expect(t.events.map(multiTransfer)).toEqual([
      { collection: hex(col), operator: hex(B), from: hex(B), to: hex(C), entries: [[1n, 15n], [2n, 5n], [3n, 1n]] },
    ]);
    expect(store.get(balKey(col, 1n, B))).toBeUndefined();
    expect(store.get(balKey(col, 3n, B))).toBeUndefined();
    expect(rdU128(store.get(balKey(col, 2n, B))!, 0)).toBe(15n);
    expect(rdU128(store.get(balKey(col, 1n, C))!, 0)).toBe(15n);
    expect(rdU128(store.get(balKey(col, 3n, C))!, 0)).toBe(1n);

    // 16 entries: the largest batch, 95,000 gas
    const sixteen = Array.from({ length: 16 }, (): Entry => [2n, 1n]);
    const s = block([A, [batchMint(col, A, sixteen)]]);
    expect(s.results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + 95_000n });
    expect(rdU128(store.get(balKey(col, 2n, A))!, 0)).toBe(16n);
  });

  it('refuses batches of 0 and 17 entries (INVALID_BATCH) and bad entries; a failing entry reverts the whole bundle with no writes', async () => {
    const { block, create, store, statusOf, core } = await setup();
    const col = create(A, createMulti({ owner: A }));
    block([A, [defineType(col, 1n, 0n, true), defineType(col, 2n, 10n, true), mintMulti(col, 1n, A, 100n)]]);
    const seventeen = Array.from({ length: 17 }, (): Entry => [1n, 1n]);
    expect(statusOf(A, [batchMint(col, A, [])])).toBe(Status.INVALID_BATCH);
    expect(statusOf(A, [batchTransfer(col, B, [])])).toBe(Status.INVALID_BATCH);
    expect(statusOf(A, [batchMint(col, A, seventeen)])).toBe(Status.INVALID_BATCH);
    expect(statusOf(A, [batchTransfer(col, B, seventeen)])).toBe(Status.INVALID_BATCH);
    expect(statusOf(A, [batchTransfer(col, B, [[1n, 50n], [1n, 51n]])])).toBe(Status.INSUFFICIENT_BALANCE); // cumulative
    expect(statusOf(A, [batchTransfer(col, B, [[1n, 1n], [9n, 1n]])])).toBe(Status.TOKEN_TYPE_NOT_FOUND);
    expect(statusOf(A, [batchMint(col, A, [[2n, 5n], [2n, 6n]])])).toBe(Status.MAX_SUPPLY_REACHED);
    expect(statusOf(A, [batchMint(col, A, [[1n, 1n], [2n, 0n]])])).toBe(Status.ZERO_AMOUNT);

    const before = hex(core.stateRoot());
    const r = block([A, [
      mintMulti(col, 1n, B, 5n),
      batchMint(col, C, [[1n, 1n], [2n, 3n]]),
      batchTransfer(col, B, [[1n, 10n], [2n, 1n]]), // A holds no type 2
    ]]);
    // reverted whole but for its gas (at gas price 0 here, so no Fee event) and its listed hash
    expect(r.results[0]).toEqual({ status: Status.INSUFFICIENT_BALANCE, gasUsed: 85_000n });
    expect(r.events).toEqual([]);
    expect(r.writes.filter((w) => w.key[0]! < 0xf0).map((w) => w.key[0])).toEqual([0x01]);
    expect(hex(core.stateRoot())).not.toBe(before);
    expect(store.get(balKey(col, 1n, B))).toBeUndefined();
    expect(store.get(balKey(col, 1n, C))).toBeUndefined();
    expect(rdU128(store.get(balKey(col, 1n, A))!, 0)).toBe(100n);
    expect(rdU128(store.get(typeKey(col, 1n))!, 18)).toBe(100n);
    // the nonce did not move: the same nonce works next
    const nonceBefore = store.get(accountKey(A));
    expect(statusOf(A, [mintMulti(col, 1n, B, 5n)])).toBe(Status.OK);
    expect(hex(store.get(accountKey(A))!)).not.toBe(hex(nonceBefore!));
  });

  it('reverts a failed NFT operation with everything before it in the bundle', async () => {
    const { block, create, store } = await setup();
    const col = create(A, createNft({ owner: A }));
    const nextCol = collectionAddress(A, 1n, 0);
    const r = block([A, [createNft({ owner: A }), mintNft(col, 1n, B), mintNft(col, 1n, C)]]);
    expect(r.results[0]!.status).toBe(Status.NFT_EXISTS);
    expect(r.writes.filter((w) => w.key[0]! < 0xf0).map((w) => w.key[0])).toEqual([0x01]); // the failed hash only
    expect(store.get(colKey(nextCol))).toBeUndefined();
    expect(store.get(nftKey(col, 1n))).toBeUndefined();
    expect(store.get(countKey(col, B))).toBeUndefined();
  });

  it('charges the documented gas per operation kind and fails OUT_OF_GAS one below', async () => {
    const { block, create } = await setup();
    const nft = create(A, createNft({ owner: A }));
    const multi = create(A, createMulti({ owner: A }));
    block([A, [defineType(multi, 1n, 0n, true), mintMulti(multi, 1n, A, 100n), mintNft(nft, 1n, A), mintNft(nft, 2n, A)]]);
    const cases: Array<[Op, bigint]> = [
      [createNft(), 60_000n],
      [createMulti(), 60_000n],
      [defineType(multi, 2n, 0n, true), 40_000n],
      [mintNft(nft, 3n, A), 30_000n],
      [mintMulti(multi, 1n, A, 1n), 30_000n],
      [transferNft(nft, 1n, B), 25_000n],
      [burnNft(nft, 2n), 25_000n],
      [transferMulti(multi, 1n, B, 1n), 25_000n],
      [burnMulti(multi, 1n, 1n), 25_000n],
      [batchMint(multi, A, [[1n, 1n]]), 20_000n],
      [batchTransfer(multi, B, [[1n, 1n], [1n, 1n], [1n, 1n]]), 30_000n],
    ];
    for (const [op, gas] of cases) {
      expect(block([A, [op], 5_000n + gas - 1n]).results[0]!.status).toBe(Status.OUT_OF_GAS);
      expect(block([A, [op], 5_000n + gas]).results[0]).toEqual({ status: Status.OK, gasUsed: 5_000n + gas });
    }
  });
});

describe('Decoding of operations 37–47', () => {
  const bytesOf = (op: Op) => (op as { bytes: Uint8Array }).bytes;
  const withBytes = (op: Op, bytes: Uint8Array): Op => ({ kind: 'raw', disc: (op as { disc: number }).disc, bytes });
  const col = addr(77);
  const all: Op[] = [
    createNft(), mintNft(col, 1n, A), transferNft(col, 1n, B), burnNft(col, 1n), createMulti(), defineType(col, 1n, 0n, true),
    mintMulti(col, 1n, A, 1n), transferMulti(col, 1n, B, 1n), burnMulti(col, 1n, 1n), batchMint(col, A, [[1n, 1n]]), batchTransfer(col, B, [[1n, 1n]]),
  ];

  it('refuses truncated fields and trailing bytes as MALFORMED_BUNDLE for every operation', async () => {
    const { block } = await setup();
    for (const op of all) {
      const b = bytesOf(op);
      const short = withBytes(op, b.subarray(0, b.length - 1));
      const empty = withBytes(op, new Uint8Array(0));
      const long = withBytes(op, cat(b, Uint8Array.of(0)));
      const r = block([A, [short]], [B, [empty]], [C, [long]]);
      expect(r.results.map((x) => x.status), `disc ${(op as { disc: number }).disc}`).toEqual([Status.MALFORMED_BUNDLE, Status.MALFORMED_BUNDLE, Status.MALFORMED_BUNDLE]);
    }
  });

  it('refuses non-UTF-8 strings, a bool other than 0/1 and an entry count beyond the bytes', async () => {
    const { statusOf } = await setup();
    const badUtf8 = Uint8Array.of(0x61, 0xc3, 0x28);
    const cases: Op[] = [
      createNft({ name: badUtf8 }),
      createNft({ external: badUtf8 }),
      createMulti({ name: badUtf8 }),
      createMulti({ external: Uint8Array.of(0xed, 0xa0, 0x80) }), // a surrogate
      mintNft(col, 1n, A, badUtf8),
      defineType(col, 1n, 0n, true, badUtf8),
      defineType(col, 1n, 0n, true, 'n', Uint8Array.of(0xff)),
    ];
    for (const op of cases) expect(statusOf(A, [op])).toBe(Status.MALFORMED_BUNDLE);
    const bool2 = bytesOf(defineType(col, 1n, 0n, true)).slice();
    bool2[bool2.length - 1] = 2;
    expect(statusOf(A, [withBytes(defineType(col, 1n, 0n, true), bool2)])).toBe(Status.MALFORMED_BUNDLE);
    for (const count of [2, 0x10000000, 0xffffffff]) {
      const b = bytesOf(batchMint(col, A, [[1n, 1n]])).slice();
      new DataView(b.buffer).setUint32(64, count, true);
      expect(statusOf(A, [withBytes(batchMint(col, A, []), b)])).toBe(Status.MALFORMED_BUNDLE);
    }
    // well-formed UTF-8 of several byte lengths passes the decoder (and fails or succeeds on semantics)
    expect(statusOf(A, [createNft({ name: '猫🐈', owner: A })])).toBe(Status.OK);
  });
});
