import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Signer } from '../src/codec/keys.js';
import { BenchNode } from './bench-node.js';
import { generatedAddress } from './elastic-state-gen.js';
import { elasticSettings, PeakMemory, seedState, send, senderNonces } from './elastic-state.js';
import { fullBlockMilliseconds, fundAccounts, presignTransfers, submitBatches } from './node.js';
import { perThreadCpu, procStat, threadTable } from '../testkit/proc-stat.js';
import { loadTestJsonRpc, type BenchResult } from './rpc.js';
import { round3 } from './stats.js';

/**
 * Cost against state size (issue 45 item 2, docs/performance.md "Cost against state size"): for
 * each N, a state of N funded accounts is built once, directly (bench/elastic-state.ts seedState:
 * cold records, the state tree recomputed, a block carrying the new root) and copied; a node with
 * the whole state in memory and a node with --elastic-state each start on a copy and measure, in
 * one run:
 * - start-up: spawn to the first JSON-RPC answer (the in-memory node loads every record);
 * - the 10,000-transfer block: 30,000 unsigned one-transfer bundles from the eight system senders
 *   to random accounts of the N (what makes a block's cost grow with the state: its reads and
 *   its state-tree buckets are spread over the whole state), the node's blocks of ≥ 2,000 bundles
 *   from its log, per 10,000 bundles: the core's apply + commit, and execution → durable;
 * - a signed transfer's CPU: every thread of the node (testkit/proc-stat.ts) over 8,000 signed
 *   transfers from 2,000 funded keys to random accounts of the N, submit → in a block;
 * - svc_getBalance: requests/s over 2,000 random accounts of the N, and the node's CPU a request;
 * - resident memory: peak VmRSS and RssAnon (the node's own) over the run; the elastic node's
 *   RssAnon against its bound (hot tier + 400 MB + 2 × --elastic-core-mb, docs/operations.md).
 * Each figure is stated as a ratio against the smallest N's run of the same mode in this run.
 *
 * The counts: NTV_BENCH_STATE_SIZE_ACCOUNTS, comma-separated (default 10000,1000000,5000000, the
 * issue's; a quick run: 10000,100000,300000). For a closer look at one mode:
 * NTV_BENCH_STATE_SIZE_MODES=memory (or elastic; no ratio rows then for the other), and
 * NTV_BENCH_STATE_SIZE_LOG_DIR=<dir> keeps each node's -v log there (with NTV_BENCH_NODE_FLAGS=--trace-gc,
 * its garbage collections beside the block lines).
 */

const FLAGS = [
  '--rpc-rate-limit', '0', '--block-time', '2', '--mempool-max-queued', '100000',
  '--mempool-max-queued-per-account', '100000', '--mempool-max-nonce-gap', '1000000',
];
/** three blocks' worth at the default --max-txs-per-block of 10,000 bundles */
const BLOCK_TRANSFERS = 30_000;
/** batches of 500 in flight at once: blocks follow every 500 ms under load (spec §1.8), so they fill to the 10,000 cap */
const BLOCK_CONNECTIONS = 40;
const SIGNERS = 2_000;
const SIGNED_ROUNDS = 4;
const SIGNED_BATCH = 500;
const SIGNED_CONNECTIONS = 20;
const READ_ACCOUNTS = 2_000;
const READ_SECONDS = 5;
const READ_CONNECTIONS = 50;

interface Measured {
  startMs: number;
  blockCoreMs: number;
  blockNodeMs: number;
  blocks: number;
  blockPhases: string;
  blockWriter: string;
  blockCpuMs: number;
  blockThreads: string;
  blockCpu: string;
  signedCpuUs: number;
  signedThreads: string;
  signedFailures: number;
  readRps: number;
  readCpuUs: number;
  readErrors: number;
  startRssMb: number;
  peakRssMb: number;
  peakAnonMb: number;
  storage: string;
}

type Mode = 'memory' | 'elastic';
interface Run { accounts: number; memory?: Measured; elastic?: Measured; boundMb: number; bound: string }

