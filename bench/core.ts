// Core throughput: the wasm core against the TypeScript bigint reference (testkit/reference.ts)
// on the same blocks of signed-as-verified transfers, in one run (STYLE.md: a ratio against a
// baseline measured in the same process). Goals (DESIGN.md, issue): ≥ 1,000,000 transfers/s in the
// core, ≥ 10× the reference, and a 10,000-transfer block applied + committed within 50 ms.
//
// Importable (bench/index.ts) and runnable alone after tsc: `node dist/bench/core.js`.

import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Core, encodeBlockInput, type BlockContext, type BundleInput, type GenesisConfig, type Write } from '../src/core/core.js';
import { Reference, type RefCtx, type RefGenesis } from '../testkit/reference.js';
import { createHash } from 'node:crypto';
import { encodeBundle } from '../testkit/encode.js';
import { bundleHash, decodeBundle } from '../src/codec/bundle.js';
import { transactionsRoot } from '../src/chain/block.js';

export interface CoreBenchResult {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

const NTV = new Uint8Array(32);
const TK1 = (() => {
  const m = new Uint8Array(32);
  m[0] = 0x11;
  m[31] = 1;
  return m;
})();

export class MapStore {
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

interface Options {
  accounts?: number;
  blockSize?: number;
  coreBlocks?: number;
  referenceBlocks?: number;
}

export function ctxAt(height: number): BlockContext & RefCtx {
  return {
    height: BigInt(height),
    timestamp: 1_767_225_600n + BigInt(height * 2),
    proposer: addr(1_000_000),
    gasPrice: 10n,
    chainId: 1618032n,
    allowUnsigned: false,
    blockGasLimit: 1n << 40n,
  };
}

const SIG = new Uint8Array(64).fill(7);

// Realistic addresses: SHA256 of a public key (spec §1.6), so keys spread like a live chain's.
const addrCache = new Map<number, Uint8Array>();
export function addr(i: number): Uint8Array {
  let a = addrCache.get(i);
  if (!a) {
    a = new Uint8Array(createHash('sha256').update(`bench-key-${i}`).digest());
    addrCache.set(i, a);
  }
  return a;
}

/** One signed-as-verified transfer: the host has checked the Ed25519 signature of key_hash = user. */
export function transfer(from: number, to: number, nonce: bigint, token: Uint8Array, reveal: boolean): BundleInput {
  const user = addr(from);
  const pubkey = reveal ? new Uint8Array(32).fill(from & 0xff) : undefined;
  return {
    bytes: encodeBundle({
      user,
      ops: [{ kind: 'transfer', to: addr(to), token, amount: 1_000n + BigInt(to % 97) }],
      maxGas: 100_000n,
      maxPriorityFee: 0n,
      validUntil: 1_767_225_600n + 1_000_000n,
      nonce,
      signature: SIG,
      senderPubkey: pubkey ?? null,
    }),
    auth: 1,
    keyHash: user,
    pubkey,
  };
}

export async function benchCore(opts: Options = {}): Promise<CoreBenchResult[]> {
  const accounts = opts.accounts ?? 20_000;
  const blockSize = opts.blockSize ?? 10_000;
  const coreBlocks = opts.coreBlocks ?? 12;
  const referenceBlocks = opts.referenceBlocks ?? 3;

  const genesis: GenesisConfig & RefGenesis = {
    chainId: 1618032n,
    timestamp: 1_767_225_600n,
    tokens: [
      { mint: NTV, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) },
      { mint: TK1, name: 'Token', symbol: 'TK1', decimals: 6, kind: 2, creator: new Uint8Array(32).fill(0xff) },
    ],
    balances: [],
    reservedSymbols: [],
  };
  for (let i = 0; i < accounts; i++) {
    genesis.balances.push({ account: addr(i), mint: NTV, amount: 10n ** 18n });
    genesis.balances.push({ account: addr(i), mint: TK1, amount: 10n ** 15n });
  }

