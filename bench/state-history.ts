import { randomBytes } from 'node:crypto';
import { NATIVE_MINT } from '../src/codec/address.js';
import { identity, openLocalChain, produceTransferBlocks, type LocalChain } from '../testkit/local-chain.js';
import type { BenchResult } from './rpc.js';
import type { StoredRawBlock } from '../src/storage/chain-store.js';
import type { ProducedBlock } from '../src/chain/producer.js';

/**
 * State at past blocks (issue 42 item 1; docs/storage.md "State history"): what keeping every
 * block's change set costs, against a chain that keeps none, in the same run.
 *
 * - Bytes of history per 10,000 transfers: blocks of 10,000 transfers, each to a fresh random
 *   recipient (every transfer writes a new balance, the sender's account and balance, and the
 *   state tree's records), the 'u' and 'v' records counted after.
 * - The full-block time with history against without: the same blocks (made once) imported one at
 *   a time until durable by a chain with history and one without, alternated round by round; the
 *   median block of each round, and the figure the median of the rounds' with/without ratios.
 * - A read at head−1000 against a read at the head: a balance, 1,100 small blocks in.
 */

/** the funded system accounts 0x00…01–0x00…08 send, unsigned (testnet, spec §5.6) */
const SENDERS = Array.from({ length: 8 }, (_, i) => { const a = new Uint8Array(32); a[31] = i + 1; return a; });

export async function benchStateHistory(options: { perBlock?: number; blocks?: number; rounds?: number } = {}): Promise<BenchResult[]> {
  const perBlock = options.perBlock ?? Number(process.env.NTV_BENCH_HISTORY_PER_BLOCK ?? 10_000);
  const blocks = options.blocks ?? 6;
  const rounds = options.rounds ?? 4;
  const log = (line: string) => process.stderr.write(`bench state history: ${line}\n`);
  const validator = identity();
  // The blocks, made once: full blocks of transfers to fresh recipients.
  const source = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: perBlock, stateHistory: false });
  let raws: StoredRawBlock[];
  try {
    source.chain.start();
    await fullBlocks(source, blocks, perBlock);
    const head = source.chain.height;
    raws = (await source.store.getRawBlocks(Array.from({ length: head }, (_, i) => i + 1))).map((r) => r!);
    log(`${raws.length} blocks made (${raws.filter((r) => r.bundleHashes.length === perBlock).length} full)`);
  } finally {
    await source.close();
  }
  // The same blocks imported by a chain with history and one without, alternated round by round.
  const times = { with: [] as number[], without: [] as number[] };
  /** main-thread milliseconds taking each block's change set (ProducedBlock.timings.history) */
  const taking: number[] = [];
  let stored = { records: 0, bytes: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const which of (round % 2 === 0 ? ['without', 'with'] : ['with', 'without']) as Array<'with' | 'without'>) {
      const follower = await openLocalChain({ genesisValidators: [validator.publicKey], maxTxsPerBlock: perBlock, stateHistory: which === 'with' });
      if (which === 'with') follower.chain.on('block', (produced: ProducedBlock) => taking.push(produced.timings.history ?? 0));
      try {
        const each: number[] = [];
        for (const raw of raws) {
          const t0 = performance.now();
          await (await follower.chain.importBlock(raw.block, raw.certificate)).durable;
          each.push(performance.now() - t0);
        }
        times[which].push(median(each));
        if (which === 'with') stored = await historyBytesOnceIndexed(follower);
      } finally {
        await follower.close();
      }
      log(`round ${round + 1} ${which} history: median block ${times[which].at(-1)!.toFixed(1)} ms`);
    }
  }
  const transfers = raws.length * perBlock;
  const bytesPer10k = (stored.bytes / transfers) * 10_000;
  const withMs = median(times.with);
  const withoutMs = median(times.without);
  // Each round measures both back to back: its ratio compares like with like when the machine's load drifts.
  const ratios = times.with.map((w, i) => w / times.without[i]!);
  const reads = await readsAtDepth(log);
  return [
    {
      name: 'state history: bytes per 10,000 transfers', value: Math.round(bytesPer10k), unit: 'bytes',
      note: `${stored.records.toLocaleString('en-US')} 'u'/'v' records for ${raws.length} blocks of up to ${perBlock.toLocaleString('en-US')} transfers to fresh recipients (keys and values as stored, before LevelDB's compression); the state tree's records are most of it (docs/storage.md "State history")`,
    },
    {
      name: 'state history: full block time with history / without', value: round2(median(ratios)), unit: '×',
      note: `the same ${raws.length} blocks of ${perBlock.toLocaleString('en-US')} transfers imported one at a time until durable (Chain.importBlock: execute, commit, change set, write), ${rounds} alternated rounds: the median of the rounds' ratios (${ratios.map((r) => r.toFixed(2)).join(', ')}); median block ${withMs.toFixed(1)} ms with, ${withoutMs.toFixed(1)} ms without; of it, taking the change set on the main thread: median ${median(taking).toFixed(1)} ms a block (the rest is the writer thread's extra records)`,
    },
    {
      name: 'state history: balance read at head−1000 / at the head', value: round2(reads.past / reads.head), unit: '×',
      note: `${reads.past.toFixed(1)} µs at head−1000 (one LevelDB seek) against ${reads.head.toFixed(2)} µs at the head (the in-memory state), median of ${reads.samples} reads each`,
    },
  ];
}