export async function benchStateSize(options: { accounts?: number[] } = {}): Promise<BenchResult[]> {
  const counts = options.accounts ?? (process.env.NTV_BENCH_STATE_SIZE_ACCOUNTS ?? '10000,1000000,5000000').split(',').map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`NTV_BENCH_STATE_SIZE_ACCOUNTS: whole numbers ≥ 1, comma-separated (got ${counts.join(',')})`);
  const modes = (process.env.NTV_BENCH_STATE_SIZE_MODES ?? 'memory,elastic').split(',') as Mode[];
  const log = (line: string) => process.stderr.write(`bench state-size: ${line}\n`);
  const runs: Run[] = [];
  for (const accounts of counts) {
    const dir = await mkdtemp(join(tmpdir(), 'ntv-bench-state-size-'));
    try {
      const source = join(dir, 'source');
      const built = await seedState(source, accounts, 'cold', log);
      log(`${accounts} accounts (${built.records} records, cold) built in ${Math.round(built.ms / 1000)} s`);
      const memoryDir = join(dir, 'memory');
      const elasticDir = join(dir, 'elastic');
      if (modes.includes('memory') && modes.includes('elastic')) await cp(source, memoryDir, { recursive: true });
      await rename(source, modes.includes('elastic') ? elasticDir : memoryDir);
      // The same recipients for both modes: random accounts of the N.
      const pick = () => generatedAddress(Math.floor(Math.random() * accounts));
      const work = {
        blockTargets: Array.from({ length: BLOCK_TRANSFERS }, pick),
        signedTargets: Array.from({ length: SIGNERS * SIGNED_ROUNDS }, pick),
        readTargets: Array.from({ length: READ_ACCOUNTS }, pick),
      };
      const logDir = process.env.NTV_BENCH_STATE_SIZE_LOG_DIR ?? dir;
      const memory = modes.includes('memory') ? await measure('memory', [], memoryDir, join(logDir, `memory-${accounts}.log`), work, log) : undefined;
      await rm(memoryDir, { recursive: true, force: true });
      const settings = elasticSettings(accounts);
      const elastic = modes.includes('elastic') ? await measure('elastic', settings.flags, elasticDir, join(logDir, `elastic-${accounts}.log`), work, log) : undefined;
      runs.push({ accounts, memory, elastic, boundMb: settings.boundMb, bound: `${settings.flags.join(' ')}: ${settings.describe}` });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return rows(runs);
}

async function measure(
  mode: Mode, flags: string[], dataDir: string, logFile: string,
  work: { blockTargets: Uint8Array[]; signedTargets: Uint8Array[]; readTargets: Uint8Array[] }, log: (line: string) => void,
): Promise<Measured> {
  const starting = performance.now();
  const node = await BenchNode.start([...FLAGS, ...flags], logFile, dataDir);
  const startMs = performance.now() - starting;
  const memory = new PeakMemory(node.pid);
  const startRssMb = memory.rss;
  try {
    log(`${mode}: started in ${Math.round(startMs)} ms, RSS ${startRssMb} MB`);

    // 1. The 10,000-transfer blocks: one transfer a bundle, to random accounts of the N.
    const nonces = (await senderNonces(node)).map((n) => (n < 0n ? 0n : n));
    const blockThreads0 = threadTable(node.pid);
    await send(node, nonces, work.blockTargets, 1n, 1, BLOCK_CONNECTIONS);
    // The same blocks in CPU time, every thread of the node (ingest, execution, the write): wall
    // times on this shared machine wait for a core as much as they work (docs/performance.md).
    const blockCpu = perThreadCpu(node.pid, blockThreads0, threadTable(node.pid), work.blockTargets.length / 10_000);
    if (!blockCpu) throw new Error('per-thread CPU needs Linux /proc');
    const blockThreads = `main ${(blockCpu.main / 1000).toFixed(0)}, libuv ${(blockCpu.level / 1000).toFixed(0)}, unnamed largest first ${blockCpu.others.slice(0, 3).map((x) => (x / 1000).toFixed(0)).join(' / ')}`;
    const text = await readFile(logFile, 'utf8');
    const block = fullBlockMilliseconds(text);
    if (block.count === 0) {
      const sizes = text.split('\n').filter((l) => l.includes('"block committed"')).map((l) => (JSON.parse(l) as { bundles: number }).bundles);
      throw new Error(`${mode}: no block of ≥ 2,000 bundles in the node's log (blocks of ${sizes.join(', ')} bundles)`);
    }
    log(`${mode}: block CPU per 10,000 transfers ${(blockCpu.all / 1000).toFixed(0)} ms (${blockThreads})`);
    log(`${mode}: block per 10,000 bundles: core ${block.core.toFixed(1)} ms, to durable ${block.per10k.toFixed(1)} ms (median of ${block.count}; ${block.phases}; writer ${block.writer}; ${block.pool})`);

    // 2. Signed transfers' CPU, every thread of the node, from funded keys to random accounts.
    const signers = Array.from({ length: SIGNERS }, () => Signer.generate());
    await fundAccounts(node, signers, SIGNED_BATCH);
    const rounds = presignTransfers(signers, SIGNED_ROUNDS, (i, n) => work.signedTargets[n * SIGNERS + i]!);
    const batches: string[][] = [];
    for (const round of rounds) for (let i = 0; i < round.length; i += SIGNED_BATCH) batches.push(round.slice(i, i + SIGNED_BATCH));
    const threads0 = threadTable(node.pid);
    const signed = await submitBatches(node, { shared: batches }, SIGNED_CONNECTIONS);
    const total = SIGNERS * SIGNED_ROUNDS;
    const cpu = perThreadCpu(node.pid, threads0, threadTable(node.pid), total);
    if (!cpu) throw new Error('per-thread CPU needs Linux /proc');
    if (signed.failures > total / 100) throw new Error(`${mode}: ${signed.failures} of ${total} signed transfers failed (first: ${signed.firstFailure})`);
    const threads = `main ${cpu.main.toFixed(0)}, unnamed largest first ${cpu.others.slice(0, 4).map((x) => x.toFixed(0)).join(' / ')}, libuv ${cpu.level.toFixed(0)}`;
    log(`${mode}: signed transfer ${cpu.all.toFixed(0)} µs CPU (${threads}); ${signed.failures} failed`);

    // 3. svc_getBalance over random accounts of the N: rate and the node's CPU a request.
    const bodies = work.readTargets.map((a, id) => ({ jsonrpc: '2.0', id, method: 'svc_getBalance', params: ['0x' + Buffer.from(a).toString('hex'), 'NTV'] }));
    const balance = BigInt((await node.call('svc_getBalance', bodies[0]!.params)) as string);
    if (balance <= 0n) throw new Error(`${mode}: a generated account holds no balance`);
    await loadTestJsonRpc({ url: node.url, body: bodies[0], bodies, connections: READ_CONNECTIONS, durationSeconds: 1 });
    const cpu0 = procStat(`/proc/${node.pid}/stat`)?.cpuMs ?? Number.NaN;
    const read = await loadTestJsonRpc({ url: node.url, body: bodies[0], bodies, connections: READ_CONNECTIONS, durationSeconds: READ_SECONDS });
    const readCpuUs = (((procStat(`/proc/${node.pid}/stat`)?.cpuMs ?? Number.NaN) - cpu0) * 1000) / read.requests;
    // A few connection errors or timeouts (autocannon's 10 s) are the loaded machine's; more, or any error reply, is the node's.
    if (read.non2xx > 0 || read.errors + read.timeouts > read.requests / 100) throw new Error(`${mode}: svc_getBalance load: ${read.non2xx} non-2xx, ${read.errors} errors, ${read.timeouts} timeouts in ${read.requests}`);
    const readErrors = read.errors + read.timeouts;
    log(`${mode}: svc_getBalance ${Math.round(read.requestsPerSecond)}/s, ${readCpuUs.toFixed(1)} µs CPU a request${readErrors ? `; ${readErrors} errors or timeouts` : ''}`);

    memory.sample();
    const s = (await node.call('svc_getStorageStats')) as { tiers?: Record<string, { keys: number; hits: number; misses: number }>; coreRecycles?: number };
    const storage = Object.entries(s.tiers ?? {}).map(([name, t]) => `${name} ${t.keys} keys, ${t.hits} hits, ${t.misses} misses`).join('; ');
    log(`${mode}: peak RSS ${memory.rss} MB (anonymous ${memory.anon}); ${storage}`);
    return {
      startMs, blockCoreMs: block.core, blockNodeMs: block.per10k, blocks: block.count, blockPhases: block.phases, blockWriter: block.writer, blockCpu: block.pool, blockCpuMs: blockCpu.all / 1000, blockThreads,
      signedCpuUs: cpu.all, signedThreads: threads, signedFailures: signed.failures, readRps: read.requestsPerSecond, readCpuUs, readErrors,
      startRssMb, peakRssMb: memory.rss, peakAnonMb: memory.anon, storage: `${storage}${s.coreRecycles ? `; ${s.coreRecycles} core recycles` : ''}`,
    };
  } finally {
    memory.stop();
    await node.stop();
  }
}

/** "10k", "1m", "5m", "300k": a count as a row name holds it. */
function label(n: number): string {
  if (n >= 1_000_000 && n % 1_000_000 === 0) return `${n / 1_000_000}m`;
  if (n >= 1_000 && n % 1_000 === 0) return `${n / 1_000}k`;
  return String(n);
}

/**
 * Per mode and figure: the smallest N's value, then each larger N's as a ratio against it (a rate's
 * ratio below 1 is slower, a cost's above 1 is dearer); the elastic node's memory against its bound.
 */
function rows(runs: Run[]): BenchResult[] {
  const base = runs[0]!;
  const b = label(base.accounts);
  const figures: Array<{ key: string; unit: string; of: (m: Measured) => number; what: string; detail: (m: Measured) => string; goal?: string }> = [
    { key: 'block_node_ms', unit: 'ms', of: (m) => m.blockNodeMs, what: 'a 10,000-transfer block (one transfer a bundle, to random accounts of the N) in the node, execution → durable', detail: (m) => `median of ${m.blocks} blocks of ≥ 2,000 bundles, per 10,000; phases ${m.blockPhases}; the writer thread's ${m.blockWriter}; ${m.blockCpu}`, goal: 'goal at 5,000,000 accounts: ≤ 1.5 (issue 45)' },
    { key: 'block_cpu_ms', unit: 'ms', of: (m) => m.blockCpuMs, what: `CPU of the node, every thread, over the ${BLOCK_TRANSFERS} transfers of those blocks (submit, admission, execution, the write), per 10,000: what the wall times cost where they do not wait for a core`, detail: (m) => `by thread ms: ${m.blockThreads}`, goal: 'the goal\'s block time in CPU' },
    { key: 'block_core_ms', unit: 'ms', of: (m) => m.blockCoreMs, what: 'the core\'s part of the same blocks (apply + commit: the execute and commit phases)', detail: (m) => `median, per 10,000 bundles of ${m.blocks} blocks`, goal: 'goal at 5,000,000 accounts: ≤ 1.5 (issue 45)' },
    { key: 'signed_cpu_us', unit: 'µs', of: (m) => m.signedCpuUs, what: `CPU of a signed transfer, every thread of the node: ${SIGNERS * SIGNED_ROUNDS} from ${SIGNERS} keys to random accounts, submit → in a block`, detail: (m) => `by thread µs: ${m.signedThreads}; ${m.signedFailures} failed` },
    { key: 'get_balance_rps', unit: 'req/s', of: (m) => m.readRps, what: `svc_getBalance over ${READ_ACCOUNTS} random accounts of the N, ${READ_CONNECTIONS} connections, ${READ_SECONDS} s`, detail: (m) => `${m.readCpuUs.toFixed(1)} µs of the node's CPU a request${m.readErrors ? `; ${m.readErrors} connection errors or timeouts` : ''}` },
    { key: 'start_ms', unit: 'ms', of: (m) => m.startMs, what: 'start-up: spawn to the first JSON-RPC answer on the built state', detail: (m) => `RSS at start ${m.startRssMb} MB` },
    { key: 'peak_rss_mb', unit: 'MB', of: (m) => m.peakRssMb, what: 'peak resident memory (VmRSS) over the run', detail: (m) => `anonymous (RssAnon) ${m.peakAnonMb} MB; ${m.storage}` },
  ];
  const out: BenchResult[] = [];
  for (const mode of ['memory', 'elastic'] as const) {
    const baseRun = base[mode];
    if (!baseRun) continue;
    const how = mode === 'memory' ? 'whole state in memory' : '--elastic-state';
    for (const f of figures) {
      const v0 = f.of(baseRun);
      out.push({ name: `state_size.${mode}.${f.key}_${b}`, value: f.unit === 'µs' || f.unit === 'ms' ? round3(v0) : Math.round(v0), unit: f.unit, note: `${how}, ${base.accounts.toLocaleString('en-US')} accounts (the baseline): ${f.what}; ${f.detail(baseRun)}` });
      for (const run of runs.slice(1)) {
        const m = run[mode]!;
        const v = f.of(m);
        out.push({
          name: `state_size.${mode}.${f.key}_${label(run.accounts)}_vs_${b}`, value: round3(v / v0), unit: 'ratio',
          note: `${how}, ${run.accounts.toLocaleString('en-US')} accounts: ${f.unit === 'µs' || f.unit === 'ms' ? v.toFixed(1) : Math.round(v)} ${f.unit} against ${base.accounts.toLocaleString('en-US')} accounts' in this run; ${f.detail(m)}${f.goal && run === runs.at(-1) ? `; ${f.goal}` : ''}`,
        });
      }
    }
  }
  for (const run of runs) {
    if (!run.elastic) continue;
    out.push({
      name: `state_size.elastic.rss_anon_vs_bound_${label(run.accounts)}`, value: round3(run.elastic.peakAnonMb / run.boundMb), unit: 'ratio',
      note: `the elastic node's peak RssAnon (its own memory: ${run.elastic.peakAnonMb} MB) over its bound (${run.boundMb} MB; ${run.bound}, docs/operations.md "Memory bound") at ${run.accounts.toLocaleString('en-US')} accounts; goal ≤ 1`,
    });
  }
  return out;
}