  // Blocks: block 1 reveals every account's key (first signed send, spec §5.3); the measured
  // blocks then cycle through the senders with deterministic pseudo-random recipients and tokens.
  const nonces = new Array<bigint>(accounts).fill(0n);
  const blocks: BundleInput[][] = [];
  const reveal: BundleInput[] = [];
  for (let i = 0; i < accounts; i++) reveal.push(transfer(i, (i * 7919 + 1) % accounts, nonces[i]++, NTV, true));
  let cursor = 0;
  let seed = 12345;
  const total = Math.max(coreBlocks, referenceBlocks);
  for (let b = 0; b < total; b++) {
    const block: BundleInput[] = [];
    for (let k = 0; k < blockSize; k++) {
      const from = cursor;
      cursor = (cursor + 1) % accounts;
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const to = seed % (accounts + 5_000); // some recipients are new accounts
      block.push(transfer(from, to, nonces[from]++, seed & 1 ? NTV : TK1, false));
    }
    blocks.push(block);
  }

  // --- the core: two instances in the same state, block by block --------------------------------
  // `core` goes through the TS API (encode, apply_block, decode the result, commit_block, decode the
  // writes); `raw` gets the same pre-encoded input and only the two wasm calls are timed: what the
  // core itself costs. Interleaving them exposes both to the same machine noise.
  const setup = async (): Promise<Core> => {
    const store = new MapStore();
    const c = await Core.create(store);
    c.genesis(genesis);
    store.apply(c.commitBlock().writes);
    const r1 = c.applyBlock(ctxAt(1), reveal);
    if (r1.results.some((r) => r.status !== 0)) throw new Error('bench setup: reveal block failed in the core');
    store.apply(c.commitBlock().writes);
    // Later writes are not stored: a long-lived instance never reads back a key it has touched.
    return c;
  };
  const core = await setup();
  const raw = await setup();
  const x = raw.exports;
  const coreTimes: number[] = [];
  const rawTimes: number[] = [];
  const rawApplyTimes: number[] = [];
  const coreRoots: string[] = [];
  let ok = 0;
  for (let b = 0; b < coreBlocks; b++) {
    const t0 = performance.now();
    const res = core.applyBlock(ctxAt(2 + b), blocks[b]!);
    const c = core.commitBlock();
    const t1 = performance.now();
    coreTimes.push(t1 - t0);
    coreRoots.push(Buffer.from(c.stateRoot).toString('hex'));
    for (const r of res.results) if (r.status === 0) ok++;

    const input = encodeBlockInput(ctxAt(2 + b), blocks[b]!);
    const t2 = performance.now();
    const ptr = x.input(input.length);
    new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
    if (x.apply_block(input.length) !== 0) throw new Error('bench: apply_block refused the block');
    const t3 = performance.now();
    x.commit_block();
    rawTimes.push(performance.now() - t2);
    rawApplyTimes.push(t3 - t2);
    const root = Buffer.from(new Uint8Array(x.memory.buffer, x.state_root(), 32)).toString('hex');
    if (root !== coreRoots[b]) throw new Error(`bench: raw and API roots differ at block ${2 + b}`);
  }
  if (ok !== coreBlocks * blockSize) throw new Error(`bench: only ${ok} of ${coreBlocks * blockSize} transfers succeeded`);

  // --- the reference on the first blocks --------------------------------------------------------
  const ref = await Reference.create();
  ref.genesis(genesis);
  ref.commitBlock();
  ref.applyBlock(ctxAt(1), reveal);
  ref.commitBlock();
  const refTimes: number[] = [];
  const refApplyTimes: number[] = [];
  for (let b = 0; b < referenceBlocks; b++) {
    const t0 = performance.now();
    ref.applyBlock(ctxAt(2 + b), blocks[b]!);
    const t1 = performance.now();
    const c = ref.commitBlock();
    refTimes.push(performance.now() - t0);
    refApplyTimes.push(t1 - t0);
    if (Buffer.from(c.stateRoot).toString('hex') !== coreRoots[b]) throw new Error(`bench: state roots differ at block ${2 + b}`);
  }