/**
 * The history's records and bytes once every block is indexed. The writer thread builds the per-key
 * 'u' index behind the head, when nothing waits to be written (docs/storage.md "State history"); a
 * block not indexed yet holds its change set packed in its 'v' record only, which indexing cuts back
 * to the key list, so a count taken right after the last import measured neither layout (1.97 MB
 * per 10,000 transfers, 43,544 records, in a run that did so), and the steady state is the indexed one.
 */
async function historyBytesOnceIndexed(local: LocalChain): Promise<{ records: number; bytes: number }> {
  const head = local.chain.height;
  const deadline = Date.now() + 120_000;
  while (((await local.store.stateHistoryIndexed()) ?? -1) < head) {
    if (Date.now() > deadline) throw new Error(`the state history index did not reach the head ${head} within 120 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return local.store.stateHistoryBytes();
}

/** Make `blocks` full blocks of `perBlock` transfers to fresh recipients on a started chain. */
async function fullBlocks(local: LocalChain, blocks: number, perBlock: number): Promise<void> {
  const { chain } = local;
  // The whole load waits in the mempool first (enqueued synchronously: no block is made meanwhile), so every block is full.
  const included: Array<Promise<unknown>> = [];
  for (let i = 0; i < blocks * perBlock; i++) {
    included.push(chain.enqueueOperations(SENDERS[i % SENDERS.length]!, [
      { type: 'Transfer', to: new Uint8Array(randomBytes(32)), token: new Uint8Array(32), amount: 1n },
    ]).included);
  }
  await Promise.all(included);
}

/** A balance read at head−1000 (the history) and at the head (the state view), µs each. */
async function readsAtDepth(log: (line: string) => void): Promise<{ past: number; head: number; samples: number }> {
  const validator = identity();
  const local = await openLocalChain({ validator, genesisValidators: [validator.publicKey], maxTxsPerBlock: 10 });
  try {
    const started = performance.now();
    await produceTransferBlocks(local, 1_100, 10);
    log(`1,100 small blocks in ${Math.round(performance.now() - started)} ms`);
    const { chain } = local;
    const head = chain.height;
    const account = SENDERS[0]!;
    const samples = 2_000;
    const timeReads = async (height: number) => {
      const each: number[] = [];
      for (let i = 0; i < samples; i++) {
        const t0 = performance.now();
        await chain.balanceAt(account, NATIVE_MINT, height);
        each.push((performance.now() - t0) * 1000);
      }
      return median(each);
    };
    // alternated halves, so neither side has the warmer cache throughout
    const past = [await timeReads(head - 1000)];
    const atHead = [await timeReads(head)];
    past.push(await timeReads(head - 1000));
    atHead.push(await timeReads(head));
    return { past: median(past), head: median(atHead), samples: 2 * samples };
  } finally {
    await local.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
