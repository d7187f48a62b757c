import { PerformanceObserver, constants } from 'node:perf_hooks';
import { fromHex, toHex } from '../src/codec/hash.js';
import { P2PNetwork } from '../src/p2p/network.js';
import { BlockSync } from '../src/p2p/sync.js';
import { openLocalChain, quiet, type LocalChain } from '../testkit/local-chain.js';
import { runQueueWaitMs, threadCpu, threadSummary } from '../testkit/proc-stat.js';

/**
 * The syncing node of the sync benchmark (bench/sync.ts) as a fresh process of its own, as a node
 * that joins is: it opens an empty chain with the source's genesis, dials the serving peer
 * (bench/sync-peer.ts) and syncs to its head, then waits for the transaction lookup index the
 * catch-up left behind. Its heap holds nothing but its own chain: the benchmark's process also holds
 * the source chain it produced and every stored block, whose garbage collection a node never pays.
 * Argument: one JSON object, FollowerArgs. Prints one JSON line, FollowerResult, and exits.
 */

export interface FollowerArgs {
  genesisValidator: string;
  chainId: number;
  genesisHash: string;
  peer: string;
  blocks: number;
  /** also time the first `early` blocks on their own */
  early: number;
  /** a bundle hash of a synced block, looked up once the lookup index is built */
  probe: string;
  /** write a CPU profile of the sync phase here */
  profile?: string;
  /** the serving peer's process: its CPU is read over the same window as this process's */
  peerPid?: number;
}

export interface FollowerResult {
  syncSeconds: number;
  earlySeconds: number;
  cpuMs: number;
  busy: number;
  phases: string;
  threads: string;
  /** the main thread's wait for a core over the sync, ms a block (NaN where schedstat cannot be read) */
  mainWaitMs: number;
  /** the main thread's garbage collections over the sync, by kind */
  gc: string;
  /** the serving peer's CPU over the sync, all its threads (NaN when it could not be read) */
  peerCpuMs: number;
  peerThreads: string;
  lookupSeconds: number;
  lookupBlocks: number;
  stateRoot: string;
}

async function follow(args: FollowerArgs): Promise<FollowerResult> {
  const local = await openLocalChain({ genesisValidators: [fromHex(args.genesisValidator, 32, 'genesis validator')] });
  const network = await P2PNetwork.create({
    listenPort: 0, host: '127.0.0.1', genesisHash: fromHex(args.genesisHash, 32, 'genesis hash'), chainId: args.chainId,
    enforceValidatorAllowlist: false, logger: quiet, dataDir: local.dataDir, bootnodes: [args.peer],
    head: () => ({ height: local.chain.height, hash: local.chain.headHeader.hash }),
  });
  try {
    await network.start();
    while (network.bestPeerHeight() === undefined) await new Promise((r) => setTimeout(r, 10));
    const sync = new BlockSync({}, { chain: local.chain, network, logger: quiet, sync: local.sync });
    const phases = recordPhases(local);
    const profile = args.profile ? await startProfile() : undefined;
    const gc = recordGc();
    const cpu0 = process.cpuUsage();
    const threads0 = threadCpu();
    const wait0 = runQueueWaitMs();
    const peer0 = args.peerPid === undefined ? undefined : threadCpu(args.peerPid);
    const elu0 = performance.eventLoopUtilization();
    const t1 = performance.now();
    sync.start();
    let earlySeconds = 0;
    while (local.chain.height < args.blocks) {
      await new Promise((r) => setTimeout(r, 2));
      if (earlySeconds === 0 && local.chain.height >= args.early) earlySeconds = (performance.now() - t1) / 1000;
    }
    const syncSeconds = (performance.now() - t1) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const threads = threadCpu();
    const wait = runQueueWaitMs();
    const peer = args.peerPid === undefined ? undefined : threadCpu(args.peerPid);
    const busy = performance.eventLoopUtilization(elu0).utilization;
    await profile?.(args.profile!);
    const gcSummary = gc.stop(args.blocks);
    await sync.stop();
    // The catch-up left the transaction lookup index behind (docs/storage.md): the writer thread
    // builds it once no catch-up block has come for a while. Timed here, and checked on a bundle.
    const lookupStart = performance.now();
    const lookupFrom = local.store.lookupHeight;
    while (local.store.lookupHeight < args.blocks) {
      if (local.store.lookupFailure) throw new Error(`lookup index: ${local.store.lookupFailure}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    const lookupSeconds = (performance.now() - lookupStart) / 1000;
    if (!(await local.chain.receiptByHash(fromHex(args.probe, 32, 'probe')))) throw new Error('a synced bundle is not found by hash after the lookup index was built');
    return {
      syncSeconds, earlySeconds, busy, lookupSeconds, lookupBlocks: args.blocks - lookupFrom,
      cpuMs: (cpu.user + cpu.system) / 1000,
      phases: phases.summary(syncSeconds * 1000),
      threads: threadSummary(threads0, threads, args.blocks),
      gc: gcSummary,
      mainWaitMs: wait0 === undefined || wait === undefined ? NaN : (wait - wait0) / args.blocks,
      peerCpuMs: peer0 && peer ? total(peer) - total(peer0) : NaN,
      peerThreads: threadSummary(peer0, peer, args.blocks),
      stateRoot: toHex(local.chain.headHeader.stateRoot),
    };
  } finally {
    await network.stop();
    await local.close();
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
 * The main thread's garbage collections while it syncs, by kind: the scavenges the young
 * generation's churn costs, and the full collections that old-generation growth (or external
 * memory, the blocks' buffers) triggers. Their pauses are the main thread's, so they lengthen every
 * block they fall in.
 */
function recordGc(): { stop(blocks: number): string } {
  const byKind = new Map<string, { count: number; ms: number }>();
  const kinds: Record<number, string> = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge', [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking', [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[(entry as { detail?: { kind: number } }).detail?.kind ?? -1] ?? 'other';
      const k = byKind.get(kind) ?? { count: 0, ms: 0 };
      k.count++;
      k.ms += entry.duration;
      byKind.set(kind, k);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop(blocks) {
      observer.disconnect();
      const all = [...byKind.values()].reduce((ms, k) => ms + k.ms, 0);
      const parts = [...byKind].map(([kind, k]) => `${k.count} ${kind} ${k.ms.toFixed(0)} ms`).join(', ');
      return `main-thread GC ${(all * 1000 / blocks).toFixed(0)} µs a block (${parts || 'none'})`;
    },
  };
}

function total(threads: Map<string, number>): number {
  let ms = 0;
  for (const v of threads.values()) ms += v;
  return ms;
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

process.stdout.write(`${JSON.stringify(await follow(JSON.parse(process.argv[2]!) as FollowerArgs))}\n`);
