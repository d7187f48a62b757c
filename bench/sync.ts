import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bundleHash } from '../src/codec/bundle.js';
import { decodeBlock } from '../src/chain/block.js';
import { toHex } from '../src/codec/hash.js';
import { identity, openLocalChain, produceTransferBlocks } from '../testkit/local-chain.js';
import type { BenchResult } from './rpc.js';
import type { FollowerArgs, FollowerResult } from './sync-follower.js';

/**
 * Sync throughput (issue 5 item 3; goal ≥ 200 blocks/s of 1,000 transfers): a fresh node, a
 * process of its own, syncs over real libp2p QUIC on 127.0.0.1 from a peer process holding the
 * blocks, re-executing and committing each. The baseline is the core alone applying and committing the same blocks
 * (no decoding of the wire, no receipts, no storage), measured in the same run.
 *
 * 600 blocks: a catch-up is the steady state of a node that is behind, and the first ~200 blocks of
 * a fresh process are its warm-up (V8 compiling the import path, the young generation growing).
 * 600 also overflow LevelDB's 64 MB memtable, so the sync pays its flushes and compactions. The
 * first 200 blocks' rate is reported beside it.
 */

export async function benchSync(options: { blocks?: number; perBlock?: number } = {}): Promise<BenchResult[]> {
  const blocks = options.blocks ?? 600;
  const early = Math.min(200, blocks);
  const perBlock = options.perBlock ?? 1000;
  // The source is the single genesis validator; the follower names it too, so they share the genesis.
  const validator = identity();
  const source = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: perBlock });
  let peer: Child | undefined;
  try {
    const p0 = performance.now();
    await produceTransferBlocks(source, blocks, perBlock);
    const produceSeconds = (performance.now() - p0) / 1000;
    const heights = Array.from({ length: source.chain.height }, (_, i) => i + 1);
    const stored = (await source.store.getBlocks(heights)).map((b) => b!);
    const transfers = stored.reduce((n, b) => n + decodeBlock(b, bundleHash).bundles.length, 0);

    // Baseline: the core alone over the same blocks (from a fresh genesis).
    const baseline = await openLocalChain({ genesisValidators: [source.validator.publicKey], maxTxsPerBlock: perBlock });
    const core = baseline.chain.executionCore;
    const t0 = performance.now();
    for (const bytes of stored) {
      const { header, bundles } = decodeBlock(bytes, bundleHash);
      core.applyBlock({
        height: BigInt(header.height), timestamp: BigInt(header.timestamp), proposer: header.proposer, gasPrice: BigInt(header.baseFee),
        chainId: BigInt(header.chainId), allowUnsigned: true, blockGasLimit: BigInt(header.gasLimit), ...({ missed: header.missed ?? [] }),
      }, bundles.map((b) => ({ bytes: b, auth: 0 })));
      const { stateRoot } = core.commitBlock();
      if (Buffer.compare(stateRoot, header.stateRoot) !== 0) throw new Error(`baseline state root differs at ${header.height}`);
    }
    const coreSeconds = (performance.now() - t0) / 1000;
    await baseline.close();

    const genesis = (await source.chain.blockByHeight(0))!.header.hash;
    const sourceRoot = toHex(source.chain.headHeader.stateRoot);
    const probe = toHex(decodeBlock(stored[stored.length >> 1]!, bundleHash).bundleHashes[0]!);
    const chainId = source.chain.chainId;
    // The peer and the syncing node are processes of their own, as they are on a network: the
    // peer serves from the data dir the source wrote (bench/sync-peer.ts), and the syncing node is
    // a fresh process (bench/sync-follower.ts) that carries only its own side.
    await source.chain.stop();
    await source.store.close();
    peer = await spawnChild('sync-peer.js', [source.dataDir, String(chainId), toHex(genesis)]);
    const args: FollowerArgs = {
      genesisValidator: toHex(source.validator.publicKey), chainId, genesisHash: toHex(genesis), peer: peer.line,
      blocks: stored.length, early, probe, peerPid: peer.pid, ...(process.env.NTV_SYNC_PROFILE ? { profile: process.env.NTV_SYNC_PROFILE } : {}),
    };
    const follower = await spawnChild('sync-follower.js', [JSON.stringify(args)]);
    const r = JSON.parse(follower.line) as FollowerResult;
    await follower.stop();
    if (r.stateRoot !== sourceRoot) throw new Error(`synced state root ${r.stateRoot} differs from the source's ${sourceRoot}`);

    const syncRate = stored.length / r.syncSeconds;
    const coreRate = stored.length / coreSeconds;
    const note = `${stored.length} blocks, ${transfers.toLocaleString('en-US')} transfers over QUIC into a fresh node process; core alone ${Math.round(coreRate)} blocks/s; ratio ${(syncRate / coreRate).toFixed(2)}; ${r.phases}; the syncing process used ${(r.cpuMs / stored.length).toFixed(1)} ms of CPU a block (all its threads), its event loop busy ${Math.round(r.busy * 100)} % of the time${r.threads}; ${Number.isNaN(r.mainWaitMs) ? '' : `the main thread waited ${r.mainWaitMs.toFixed(1)} ms a block for a core (runnable, another thread on it: schedstat); `}${r.gc}; the serving peer used ${(r.peerCpuMs / stored.length).toFixed(1)} ms a block over the same time${r.peerThreads.replace('; CPU', ', CPU')}`;
    return [
      { name: `sync: blocks of ${perBlock} transfers`, value: Math.round(syncRate), unit: 'blocks/s', note },
      { name: 'sync: transfers imported', value: Math.round(transfers / r.syncSeconds), unit: 'tx/s', note: 'goal: 200 blocks/s × 1,000 transfers' },
      { name: `sync: the first ${early} blocks`, value: Math.round(early / r.earlySeconds), unit: 'blocks/s', note: 'the same sync from its start: the fresh process warming up (V8 compiling the import path, the young generation growing)' },
      { name: 'sync vs core apply+commit', value: Math.round((syncRate / coreRate) * 100) / 100, unit: 'ratio', note: 'same blocks, same run; goal ≥ 0.6 (issue 27)' },
      { name: 'sync: lookup index built behind the catch-up', value: Math.round(r.lookupBlocks / r.lookupSeconds), unit: 'blocks/s',
        note: `position records, address history and token transfers of ${r.lookupBlocks} blocks in ${Math.round(r.lookupSeconds * 1000)} ms after the catch-up, its 250 ms idle wait included (docs/storage.md "The transaction lookup index")` },
      { name: 'sync vs local production', value: Math.round((syncRate / (stored.length / produceSeconds)) * 100) / 100, unit: 'ratio',
        note: `the source produced the same blocks at ${Math.round(stored.length / produceSeconds)} blocks/s (fed through its mempool)` },
    ];
  } finally {
    await peer?.stop();
    await source.close();
  }
}

interface Child {
  pid: number;
  /** the first line it printed */
  line: string;
  stop(): Promise<void>;
}

/**
 * A bench script of this folder as a child process, once it has printed its first line (the
 * peer's multiaddr, or the follower's result). Its stderr is the bench's.
 */
async function spawnChild(script: string, args: string[]): Promise<Child> {
  // For profiling: NTV_SYNC_NODE_FLAGS passes Node flags to the syncing process (e.g. --cpu-prof,
  // which profiles its writer thread too), as NTV_BENCH_NODE_FLAGS does for bench nodes.
  const flags = script === 'sync-follower.js' ? (process.env.NTV_SYNC_NODE_FLAGS ?? '').split(' ').filter(Boolean) : [];
  const child = spawn(process.execPath, [...flags, fileURLToPath(new URL(`./${script}`, import.meta.url)), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')).trim());
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before its first line`)));
  });
  return {
    pid: child.pid!,
    line,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1]?.endsWith('bench/sync.js')) {
  for (const r of await benchSync()) console.log(`${r.name}: ${r.value} ${r.unit} (${r.note ?? ''})`);
}
