// DEX figures (issue 3, npm run bench), each against a baseline measured in the same run:
//   1. the AMM swap math batched inside the core (amm_math op 5) vs the same formula in TS bigint,
//      at u64-sized reserves (the 128/64 fast path) and 18-decimal reserves (the wide limb path);
//   2. swap bundles executed by the core (apply_block + commit, state root included) vs the bigint
//      reference model (testkit/reference.ts) on the same blocks;
//   3. svc_quoteSwap through JSON-RPC on a running node vs svc_getBalance on the same node.
//
// Runnable alone after tsc: `node dist/bench/dex.js` (through npm's Node 22).

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AmmMath, amountOutRef } from '../src/core/amm.js';
import { Core, type BundleInput, type Write } from '../src/core/core.js';
import { Reference } from '../testkit/reference.js';
import { encodeBundle, W } from '../testkit/encode.js';
import { BenchNode } from './bench-node.js';
import { loadTestJsonRpc, type BenchResult } from './rpc.js';


function bigintRoundTrips(a: bigint, r0: bigint, r1: bigint, n: number): [bigint, bigint] {
  for (let i = 0; i < n; i++) {
    const o = amountOutRef(a, r0, r1);
    r0 += a;
    r1 -= o;
    const b = amountOutRef(o, r1, r0);
    r1 += o;
    r0 -= b;
  }
  return [r0, r1];
}

async function mathRows(): Promise<BenchResult[]> {
  const math = await AmmMath.create();
  const rows: BenchResult[] = [];
  const cases: Array<[string, bigint, bigint, bigint]> = [
    ['u64 reserves', 1_000_000n, 10n ** 12n, 3n * 10n ** 12n],
    ['18-decimal reserves', 10n ** 20n, 10n ** 24n, 3n * 10n ** 27n],
  ];
  for (const [label, a, r0, r1] of cases) {
    const coreN = 2_000_000;
    const refN = 200_000;
    math.benchRoundTrips(a, r0, r1, 10_000); // warm-up
    bigintRoundTrips(a, r0, r1, 10_000);
    let t = performance.now();
    const c = math.benchRoundTrips(a, r0, r1, coreN);
    const coreRate = (2 * coreN) / ((performance.now() - t) / 1000);
    t = performance.now();
    bigintRoundTrips(a, r0, r1, refN);
    const refRate = (2 * refN) / ((performance.now() - t) / 1000);
    // Same answer: both sides run the same 2n swaps.
    const check = bigintRoundTrips(a, r0, r1, 1000);
    const cc = math.benchRoundTrips(a, r0, r1, 1000);
    if (check[0] !== cc[0] || check[1] !== cc[1] || c[0] <= 0n) throw new Error(`core and bigint disagree (${label})`);
    rows.push(
      { name: `dex.swap_math_core (${label})`, value: Math.round(coreRate), unit: 'swaps/s', note: 'constant-product formula batched inside the wasm core' },
      { name: `dex.swap_math_bigint (${label})`, value: Math.round(refRate), unit: 'swaps/s', note: 'baseline: the same formula in TS bigint' },
      { name: `dex.swap_math_ratio (${label})`, value: Math.round((coreRate / refRate) * 10) / 10, unit: '×', note: 'goal ≥ 20×' },
    );
  }
  return rows;
}

const mint = (n: number) => { const m = new Uint8Array(32); m[0] = 0x11; m[31] = n; return m; };
const addr = (n: number) => { const a = new Uint8Array(32); a[0] = 0xaa; a[28] = n >> 24; a[29] = (n >> 16) & 0xff; a[30] = (n >> 8) & 0xff; a[31] = n & 0xff; return a; };

class MapStore {
  readonly map = new Map<string, Uint8Array>();
  get(key: Uint8Array) { return this.map.get(Buffer.from(key).toString('hex')); }
  apply(writes: Write[]) { for (const w of writes) { const k = Buffer.from(w.key).toString('hex'); if (w.value) this.map.set(k, w.value.slice()); else this.map.delete(k); } }
}