  // The first measured core blocks warm the JIT and the cache; report the steady state (all but
  // the first two), and the median block time.
  const steady = coreTimes.slice(Math.min(2, coreTimes.length - 1));
  const coreMs = steady.reduce((a, b) => a + b, 0) / steady.length;
  const sorted = [...steady].sort((a, b) => a - b);
  const medianMs = sorted[Math.floor(sorted.length / 2)]!;
  const refMs = refTimes.reduce((a, b) => a + b, 0) / refTimes.length;
  const rawSteady = rawTimes.slice(Math.min(2, rawTimes.length - 1));
  const rawMs = rawSteady.reduce((a, b) => a + b, 0) / rawSteady.length;
  const rawMedian = [...rawSteady].sort((a, b) => a - b)[Math.floor(rawSteady.length / 2)]!;
  const rawPerSec = Math.round((blockSize * 1000) / rawMs);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rawApplyPerSec = Math.round((blockSize * 1000) / mean(rawApplyTimes.slice(Math.min(2, rawApplyTimes.length - 1))));
  const refApplyPerSec = Math.round((blockSize * 1000) / mean(refApplyTimes));
  const corePerSec = Math.round((blockSize * 1000) / coreMs);
  const refPerSec = Math.round((blockSize * 1000) / refMs);
  const scan = benchScan(core, blocks[0]!.slice(0, 1000).map((b) => b.bytes));
  return [
    {
      name: 'core: transfers applied + committed per second',
      value: corePerSec,
      unit: 'transfers/s',
      note: `${blockSize}-transfer blocks, ${accounts} signed senders, via the Core TS API (encode, apply_block, commit_block, decode); mean of ${steady.length} blocks`,
    },
    {
      name: 'reference (TS bigint): transfers applied + committed per second',
      value: refPerSec,
      unit: 'transfers/s',
      note: `same blocks, same state roots (checked), mean of ${referenceBlocks} blocks`,
    },
    { name: 'core / reference', value: Math.round((corePerSec / refPerSec) * 10) / 10, unit: '×', note: 'through the TS API; goal ≥ 10×' },
    {
      name: 'core in-wasm: transfers applied + committed per second',
      value: rawPerSec,
      unit: 'transfers/s',
      note: 'the apply_block + commit_block calls alone (input pre-encoded, output not decoded), state root included',
    },
    { name: 'core in-wasm / reference', value: Math.round((rawPerSec / refPerSec) * 10) / 10, unit: '×' },
    {
      name: 'core in-wasm: transfers applied per second (execution only)',
      value: rawApplyPerSec,
      unit: 'transfers/s',
      note: 'apply_block alone: decode, auth, nonce, fee split, balances, journal, events; the state root is the commit figures above; goal ≥ 1,000,000',
    },
    { name: 'core in-wasm / reference, execution only', value: Math.round((rawApplyPerSec / refApplyPerSec) * 10) / 10, unit: '×', note: `reference applyBlock alone: ${refApplyPerSec.toLocaleString('en-US')}/s` },
    { name: `core: ${blockSize.toLocaleString('en-US')}-transfer block, apply + commit (TS API)`, value: Math.round(medianMs * 100) / 100, unit: 'ms', note: `median of ${steady.length} blocks` },
    {
      name: `core: ${blockSize.toLocaleString('en-US')}-transfer block (TS API) / 50 ms budget`,
      value: Math.round((medianMs / 50) * 1000) / 1000,
      unit: 'ratio',
      note: 'below 1 meets the budget (DESIGN.md)',
    },
    {
      name: `core in-wasm: ${blockSize.toLocaleString('en-US')}-transfer block / 50 ms budget`,
      value: Math.round((rawMedian / 50) * 1000) / 1000,
      unit: 'ratio',
      note: `median ${Math.round(rawMedian * 100) / 100} ms`,
    },
    ...scan,
  ];
}

/**
 * Block import's per-bundle JS work (docs/core-abi.md "Block scan"): the section walked into views,
 * bundleHash and decodeBundle per bundle, transactionsRoot over the hashes — against one
 * scan_bundles call plus reading the same fields from its rows, on the same 1,000-bundle section.
 * The two alternate so both see the same machine noise; medians of the timed rounds.
 */
function benchScan(core: Core, bundles: Uint8Array[]): CoreBenchResult[] {
  let size = 4;
  for (const b of bundles) size += 4 + b.length;
  const section = new Uint8Array(size);
  const dv = new DataView(section.buffer);
  dv.setUint32(0, bundles.length, true);
  let o = 4;
  for (const b of bundles) {
    dv.setUint32(o, b.length, true);
    section.set(b, o + 4);
    o += 4 + b.length;
  }
  // Every field is read on both sides; sink keeps the reads alive without bigint arithmetic, which
  // would cost as much as the reads themselves and blur the ratio.
  let sink = 0;
  const js = (): Uint8Array => {
    const n = dv.getUint32(0, true);
    const hashes: Uint8Array[] = new Array(n);
    let at = 4;
    for (let i = 0; i < n; i++) {
      const len = dv.getUint32(at, true);
      const bytes = section.subarray(at + 4, at + 4 + len);
      at += 4 + len;
      hashes[i] = bundleHash(bytes);
      const d = decodeBundle(bytes);
      const expiry = d.expiryTimestamp !== undefined && d.expiryTimestamp < d.validUntil ? d.expiryTimestamp : d.validUntil;
      if (d.nonce < 0n || expiry < 0n) throw new Error('unreachable');
      sink += d.signature.length + (d.senderPubkey?.length ?? 0);
    }
    return transactionsRoot(hashes);
  };
  const wasm = (): Uint8Array => {
    const s = core.scanBundles(section);
    let at = 4;
    for (let i = 0; i < s.count; i++) {
      const len = dv.getUint32(at, true);
      const bytes = section.subarray(at + 4, at + 4 + len);
      at += 4 + len;
      if (s.status(i) !== 0) throw new Error('bench: scan_bundles refused a bundle');
      if (s.nonce(i) < 0n || s.expiry(i) < 0n) throw new Error('unreachable');
      sink += s.signature(i, bytes).length + (s.pubkey(i, bytes)?.length ?? 0);
    }
    return s.transactionsRoot;
  };
  if (Buffer.compare(js(), wasm()) !== 0) throw new Error('bench: scan_bundles and the JS transactions root differ');
  // The producer's part: the root alone from hashes it already has (transactions_root).
  const hashes = bundles.map(bundleHash);
  if (Buffer.compare(transactionsRoot(hashes), core.transactionsRoot(hashes)) !== 0) throw new Error('bench: transactions_root differs');
  const jsTimes: number[] = [];
  const wasmTimes: number[] = [];
  const rootJsTimes: number[] = [];
  const rootWasmTimes: number[] = [];
  for (let round = 0; round < 120; round++) {
    const t0 = performance.now();
    js();
    const t1 = performance.now();
    wasm();
    const t2 = performance.now();
    transactionsRoot(hashes);
    const t3 = performance.now();
    core.transactionsRoot(hashes);
    const t4 = performance.now();
    if (round >= 20) {
      jsTimes.push(t1 - t0);
      wasmTimes.push(t2 - t1);
      rootJsTimes.push(t3 - t2);
      rootWasmTimes.push(t4 - t3);
    }
  }
  if (sink === 0) throw new Error('bench: nothing read');
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const jsMs = median(jsTimes);
  const wasmMs = median(wasmTimes);
  const rootJsMs = median(rootJsTimes);
  const rootWasmMs = median(rootWasmTimes);
  const ms = (v: number) => Math.round(v * 1000) / 1000;
  return [
    {
      name: 'import: 1,000-bundle block, JS bundleHash + transactionsRoot + decodeBundle',
      value: ms(jsMs),
      unit: 'ms',
      note: `median of ${jsTimes.length} rounds; hash-wasm Blake3 per bundle, 2,000 more for the root`,
    },
    {
      name: 'import: 1,000-bundle block, scan_bundles (one wasm call, rows read)',
      value: ms(wasmMs),
      unit: 'ms',
      note: `median of ${wasmTimes.length} rounds; same section, same root (checked)`,
    },
    { name: 'import: JS / scan_bundles per 1,000-bundle block', value: Math.round((jsMs / wasmMs) * 10) / 10, unit: '×', note: 'same run, alternating' },
    {
      name: 'produce: transactions root of 1,000 hashes, JS transactionsRoot / transactions_root',
      value: Math.round((rootJsMs / rootWasmMs) * 10) / 10,
      unit: '×',
      note: `JS ${ms(rootJsMs)} ms, core ${ms(rootWasmMs)} ms (medians, same run)`,
    },
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const r of await benchCore()) console.log(`${r.name}: ${r.value.toLocaleString('en-US')} ${r.unit}${r.note ? ` (${r.note})` : ''}`);
}
