// The commit phase of a 10,000-transfer block on the main thread (docs/performance.md "Changes
// measured"): the core's commit (state root and its writes), the change set (state history), the
// holder index ops, the packing for the writer thread and the writes into the StateView, as src/chain/producer.ts and
// src/chain/pipeline/4-write.ts + notify.ts run them. With `--against <dir>` (another checkout's
// tsc output, e.g. main's `dist`), that build's path runs on the same blocks, alternating block by
// block with this one, each with its own core and StateView in the same state.
//
// With `--write`, each build also hands the block to a ChainStore of its own (its writer thread, a
// fresh database in a temp directory) and times hand-over → durable, the block writer alone with no
// other load: the core's state writes, 10,000 bundle hashes and a block's worth of bytes; 300 ms idle
// after each, as between blocks, for what the writer does when idle.
//
// Runnable alone after tsc: `node dist/bench/commit-phase.js [--against /path/to/main/dist] [--blocks 10] [--write]`.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { addr, ctxAt, transfer } from './core.js';
import { NTV_MINT } from '../src/abi/constants.js';

interface Path {
  name: string;
  /** one block: apply (untimed), then the timed commit phase; returns ms and the state root */
  block(b: number): { ms: number; parts: number[]; root: string };
  /** with --write: the block just committed, handed to this build's ChainStore; ms until durable, and the writer's timings */
  write?(b: number): Promise<{ ms: number; timings?: Record<string, number> }>;
  /** the block is done with (written too, with --write): its output buffer back to the pool, as the node gives it */
  release(): void;
  close(): Promise<void>;
}

const ACCOUNTS = 20_000;
const BLOCK = 10_000;
const TK1 = new Uint8Array(32).fill(0x11);

type Mod = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function path(name: string, dist: string, blocks: ReturnType<typeof makeBlocks>, write: boolean): Promise<Path> {
  const { Core }: Mod = await import(pathToFileURL(`${dist}/src/core/core.js`).href);
  const { StateView }: Mod = await import(pathToFileURL(`${dist}/src/chain/state-view.js`).href);
  const { Indexer }: Mod = await import(pathToFileURL(`${dist}/src/chain/indexer.js`).href);
  const { packBlockWrite }: Mod = await import(pathToFileURL(`${dist}/src/storage/block-batch.js`).href);
  // A build with the output pool gives each block's buffer back once it is applied, as the node does.
  const pool: Mod = await import(pathToFileURL(`${dist}/src/core/output-pool.js`).href).catch(() => ({}));
  const state = new StateView();
  const core = await Core.create(state);
  const indexer = new Indexer({}, undefined, state);
  // The change set (state history, on by default) as pipeline/4-write.ts takes it; a build whose
  // recorder hands its key strings on (`keysOf`, `durable`'s answer) gets them passed along.
  const { ChangeSetRecorder }: Mod = await import(pathToFileURL(`${dist}/src/chain/change-sets.js`).href).catch(() => ({}));
  const recorder = ChangeSetRecorder ? new ChangeSetRecorder(state) : undefined;
  // The node's own commit: packed where this build has it, objects otherwise.
  const commit = () => (typeof core.commitBlockPacked === 'function' ? core.commitBlockPacked() : core.commitBlock());
  core.genesis(blocks.genesis);
  state.apply(core.commitBlock().writes);
  core.applyBlock(ctxAt(1), blocks.reveal);
  state.apply(core.commitBlock().writes);
  let last: { root: Uint8Array; writes: unknown } | undefined;
  const dir = write ? await mkdtemp(join(tmpdir(), 'ntv-bench-write-')) : undefined;
  const { ChainStore }: Mod = await import(pathToFileURL(`${dist}/src/storage/chain-store.js`).href);
  const store = dir ? new ChainStore(join(dir, 'db')) : undefined;
  await store?.open();
  return {
    name,
    release() {
      if (pool.releaseOutputBuffer && state.ownsValues) pool.releaseOutputBuffer((last!.writes as { bytes: Uint8Array }).bytes.buffer);
    },
    async close() {
      await store?.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    },
    ...(store && {
      async write(b: number) {
        const t0 = performance.now();
        const timings = await store.commitBlocks([{ height: 2 + b, hash: last!.root, block: blocks.bytes, bundleHashes: blocks.hashes[b]!, state: last!.writes }]);
        const ms = performance.now() - t0;
        await new Promise((resolve) => setTimeout(resolve, 300));
        return { ms, timings };
      },
    }),
    block(b) {
      core.applyBlock(ctxAt(2 + b), blocks.blocks[b]!);
      const t0 = performance.now();
      const { stateRoot, writes } = commit();
      last = { root: stateRoot, writes };
      const t1 = performance.now();
      recorder?.record(writes);
      const t5 = performance.now();
      indexer.balanceIndexOps(2 + b, writes, recorder?.keysOf?.(writes));
      const t2 = performance.now();
      packBlockWrite({ height: 2 + b, hash: stateRoot, block: new Uint8Array(0), bundleHashes: [], state: writes });
      const t3 = performance.now();
      state.apply(writes, recorder?.durable(writes) ?? undefined);
      indexer.durable(2 + b);
      const t4 = performance.now();
      return { ms: t4 - t0, parts: [t1 - t0, t2 - t5, t3 - t2, t4 - t3, t5 - t1], root: Buffer.from(stateRoot).toString('hex') };
    },
  };
}

