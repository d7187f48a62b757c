// Settlement figures (issue 23, docs/settlement.md), against a baseline measured in the same run:
// SettleAtomenceOrder bundles executed by the core (apply_block + commit, state root included) vs
// the bigint reference model (testkit/reference.ts) on the same blocks, once with few earlier
// settlements and once after many, to show a settlement costs the same however many came before
// (the stats and indexes are constant work per settlement: docs/settlement.md "Statistics").
//
// Runnable alone after tsc: `node dist/bench/settlement.js` (through npm's Node 22).

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Core, type BundleInput, type Write } from '../src/core/core.js';
import { atomenceOrderId } from '../src/codec/domain-ids.js';
import { Reference } from '../testkit/reference.js';
import { encodeBundle, W } from '../testkit/encode.js';
import type { BenchResult } from './rpc.js';

const mint = (n: number) => { const m = new Uint8Array(32); m[0] = 0x11; m[31] = n; return m; };
const addr = (n: number) => { const a = new Uint8Array(32); a[0] = 0xaa; a[28] = n >> 24; a[29] = (n >> 16) & 0xff; a[30] = (n >> 8) & 0xff; a[31] = n & 0xff; return a; };

class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array) { return this.map.get(Buffer.from(key).toString('hex')); }
  apply(writes: Write[]) { for (const w of writes) { const k = Buffer.from(w.key).toString('hex'); if (w.value) this.map.set(k, w.value.slice()); else this.map.delete(k); } }
}

/** Rounds of create (block 1), match (block 2), settle (block 3, timed) of `perBlock` orders each. */
async function settleRows(): Promise<BenchResult[]> {
  const creators = 2000;
  const perBlock = 2000;
  const rounds = 6;
  const MM = creators;
  const NTV = new Uint8Array(32);
  const A = mint(1);
  const genesis = {
    chainId: 1618032n, timestamp: 1_700_000_000n, reservedSymbols: [] as string[],
    tokens: [NTV, A].map((m, i) => ({ mint: m, name: `T${i}`, symbol: i === 0 ? 'NTV' : 'TK1', decimals: 9, kind: i === 0 ? 0 : 2, creator: addr(999_999) })),
    balances: [NTV, A].flatMap((m) => Array.from({ length: creators + 1 }, (_, i) => ({ account: addr(i), mint: m, amount: 10n ** 24n }))),
  };
  const store = new MapStore();
  const core = await Core.create(store);
  const ref = await Reference.create();
  core.genesis(genesis);
  ref.genesis(genesis);
  store.apply(core.commitBlock().writes);
  ref.commitBlock();
  const nonces = new Array<bigint>(creators + 1).fill(0n);
  let height = 0;
  const ctx = () => ({ height: BigInt(++height), timestamp: 1_700_000_000n + BigInt(height * 2), proposer: addr(999_998), gasPrice: 10n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1n << 40n });
  const bundle = (who: number, disc: number, body: Uint8Array): BundleInput => ({
    bytes: encodeBundle({ user: addr(who), ops: [{ kind: 'raw', disc, bytes: body }], maxGas: 100_000n, maxPriorityFee: 0n, validUntil: 1_800_000_000n, nonce: nonces[who]!++ }),
    auth: 0,
  });
  /** One block on both; returns the core's and the reference's milliseconds. */
  const run = (list: BundleInput[]) => {
    const c0 = ctx();
    let t = performance.now();
    const out = core.applyBlock(c0, list);
    const c = core.commitBlock();
    const dc = performance.now() - t;
    store.apply(c.writes);
    t = performance.now();
    ref.applyBlock(c0, list);
    const rc = ref.commitBlock();
    const dr = performance.now() - t;
    if (Buffer.compare(c.stateRoot, rc.stateRoot) !== 0) throw new Error('core and reference roots differ');
    if (out.results.some((r) => r.status !== 0)) throw new Error(`a bench bundle failed: ${out.results.find((r) => r.status !== 0)!.status}`);
    return [dc, dr] as const;
  };
  const mm = new W(); mm.u8(1);
  run([bundle(MM, 105, mm.bytes())]);
  const times: Array<{ core: number; ref: number }> = [];
  for (let round = 0; round < rounds; round++) {
    const ids: Uint8Array[] = [];
    run(Array.from({ length: perBlock }, (_, i) => {
      const w = new W(); w.raw(A); w.u128(1_000n + BigInt(i)); w.raw(NTV); w.u128(2_000n); w.u64(1_701_000_000n);
      ids.push(atomenceOrderId(addr(i), nonces[i]!, 0));
      return bundle(i, 107, w.bytes());
    }));
    // the maker's matches: at most 64 operations a bundle
    const matches: BundleInput[] = [];
    for (let i = 0; i < perBlock; i += 64) {
      const w = new W();
      const chunk = ids.slice(i, i + 64);
      w.u32(chunk.length);
      for (const id of chunk) { w.u8(108); w.raw(id); w.u128(2_000n); w.u128(2_008n); }
      matches.push({ bytes: rawBundle(addr(MM), w.bytes(), nonces[MM]!++), auth: 0 });
    }
    run(matches);
    const [dc, dr] = run(ids.map((id, i) => { const w = new W(); w.raw(id); return bundle(i, 109, w.bytes()); }));
    times.push({ core: dc, ref: dr });
  }
  const rate = (ms: number) => Math.round(perBlock / (ms / 1000));
  const early = times[1]!, late = times[rounds - 1]!;
  return [
    { name: 'settlement.settle_core (few before)', value: rate(early.core), unit: 'settlements/s', note: `SettleAtomenceOrder bundles, ${perBlock}/block, apply_block + commit with the state root; ${perBlock} settlements before` },
    { name: `settlement.settle_core (${(rounds - 1) * perBlock} before)`, value: rate(late.core), unit: 'settlements/s', note: 'the same after more settlements: goal the same cost (constant-work stats and indexes)' },
    { name: 'settlement.settle_reference', value: rate(late.ref), unit: 'settlements/s', note: 'baseline: the bigint reference model on the same blocks, same roots' },
    { name: 'settlement.settle_ratio', value: Math.round((late.ref / late.core) * 10) / 10, unit: '×', note: 'core vs reference' },
  ];
}

/** A bundle of already-encoded operations (the Vec<Operation> bytes) for `user`. */
function rawBundle(user: Uint8Array, ops: Uint8Array, nonce: bigint): Uint8Array {
  const w = new W();
  w.raw(user); w.raw(ops); w.u64(5_000_000n); w.u64(0n); w.u64(1_800_000_000n); w.u64(nonce); w.vec(new Uint8Array(0)); w.u8(0); w.u8(0);
  return w.bytes();
}

export async function benchSettlement(): Promise<BenchResult[]> {
  return settleRows();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchSettlement()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit} — ${r.note ?? ''}`);
}