/** Swap bundles through apply_block + commit (root included), core vs bigint reference. */
async function executionRows(): Promise<BenchResult[]> {
  const accounts = 4000;
  const blockSize = 4000;
  const NTV = new Uint8Array(32);
  const [A, B] = [mint(1), mint(2)];
  const genesis = {
    chainId: 1618032n, timestamp: 1_700_000_000n,
    tokens: [NTV, A, B].map((m, i) => ({ mint: m, name: `T${i}`, symbol: i === 0 ? 'NTV' : `TK${i}`, decimals: 18, kind: i === 0 ? 0 : 2, creator: addr(999_999) })),
    balances: [NTV, A, B].flatMap((m) => Array.from({ length: accounts + 1 }, (_, i) => ({ account: addr(i), mint: m, amount: 10n ** 30n }))),
    reservedSymbols: [],
  };
  const store = new MapStore();
  const core = await Core.create(store);
  const ref = await Reference.create();
  core.genesis(genesis);
  ref.genesis(genesis);
  store.apply(core.commitBlock().writes);
  ref.commitBlock();
  const nonces = new Array<bigint>(accounts + 1).fill(0n);
  const ctx = (h: number) => ({ height: BigInt(h), timestamp: 1_700_000_000n + BigInt(h * 2), proposer: addr(999_998), gasPrice: 10n, chainId: 1618032n, allowUnsigned: true, blockGasLimit: 1n << 40n });
  const bundle = (who: number, disc: number, body: Uint8Array, h: number): BundleInput => ({
    bytes: encodeBundle({ user: addr(who), ops: [{ kind: 'raw', disc, bytes: body }], maxGas: 100_000n, maxPriorityFee: 0n, validUntil: 1_800_000_000n + BigInt(h), nonce: nonces[who]!++ }),
    auth: 0,
  });
  const create = new W(); create.raw(A); create.raw(B); create.u128(10n ** 27n); create.u128(3n * 10n ** 27n); create.u64(0n);
  const first = [bundle(accounts, 28, create.bytes(), 1)];
  core.applyBlock(ctx(1), first);
  ref.applyBlock(ctx(1), first);
  store.apply(core.commitBlock().writes);
  ref.commitBlock();
  const blocks: BundleInput[][] = [];
  for (let b = 0; b < 4; b++) {
    const list: BundleInput[] = [];
    for (let i = 0; i < blockSize; i++) {
      const w = new W();
      const dir = (i + b) % 2 === 0;
      w.raw(dir ? A : B); w.raw(dir ? B : A); w.u128(10n ** 18n + BigInt(i)); w.u128(0n);
      list.push(bundle(i, 31, w.bytes(), b + 2));
    }
    blocks.push(list);
  }
  let coreMs = 0;
  let refMs = 0;
  let swaps = 0;
  for (const [i, list] of blocks.entries()) {
    let t = performance.now();
    const out = core.applyBlock(ctx(i + 2), list);
    const c = core.commitBlock();
    const dt = performance.now() - t;
    store.apply(c.writes);
    t = performance.now();
    ref.applyBlock(ctx(i + 2), list);
    const rc = ref.commitBlock();
    const dr = performance.now() - t;
    if (Buffer.compare(c.stateRoot, rc.stateRoot) !== 0) throw new Error('core and reference roots differ');
    if (out.results.some((r) => r.status !== 0)) throw new Error('a bench swap failed');
    if (i === 0) continue; // the first block loads every account into the core's cache
    coreMs += dt;
    refMs += dr;
    swaps += list.length;
  }
  const coreRate = swaps / (coreMs / 1000);
  const refRate = swaps / (refMs / 1000);
  return [
    { name: 'dex.swap_bundles_core', value: Math.round(coreRate), unit: 'swaps/s', note: `swap bundles, ${blockSize}/block, apply_block + commit with the state root` },
    { name: 'dex.swap_bundles_reference', value: Math.round(refRate), unit: 'swaps/s', note: 'baseline: the bigint reference model on the same blocks, same roots' },
    { name: 'dex.swap_bundles_ratio', value: Math.round((coreRate / refRate) * 10) / 10, unit: '×', note: 'core vs reference' },
  ];
}

/** svc_quoteSwap on a running node vs svc_getBalance (same node, same load). */
async function rpcRows(seconds = 4, connections = 50): Promise<BenchResult[]> {
  const node = await BenchNode.start(['--rpc-rate-limit', '0', '--block-time', '1']);
  const url = node.url;
  try {
    const rich = '0x' + '7'.padStart(64, '0');
    await node.call('svc_createPool', ['USDC', 'NTV', '100000000000', '1000000000000', 0, rich]);
    const quote = { jsonrpc: '2.0', id: 1, method: 'svc_quoteSwap', params: ['USDC', 'NTV', '1000000000'] };
    const balance = { jsonrpc: '2.0', id: 1, method: 'svc_getBalance', params: [rich, 'NTV'] };
    await loadTestJsonRpc({ url, body: quote, connections, durationSeconds: 1 });
    await loadTestJsonRpc({ url, body: balance, connections, durationSeconds: 1 });
    let q = 0, b = 0;
    for (let i = 0; i < 2; i++) {
      const rq = await loadTestJsonRpc({ url, body: quote, connections, durationSeconds: seconds / 2 });
      const rb = await loadTestJsonRpc({ url, body: balance, connections, durationSeconds: seconds / 2 });
      if (rq.non2xx || rq.errors) throw new Error('svc_quoteSwap load test saw errors');
      q += rq.requests;
      b += rb.requests;
    }
    return [
      { name: 'dex.quote_swap_rps', value: Math.round(q / seconds), unit: 'req/s', note: `svc_quoteSwap on a running node, ${connections} connections` },
      { name: 'dex.get_balance_rps', value: Math.round(b / seconds), unit: 'req/s', note: 'baseline: svc_getBalance on the same node, same load' },
      { name: 'dex.quote_vs_get_balance', value: Math.round((q / b) * 1000) / 1000, unit: 'ratio', note: 'a quote costs about as much as a balance read' },
    ];
  } finally {
    await node.stop();
  }
}

export async function benchDex(): Promise<BenchResult[]> {
  return [...(await mathRows()), ...(await executionRows()), ...(await rpcRows())];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await benchDex();
  for (const r of rows) console.log(`| ${r.name} | ${r.value.toLocaleString('en-US')} | ${r.unit} | ${r.note ?? ''} |`);
}
