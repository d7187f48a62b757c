// Token staking pools in the core (docs/staking-pools.md "Gas"): operations per second on a pool
// with 100,000 stakers against a pool with 10, in one run. The accumulated reward per share makes
// every operation constant work whatever the number of stakers, so the goal is the same cost per
// operation (a ratio near 1). Each measured block holds 10 bundles of 32 StakeToPool + 32
// UnstakeFromPool operations (lock 0) by 10 different stakers: each operation accrues the pool,
// settles the staker and moves the tokens.
//
// Importable (bench/index.ts) and runnable alone after tsc: `node dist/bench/staking-pools.js`.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { Core, type BlockContext, type BundleInput, type GenesisConfig, type Write } from '../src/core/core.js';
import { Status } from '../src/core/status.js';
import { encodeBundle, W, type Op } from '../testkit/encode.js';
import { blake3 } from '../src/codec/hash.js';
import type { CoreBenchResult } from './core.js';

const NTV = new Uint8Array(32);
const mint = (n: number) => { const m = new Uint8Array(32); m[0] = 0x11; m[31] = n; return m; };
const STAKE = mint(1), REWARD = mint(2);
const CREATOR = 0;

class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array): Uint8Array | undefined {
    return this.map.get(Buffer.from(key).toString('hex'));
  }
  apply(writes: Write[]): void {
    for (const w of writes) {
      const k = Buffer.from(w.key).toString('hex');
      if (w.value) this.map.set(k, w.value);
      else this.map.delete(k);
    }
  }
}

const addrCache = new Map<number, Uint8Array>();
function addr(i: number): Uint8Array {
  let a = addrCache.get(i);
  if (!a) addrCache.set(i, (a = new Uint8Array(createHash('sha256').update(`pool-bench-${i}`).digest())));
  return a;
}
const poolAddress = (id: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, id, true);
  return blake3(new Uint8Array([...new TextEncoder().encode('ntv.staking-pool.v1'), ...b]));
};
const raw = (disc: number, f: (w: W) => void): Op => { const w = new W(); f(w); return { kind: 'raw', disc, bytes: w.bytes() }; };
const withAmount = (disc: number) => (pool: Uint8Array, amount: bigint) => raw(disc, (w) => { w.raw(pool); w.u128(amount); });
const stake = withAmount(101), unstake = withAmount(102), fund = withAmount(104);

function ctxAt(height: number): BlockContext {
  return { height: BigInt(height), timestamp: 1_767_225_600n + BigInt(height * 2), proposer: addr(9_999_999), gasPrice: 0n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1n << 50n };
}

/** One run: a pool whose stakers are accounts 1…stakers, then `blocks` measured blocks. */
async function run(stakers: number, blocks: number): Promise<{ opsPerSecond: number; msPerBlock: number; ops: number }> {
  const store = new MapStore();
  const core = await Core.create(store);
  const genesis: GenesisConfig = {
    chainId: 1618032n, timestamp: 1_767_225_600n, reservedSymbols: [],
    tokens: [
      { mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: addr(CREATOR) },
      { mint: STAKE, name: 'Stake', symbol: 'STK', decimals: 9, kind: 2, creator: addr(CREATOR) },
      { mint: REWARD, name: 'Reward', symbol: 'RWD', decimals: 9, kind: 2, creator: addr(CREATOR) },
    ],
    balances: [{ account: addr(CREATOR), mint: REWARD, amount: 10n ** 24n }],
  };
  for (let i = 1; i <= stakers; i++) genesis.balances.push({ account: addr(i), mint: STAKE, amount: 10n ** 12n });
  core.genesis(genesis);
  store.apply(core.commitBlock().writes);
  const nonces = new Map<number, bigint>();
  const bundle = (who: number, ops: Op[]): BundleInput => {
    const nonce = nonces.get(who) ?? 0n;
    nonces.set(who, nonce + 1n);
    return { bytes: encodeBundle({ user: addr(who), ops, nonce, maxGas: 10_000_000n, maxPriorityFee: 0n, validUntil: 1n << 40n }), auth: 0 };
  };
  let height = 0;
  const apply = (bundles: BundleInput[]) => {
    const r = core.applyBlock(ctxAt(++height), bundles);
    for (const res of r.results) if (res.status !== Status.OK) throw new Error(`bench block ${height}: status ${res.status}`);
    store.apply(core.commitBlock().writes);
  };
  const pool = poolAddress(1n);
  apply([bundle(CREATOR, [raw(100, (w) => { w.raw(STAKE); w.raw(REWARD); w.u128(1_000_000n); w.u64(0n); w.u128(0n); w.u128(0n); }), fund(pool, 10n ** 22n)])]);
  // the stakers join, 5,000 per block
  for (let first = 1; first <= stakers; first += 5_000) {
    const block: BundleInput[] = [];
    for (let i = first; i < Math.min(first + 5_000, stakers + 1); i++) block.push(bundle(i, [stake(pool, 1_000_000n + BigInt(i))]));
    apply(block);
  }
  // measured: 10 bundles of 64 operations a block, by 10 stakers in turn
  const ops: Op[] = [];
  for (let k = 0; k < 32; k++) ops.push(stake(pool, 1_000n), unstake(pool, 1_000n));
  const inputs: BundleInput[][] = [];
  for (let b = 0; b < blocks; b++) {
    const block: BundleInput[] = [];
    for (let j = 0; j < 10; j++) block.push(bundle(1 + ((b * 10 + j) % stakers), ops));
    inputs.push(block);
  }
  const times: number[] = [];
  for (const block of inputs) {
    const t0 = performance.now();
    apply(block);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const ms = times[times.length >> 1]!;
  const perBlock = 10 * ops.length;
  return { opsPerSecond: Math.round((perBlock / ms) * 1000), msPerBlock: Math.round(ms * 1000) / 1000, ops: perBlock };
}

export async function benchStakingPools(opts: { stakers?: number; blocks?: number } = {}): Promise<CoreBenchResult[]> {
  const big = opts.stakers ?? 100_000;
  const blocks = opts.blocks ?? 40;
  await run(10, blocks); // warm-up: the first run pays the engine's tiering of the core
  const small = await run(10, blocks);
  const large = await run(big, blocks);
  return [
    { name: 'staking pool: operations/s, pool with 10 stakers', value: small.opsPerSecond, unit: 'ops/s', note: `median block of ${small.ops} StakeToPool/UnstakeFromPool, apply + commit: ${small.msPerBlock} ms` },
    { name: `staking pool: operations/s, pool with ${big.toLocaleString('en-US')} stakers`, value: large.opsPerSecond, unit: 'ops/s', note: `same blocks: ${large.msPerBlock} ms` },
    { name: `staking pool: cost per operation, ${big.toLocaleString('en-US')} stakers / 10`, value: Math.round((small.opsPerSecond / large.opsPerSecond) * 100) / 100, unit: '×', note: 'goal ≈ 1 (accumulated reward per share: constant work per operation)' },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await benchStakingPools()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}${r.note ? ` (${r.note})` : ''}`);
}
