// STD-8 transfers against plain STD-7 transfers in the core, in one run (issue 19: "the checks cost
// little", goal ≥ 0.9×). The same accounts move an STD-7 token (kind 1: its TokenRecord flags say
// nothing to check) and an STD-8 stablecoin (kind 2) whose blacklist is not empty, so every one of
// its movements reads the token flags and looks both parties up in the 0x41 blacklist
// (docs/stablecoins.md "Where the rules hold"). Blocks of each alternate, so both see the same
// machine noise; only the apply_block + commit_block calls are timed.
//
// Importable (bench/index.ts) and runnable alone after tsc: `node dist/bench/std8.js`.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Core, encodeBlockInput, type BundleInput, type GenesisConfig } from '../src/core/core.js';
import { encodeBundle, W } from '../testkit/encode.js';
import { addr, ctxAt, MapStore, transfer, type CoreBenchResult } from './core.js';

const NTV = new Uint8Array(32);
const mint = (n: number) => { const m = new Uint8Array(32); m[0] = 0x5e; m[31] = n; return m; };
const STD7 = mint(7);
const STD8 = mint(8);
const GOV = (() => { const a = new Uint8Array(32); a[31] = 9; return a; })();

export async function benchStd8(opts: { accounts?: number; blockSize?: number; rounds?: number } = {}): Promise<CoreBenchResult[]> {
  const accounts = opts.accounts ?? 20_000;
  const blockSize = opts.blockSize ?? 10_000;
  const rounds = opts.rounds ?? 6;
  const genesis: GenesisConfig = {
    chainId: 1618032n, timestamp: 1_767_225_600n, reservedSymbols: [],
    tokens: [
      { mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) },
      { mint: STD7, name: 'Plain', symbol: 'PLN', decimals: 6, kind: 1, creator: new Uint8Array(32).fill(0xff) },
      { mint: STD8, name: 'Stable', symbol: 'STB', decimals: 6, kind: 2, creator: new Uint8Array(32).fill(0xff) },
    ],
    balances: [{ account: GOV, mint: NTV, amount: 10n ** 15n }],
  };
  for (let i = 0; i < accounts; i++) {
    genesis.balances.push({ account: addr(i), mint: NTV, amount: 10n ** 18n });
    genesis.balances.push({ account: addr(i), mint: STD7, amount: 10n ** 15n });
    genesis.balances.push({ account: addr(i), mint: STD8, amount: 10n ** 15n });
  }
  const store = new MapStore();
  const core = await Core.create(store);
  core.genesis(genesis);
  store.apply(core.commitBlock().writes);
  // Block 1: every key revealed; governance (the genesis coin's roles) blacklists 16 outsiders.
  const nonces = new Array<bigint>(accounts).fill(0n);
  const reveal: BundleInput[] = [];
  for (let i = 0; i < accounts; i++) reveal.push(transfer(i, (i * 7919 + 1) % accounts, nonces[i]++, NTV, true));
  const blacklist = Array.from({ length: 16 }, (_, k) => {
    const w = new W();
    w.raw(STD8); w.raw(addr(10_000_000 + k)); w.u8(1);
    return { kind: 'raw' as const, disc: 57, bytes: w.bytes() };
  });
  reveal.push({ bytes: encodeBundle({ user: GOV, ops: blacklist, nonce: 0n, maxGas: 1_000_000n, maxPriorityFee: 0n, validUntil: 1_767_225_600n + 1_000_000n }), auth: 0 });
  const r1 = core.applyBlock({ ...ctxAt(1), allowUnsigned: true }, reveal);
  if (r1.results.some((r) => r.status !== 0)) throw new Error('bench std8: setup block failed');
  store.apply(core.commitBlock().writes);

  let cursor = 0;
  let seed = 777;
  const block = (token: Uint8Array) => {
    const out: BundleInput[] = [];
    for (let k = 0; k < blockSize; k++) {
      const from = cursor;
      cursor = (cursor + 1) % accounts;
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      out.push(transfer(from, seed % accounts, nonces[from]++, token, false));
    }
    return out;
  };
  const x = core.exports;
  const times = { std7: [] as number[], std8: [] as number[] };
  let height = 2;
  for (let r = 0; r < rounds; r++) {
    for (const [name, token] of (r % 2 === 0 ? [['std7', STD7], ['std8', STD8]] : [['std8', STD8], ['std7', STD7]]) as Array<['std7' | 'std8', Uint8Array]>) {
      const input = encodeBlockInput(ctxAt(height++), block(token));
      const t0 = performance.now();
      const ptr = x.input(input.length);
      new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
      if (x.apply_block(input.length) !== 0) throw new Error('bench std8: apply_block refused the block');
      x.commit_block();
      times[name].push(performance.now() - t0);
    }
  }
  // The first round warms the JIT and the cache.
  const perSec = (xs: number[]) => { const s = xs.slice(1); return Math.round((blockSize * 1000) / (s.reduce((a, b) => a + b, 0) / s.length)); };
  const std7 = perSec(times.std7), std8 = perSec(times.std8);
  return [
    { name: 'core in-wasm: STD-7 transfers applied + committed per second', value: std7, unit: 'transfers/s', note: `${blockSize}-transfer blocks, ${accounts} signed senders, alternating with the STD-8 blocks` },
    { name: 'core in-wasm: STD-8 transfers applied + committed per second', value: std8, unit: 'transfers/s', note: 'a stablecoin with 16 blacklisted addresses: each movement checks the pause flag and both parties' },
    { name: 'STD-8 / STD-7 transfers', value: Math.round((std8 / std7) * 100) / 100, unit: '×', note: 'goal ≥ 0.9 (issue 19)' },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await benchStd8()) console.log(`${row.name}: ${row.value.toLocaleString('en-US')} ${row.unit}${row.note ? ` (${row.note})` : ''}`);
}