function makeBlocks(count: number) {
  const genesis = {
    chainId: 1618032n,
    timestamp: 1_767_225_600n,
    tokens: [
      { mint: NTV_MINT, name: 'Native', symbol: 'NTV', decimals: 9, kind: 0, creator: new Uint8Array(32).fill(0xff) },
      { mint: TK1, name: 'Token', symbol: 'TK1', decimals: 6, kind: 2, creator: new Uint8Array(32).fill(0xff) },
    ],
    balances: [] as Array<{ account: Uint8Array; mint: Uint8Array; amount: bigint }>,
    reservedSymbols: [],
  };
  for (let i = 0; i < ACCOUNTS; i++) {
    genesis.balances.push({ account: addr(i), mint: NTV_MINT, amount: 10n ** 18n }, { account: addr(i), mint: TK1, amount: 10n ** 15n });
  }
  const nonces = new Array<bigint>(ACCOUNTS).fill(0n);
  const reveal = Array.from({ length: ACCOUNTS }, (_, i) => transfer(i, (i * 7919 + 1) % ACCOUNTS, nonces[i]++, NTV_MINT, true));
  const blocks = [];
  let cursor = 0;
  let seed = 12345;
  for (let b = 0; b < count; b++) {
    const block = [];
    for (let k = 0; k < BLOCK; k++) {
      const from = cursor;
      cursor = (cursor + 1) % ACCOUNTS;
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      block.push(transfer(from, seed % (ACCOUNTS + 5_000), nonces[from]++, seed & 1 ? NTV_MINT : TK1, false));
    }
    blocks.push(block);
  }
  // for --write: a block's worth of bytes (10,000 transfers are ~1.6 MB) and its bundle hashes
  const bytes = new Uint8Array(1_600_000).map((_, i) => (i * 31) & 0xff);
  const hashes = blocks.map((_, b) => {
    const out = new Uint8Array(BLOCK * 32);
    for (let i = 0; i < out.length; i++) {
      seed = (seed * 1103515245 + 12345 + b) & 0x7fffffff;
      out[i] = seed >>> 16;
    }
    return out;
  });
  return { genesis, reveal, blocks, bytes, hashes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function benchCommitPhase(opts: { against?: string; blocks?: number; write?: boolean } = {}): Promise<Record<string, number>> {
  const count = opts.blocks ?? 10;
  const blocks = makeBlocks(count);
  const here = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
  const write = opts.write ?? false;
  const paths = [await path('this build', here, blocks, write)];
  if (opts.against) paths.push(await path('against', opts.against, blocks, write));
  const times: number[][] = paths.map(() => []);
  const writes: Array<Array<{ ms: number; timings?: Record<string, number> }>> = paths.map(() => []);
  const parts: number[][][] = paths.map(() => [[], [], [], [], []]);
  for (let b = 0; b < count; b++) {
    // Alternate which path goes first, so neither always follows the other's garbage.
    const order = b % 2 ? [...paths.keys()].reverse() : [...paths.keys()];
    const roots = new Set<string>();
    for (const p of order) {
      const { ms, parts: split, root } = paths[p]!.block(b);
      if (paths[p]!.write) writes[p]!.push(await paths[p]!.write!(b));
      paths[p]!.release();
      times[p]!.push(ms);
      split.forEach((x, k) => parts[p]![k]!.push(x));
      roots.add(root);
    }
    if (roots.size !== 1) throw new Error(`commit-phase bench: the builds' roots differ at block ${2 + b}`);
  }
  // The first two blocks warm up.
  const out: Record<string, number> = {};
  paths.forEach((p, i) => {
    out[p.name] = median(times[i]!.slice(2));
    ['core commit + decode', 'holder index ops', 'pack for the writer', 'StateView apply', 'change set'].forEach((part, k) => (out[`${p.name}: ${part}`] = median(parts[i]![k]!.slice(2))));
    if (write) {
      const timed = writes[i]!.slice(2);
      out[`${p.name}: hand-over to durable (the writer thread alone)`] = median(timed.map((w) => w.ms));
      // the writer thread's own account (WriterTimings): build, seal, files, level
      for (const part of ['build', 'seal', 'files', 'level']) out[`${p.name}: writer ${part}`] = median(timed.map((w) => w.timings?.[part] ?? NaN));
    }
  });
  for (const p of paths) await p.close();
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const result = await benchCommitPhase({ against: arg('--against'), blocks: Number(arg('--blocks') ?? 10), write: process.argv.includes('--write') });
  for (const [name, ms] of Object.entries(result)) console.log(`commit phase of a 10,000-transfer block, ${name}: ${ms.toFixed(1)} ms (median)`);
}
