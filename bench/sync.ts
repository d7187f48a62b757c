import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Chain } from '../src/chain/chain.js';
import { StateView } from '../src/chain/state-view.js';
import type { ValidatorIdentity } from '../src/chain/producer.js';
import { bundleHash } from '../src/codec/bundle.js';
import { decodeBlock } from '../src/chain/block.js';
import { deriveAccount } from '../src/codec/address.js';
import { initHashing } from '../src/codec/hash.js';
import { generateEd25519 } from '../src/codec/keys.js';
import { SignatureVerifierPool } from '../src/codec/verify-pool.js';
import { Core } from '../src/core/core.js';
import type { Logger } from '../src/logger.js';
import { P2PNetwork } from '../src/p2p/network.js';
import { BlockSync } from '../src/p2p/sync.js';
import { ChainStore } from '../src/storage/chain-store.js';
import type { BenchResult } from './rpc.js';

/**
 * Sync throughput (issue 5 item 3; goal ≥ 200 blocks/s of 1,000 transfers): a fresh in-process
 * node syncs over real libp2p QUIC on 127.0.0.1 from a peer process holding the blocks,
 * re-executing and committing each. The baseline is the core alone applying and committing the same blocks
 * (no decoding of the wire, no receipts, no storage), measured in the same run.
 */

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export interface LocalChain {
  chain: Chain;
  store: ChainStore;
  state: StateView;
  dataDir: string;
  validator: ValidatorIdentity;
  close(): Promise<void>;
}

