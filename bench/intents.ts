// Intent engine figures (issue 4, npm run bench), in one process against an in-memory market:
//   intents parsed AND planned per second over a mixed set (direct and routed swaps, buys with a
//   max cost, composites, transfers, liquidity, liquidate, rebalance, JSON goals, 3 languages),
//   with mean and p99 latency per intent (goal: 10,000/s, p99 under 1 ms); against the baseline of
//   a bare svc_quoteSwap computation (pool lookup, core quote, min-out) measured in the same run.
//
// Runnable alone after tsc: `node dist/bench/intents.js` (through npm's Node 22).

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { AmmMath, poolAddress, sortPair, type PoolRecord } from '../src/core/amm.js';
import { compileCore } from '../src/core/loader.js';
import { nameProblem } from '../src/domains/names/reader.js';
import type { TokenRef } from '../src/intents/goals.js';
import { GasMeter } from '../src/intents/gas.js';
import type { MarketSource } from '../src/intents/market.js';
import { parseIntent } from '../src/intents/parser.js';
import { planIntent, type PlannerEnv } from '../src/intents/planner.js';
import { minOut } from '../src/intents/units.js';
import type { BenchResult } from './rpc.js';

const mint = (n: number) => { const m = new Uint8Array(32); if (n) { m[0] = 0x11; m[31] = n; } return m; };
const TOKENS: TokenRef[] = [
  { symbol: 'NTV', mint: mint(0), decimals: 9 }, { symbol: 'USDC', mint: mint(1), decimals: 6 }, { symbol: 'SOL', mint: mint(2), decimals: 9 },
  { symbol: 'BTC', mint: mint(3), decimals: 8 }, { symbol: 'ETH', mint: mint(4), decimals: 18 },
];
const [NTV, USDC, SOL, BTC, ETH] = TOKENS as [TokenRef, TokenRef, TokenRef, TokenRef, TokenRef];
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const SENDER = new Uint8Array(32).fill(0xa1);
const ALICE = new Uint8Array(32).fill(0xa2);

function pool(a: TokenRef, ra: bigint, b: TokenRef, rb: bigint): PoolRecord {
  const aFirst = Buffer.compare(sortPair(a.mint, b.mint)[0], a.mint) === 0;
  return {
    version: 1, token0: aFirst ? a.mint : b.mint, token1: aFirst ? b.mint : a.mint, reserve0: aFirst ? ra : rb, reserve1: aFirst ? rb : ra,
    lpSupply: 10n ** 15n, creator: new Uint8Array(32), createdAt: 0n, createdHeight: 0n, lockUntil: 0n, creatorLockedLp: 0n,
    price0Cumulative: 0n, price1Cumulative: 0n, lastUpdate: 0n,
  };
}

/** The mixed set: what wallets send, weighted towards swaps. */
const INTENTS = [
  'swap 100 USDC for NTV',
  'swap 100 USDC for NTV with 1% slippage within 10 minutes',
  'swap 2 SOL for USDC',
  'buy 10 NTV with USDC max 2000 USDC',
  'get me 1 SOL with max 500 USDC',
  'swap 100 USDC and 1 SOL for NTV',
  'send 5 NTV to alice.vex',
  'add liquidity 100 USDC and 1 NTV',
  'liquidate to 500 USDC keeping NTV',
  'rebalance to 50% NTV, 50% USDC',
  'intercambiar 100 USDC por NTV',
  'tauschen 1 SOL fuer NTV',
  'swap 0.1 ETH for SOL with 0.5% slippage',
  '{"goal":"Swap","amount_in":"25","token_in":"USDC","token_out":"SOL","constraints":{"slippage_percent":"1"}}',
];

function market(): { source: MarketSource; tokens: { resolve(s: string): TokenRef | undefined } } {
  const pools = new Map<string, PoolRecord>();
  for (const p of [
    pool(USDC, 10n ** 12n, NTV, 10n ** 13n), pool(SOL, 10n ** 13n, NTV, 2n * 10n ** 13n),
    pool(BTC, 10n ** 9n, USDC, 6n * 10n ** 11n), pool(ETH, 10n ** 21n, NTV, 3n * 10n ** 13n),
  ]) pools.set(hex(poolAddress(p.token0, p.token1)), p);
  const balances = new Map(TOKENS.map((t) => [hex(t.mint), 10n ** BigInt(t.decimals + 5)]));
  const bySymbol = new Map(TOKENS.map((t) => [t.symbol.toLowerCase(), t]));
  return {
    source: {
      pool: (a, b) => pools.get(hex(poolAddress(a, b))),
      balance: (account, m) => (Buffer.compare(account, SENDER) === 0 ? balances.get(hex(m)) ?? 0n : 0n),
      token: (m) => TOKENS.find((t) => Buffer.compare(t.mint, m) === 0),
      tokens: () => TOKENS,
      pools: () => pools.values(),
    },
    tokens: { resolve: (s) => bySymbol.get(s.toLowerCase()) },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function benchIntents(): Promise<BenchResult[]> {
  const amm = await AmmMath.create();
  const gas = await GasMeter.create(await compileCore());
  const { source, tokens } = market();
  const env: PlannerEnv = {
    source, amm, ntv: NTV, gasPrice: 10n, bundleGas: (ops) => gas.bundleGas(ops),
    resolveName: (n) => (n.toLowerCase().replace(/\.vex$/, '') === 'alice' ? ALICE : undefined), nameProblem,
  };
  const ctx = { tokens };
  const once = (text: string) => planIntent(parseIntent(text, ctx), SENDER, env);
  for (const text of INTENTS) once(text); // every intent must plan; also warms the gas cache and the JIT
  for (let i = 0; i < 5_000; i++) once(INTENTS[i % INTENTS.length]!);

  const n = 60_000;
  const lat = new Float64Array(n);
  let t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    once(INTENTS[i % INTENTS.length]!);
    lat[i] = performance.now() - s;
  }
  const intentRate = n / ((performance.now() - t0) / 1000);
  const sorted = Array.from(lat).sort((a, b) => a - b);

  // Baseline: what svc_quoteSwap computes for one quote (pool lookup, the core's quote, a min-out).
  const pairs = [[USDC, NTV], [SOL, NTV], [BTC, USDC], [ETH, NTV]] as const;
  const quote = (i: number) => {
    const [a, b] = pairs[i % pairs.length]!;
    const p = source.pool(a.mint, b.mint)!;
    const [rin, rout] = Buffer.compare(p.token0, a.mint) === 0 ? [p.reserve0, p.reserve1] : [p.reserve1, p.reserve0];
    return minOut(amm.quoteExactIn(10n ** BigInt(a.decimals), rin, rout)!.amountOut, 50);
  };
  for (let i = 0; i < 20_000; i++) quote(i);
  const q = 400_000;
  t0 = performance.now();
  let sink = 0n;
  for (let i = 0; i < q; i++) sink += quote(i);
  const quoteRate = q / ((performance.now() - t0) / 1000);
  if (sink === 0n) throw new Error('baseline quotes returned nothing');

  return [
    { name: 'intents.parse_and_plan', value: Math.round(intentRate), unit: 'intents/s', note: `${INTENTS.length} mixed intents (7 goal types, 3 languages, JSON), parse + plan, one thread; goal ≥ 10,000/s` },
    { name: 'intents.latency_mean', value: Math.round((sorted.reduce((a, b) => a + b, 0) / n) * 1000), unit: 'µs', note: 'per intent, parse + plan' },
    { name: 'intents.latency_p99', value: Math.round(percentile(sorted, 99) * 1000), unit: 'µs', note: 'goal < 1,000 µs' },
    { name: 'intents.baseline_quote', value: Math.round(quoteRate), unit: 'quotes/s', note: 'baseline: a bare svc_quoteSwap computation (pool lookup, core quote, min-out)' },
    { name: 'intents.cost_in_quotes', value: Math.round((quoteRate / intentRate) * 10) / 10, unit: '× a quote', note: 'one intent parsed and planned costs this many bare quotes' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await benchIntents();
  for (const r of rows) console.log(`| ${r.name} | ${r.value.toLocaleString('en-US')} | ${r.unit} | ${r.note ?? ''} |`);
}