/** A chain as src/node.ts builds it, without RPC or p2p, in a fresh temp dir. */
export async function openLocalChain(options: { validator?: ValidatorIdentity; genesisValidators: Uint8Array[]; maxTxsPerBlock?: number; logger?: Logger }): Promise<LocalChain> {
  await initHashing();
  const dataDir = await mkdtemp(join(tmpdir(), 'ntv-sync-'));
  const store = new ChainStore(join(dataDir, 'db'));
  await store.open();
  const state = new StateView();
  const createCore = () => Core.create(state);
  const verifier = new SignatureVerifierPool({ size: 1 });
  const validator = options.validator ?? identity();
  const chain = await Chain.open({
    network: 'testnet', gasPrice: 10n, blockTimeMs: 60_000, minBlockIntervalMs: 1, maxTxsPerBlock: options.maxTxsPerBlock ?? 1000,
    mempoolCapacity: 1_000_000, inclusionTimeoutMs: 600_000, genesisValidators: options.genesisValidators,
  }, { core: await createCore(), createCore, store, state, validator, verifier, logger: options.logger ?? quiet });
  return {
    chain, store, state, dataDir, validator,
    async close() {
      await chain.stop();
      await verifier.close();
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function identity(): ValidatorIdentity {
  const { seed, publicKey } = generateEd25519();
  return { seed, publicKey, address: deriveAccount(publicKey) };
}

/** Fill a chain with `blocks` blocks of `perBlock` unsigned testnet transfers from the system accounts. */
export async function produceTransferBlocks(local: LocalChain, blocks: number, perBlock: number): Promise<void> {
  const { chain } = local;
  const recipients = Array.from({ length: 64 }, () => deriveAccount(generateEd25519().publicKey));
  const senders = [1, 2, 3, 4].map((i) => { const a = new Uint8Array(32); a[31] = i; return a; });
  const target = chain.height + blocks;
  chain.start();
  // Keep about two blocks' worth waiting: enough to fill every block, short per-account queues.
  const pending: Array<Promise<unknown>> = [];
  for (let i = 0; i < blocks * perBlock; i++) {
    const { included } = chain.enqueueOperations(senders[i % senders.length]!, [
      { type: 'Transfer', to: recipients[i % recipients.length]!, token: new Uint8Array(32), amount: 1n },
    ]);
    pending.push(included);
    if (pending.length >= 2 * perBlock) await Promise.all(pending.splice(0, perBlock));
  }
  await Promise.all(pending);
  while (chain.height < target) await new Promise((r) => setTimeout(r, 20));
  await chain.stop();
}

export async function benchSync(options: { blocks?: number; perBlock?: number } = {}): Promise<BenchResult[]> {
  const blocks = options.blocks ?? 200;
  const perBlock = options.perBlock ?? 1000;
  // The source is the single genesis validator; the follower names it too, so they share the genesis.
  const validator = identity();
  const source = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: perBlock });
  const follower = await openLocalChain({ genesisValidators: [source.validator.publicKey], maxTxsPerBlock: perBlock });
  const nets: P2PNetwork[] = [];
  let peer: { multiaddr: string; stop(): Promise<void> } | undefined;
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
    // The peer serves from its own process, as a peer does: the follower's event loop carries only
    // its own side of the transfer (bench/sync-peer.ts).
    await source.chain.stop();
    await source.store.close();
    peer = await startPeer(source.dataDir, source.chain.chainId, genesis);
    const client = await P2PNetwork.create({
      listenPort: 0, host: '127.0.0.1', genesisHash: genesis, chainId: source.chain.chainId, enforceValidatorAllowlist: false, logger: quiet,
      dataDir: follower.dataDir, bootnodes: [peer.multiaddr], head: () => ({ height: follower.chain.height, hash: follower.chain.headHeader.hash }),
    });
    nets.push(client);
    await client.start();
    while (client.bestPeerHeight() === undefined) await new Promise((r) => setTimeout(r, 10));

    const sync = new BlockSync({}, { chain: follower.chain, network: client, logger: quiet });
    const phases = recordPhases(follower);
    const profile = process.env.NTV_SYNC_PROFILE ? await startProfile() : undefined;
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const elu0 = performance.eventLoopUtilization();
    const t1 = performance.now();
    sync.start();
    while (follower.chain.height < stored.length) await new Promise((r) => setTimeout(r, 2));
    const syncSeconds = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const threads = threadCpu();
    const busy = performance.eventLoopUtilization(elu0).utilization;
    await profile?.(process.env.NTV_SYNC_PROFILE!);
    await sync.stop();
    if (Buffer.compare(follower.chain.headHeader.stateRoot, source.chain.headHeader.stateRoot) !== 0) throw new Error('synced state root differs');
    // The catch-up left the transaction lookup index behind (docs/storage.md): the writer thread
    // builds it once no catch-up block has come for a while. Timed here, and checked on a bundle.
    const lookupStart = performance.now();
    const lookupFrom = follower.store.lookupHeight;
    while (follower.store.lookupHeight < stored.length) {
      if (follower.store.lookupFailure) throw new Error(`lookup index: ${follower.store.lookupFailure}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const lookupSeconds = (performance.now() - lookupStart) / 1000;
    const probe = decodeBlock(stored[stored.length >> 1]!, bundleHash).bundleHashes[0]!;
    if (!(await follower.chain.receiptByHash(probe))) throw new Error('a synced bundle is not found by hash after the lookup index was built');

    const syncRate = stored.length / syncSeconds;
    const coreRate = stored.length / coreSeconds;
    const note = `${stored.length} blocks, ${transfers.toLocaleString('en-US')} transfers over QUIC; core alone ${Math.round(coreRate)} blocks/s; ratio ${(syncRate / coreRate).toFixed(2)}; ${phases.summary(syncSeconds * 1000)}; the syncing process used ${((cpu.user + cpu.system) / 1000 / stored.length).toFixed(1)} ms of CPU a block (all its threads), its event loop busy ${Math.round(busy * 100)} % of the time${threadSummary(threads0, threads, stored.length)}`;
    return [
      { name: `sync: blocks of ${perBlock} transfers`, value: Math.round(syncRate), unit: 'blocks/s', note },
      { name: 'sync: transfers imported', value: Math.round(transfers / syncSeconds), unit: 'tx/s', note: 'goal: 200 blocks/s × 1,000 transfers' },
      { name: 'sync vs core apply+commit', value: Math.round((syncRate / coreRate) * 100) / 100, unit: 'ratio', note: 'same blocks, same run' },
      { name: 'sync: lookup index built behind the catch-up', value: Math.round((stored.length - lookupFrom) / lookupSeconds), unit: 'blocks/s',
        note: `position records, address history and token transfers of ${stored.length - lookupFrom} blocks in ${Math.round(lookupSeconds * 1000)} ms after the catch-up, its 250 ms idle wait included (docs/storage.md "The transaction lookup index")` },
      { name: 'sync vs local production', value: Math.round((syncRate / (stored.length / produceSeconds)) * 100) / 100, unit: 'ratio',
        note: `the source produced the same blocks at ${Math.round(stored.length / produceSeconds)} blocks/s (fed through its mempool)` },
    ];
  } finally {
    for (const n of nets) await n.stop();
    await peer?.stop();
    await follower.close();
    await source.close();
  }
}

/**
 * Where a synced block's time goes: the mean milliseconds per block of each import phase (the
 * timings of the chain's 'block' events: waiting for a write slot, verifying, executing, committing
 * in the core, building receipts, indexes), and how long after its execution each block was
 * durable (the writer thread builds and writes it beside the next blocks' execution).
 */
function recordPhases(local: LocalChain): { summary(totalMs: number): string } {
  const sums = new Map<string, number>();
  let blocks = 0;
  let latency = 0;
  local.chain.on('block', ({ timings }) => {
    blocks++;
    latency += timings.write ?? 0;
    for (const [phase, ms] of Object.entries(timings)) if (phase !== 'write') sums.set(phase, (sums.get(phase) ?? 0) + ms);
  });
  const writes0 = local.store.writeStats;
  return {
    summary(totalMs) {
      const perBlock = (ms: number) => (ms / Math.max(1, blocks)).toFixed(1);
      const phases = [...sums].map(([phase, ms]) => `${phase} ${perBlock(ms)}`).join(', ');
      const stats = local.store.writeStats;
      const groups = stats.groups - writes0.groups;
      const grouped = stats.blocks - writes0.blocks;
      return `ms per block: ${perBlock(totalMs)} in all; ${phases}; each block durable ${perBlock(latency)} ms after its execution, `
        + `on the writer thread (${groups} synced batches of ${(grouped / Math.max(1, groups)).toFixed(1)} blocks)`;
    },
  };
}

/**
 * CPU milliseconds of this process's threads by kind, from /proc (Linux; undefined elsewhere):
 * `main`, `quic` (libp2p-quic's tokio threads), `level` (libuv's pool: LevelDB's writes) and `other`
 * (the block writer's thread, V8's GC and compiler threads: Node does not name them). Ticks are
 * USER_HZ, 100 a second on Linux.
 */
function threadCpu(): Map<string, number> | undefined {
  const kinds = new Map<string, number>();
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  for (const tid of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (Number(fields[11]) + Number(fields[12])) * 10;
    const kind = Number(tid) === process.pid ? 'main' : comm.startsWith('tokio') ? 'quic' : comm.startsWith('libuv') ? 'level' : 'other';
    kinds.set(kind, (kinds.get(kind) ?? 0) + ms);
  }
  return kinds;
}

function threadSummary(before: Map<string, number> | undefined, after: Map<string, number> | undefined, blocks: number): string {
  if (!before || !after) return '';
  const perBlock = (kind: string) => (((after.get(kind) ?? 0) - (before.get(kind) ?? 0)) / blocks).toFixed(1);
  return `; CPU ms a block by thread: main ${perBlock('main')}, QUIC ${perBlock('quic')}, LevelDB ${perBlock('level')}, other ${perBlock('other')} (block writer, V8 GC and compiler)`;
}

/** The serving peer's process (bench/sync-peer.ts), once it listens. */
async function startPeer(dataDir: string, chainId: number, genesis: Uint8Array): Promise<{ multiaddr: string; stop(): Promise<void> }> {
  const script = fileURLToPath(new URL('./sync-peer.js', import.meta.url));
  const child = spawn(process.execPath, [script, dataDir, String(chainId), Buffer.from(genesis).toString('hex')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const multiaddr = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`sync peer exited with ${code} before listening`)));
  });
  return {
    multiaddr,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** CPU profile of the sync phase alone (NTV_SYNC_PROFILE=<file>), for tuning. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

if (process.argv[1]?.endsWith('bench/sync.js')) {
  for (const r of await benchSync()) console.log(`${r.name}: ${r.value} ${r.unit} (${r.note ?? ''})`);
}
