import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey } from '../src/codec/keys.js';
import { BenchNode } from './bench-node.js';
import type { BenchResult } from './rpc.js';

/**
 * Time to finality (issue 5, docs/consensus.md): four validator processes on 127.0.0.1 over QUIC,
 * then seven for the block interval a larger set keeps (issue 40),
 * each block measured from the proposal made (on the proposer) or first seen (elsewhere) until the
 * votes of > 2/3 of the stake are in (the certificate is complete), as svc_consensusStatus reports
 * it. Baseline from the same run: a solo validator with the same --block-time, whose blocks are
 * final when made (its interval is the cadence the network's finality adds to).
 */

interface Status {
  finality_ms: { samples: number; average: number; p50: number; p95: number; max: number } | null;
  block_interval_ms: number | null;
  mode: string;
}

const BLOCK_TIME = '0.5';

export async function benchFinality(options: { seconds?: number } = {}): Promise<BenchResult[]> {
  const seconds = options.seconds ?? 15;
  const dir = await mkdtemp(join(tmpdir(), 'ntv-bench-finality-'));
  const started: BenchNode[] = [];
  try {
    // Baseline: one validator, final when made.
    const soloSeed = randomBytes(32);
    await writeFile(join(dir, 'solo.key'), soloSeed.toString('hex'));
    const solo = await BenchNode.start(['--validator-key', join(dir, 'solo.key'), '--block-time', BLOCK_TIME, '--p2p-host', '127.0.0.1']);
    started.push(solo);
    await sleep(seconds * 1000);
    const soloStatus = (await solo.call('svc_consensusStatus')) as Status;
    await solo.stop();
    started.pop();

    const four = await measureNetwork(4, dir, seconds, started);
    const seven = await measureNetwork(7, dir, seconds, started);
    if (!soloStatus.block_interval_ms) throw new Error('no solo interval measured');
    const soloMs = soloStatus.block_interval_ms;
    const ratio = (x: number) => Math.round((x / soloMs) * 1000) / 1000;
    return [
      { name: 'finality, 4 validators: proposal → certificate, p50', value: four.p50, unit: 'ms', note: `median over the 4 nodes of each node's p50; ${four.samples} node-blocks, --block-time ${BLOCK_TIME}` },
      { name: 'finality, 4 validators: proposal → certificate, p95', value: four.p95, unit: 'ms', note: 'median over the 4 nodes of each node\'s p95' },
      { name: 'block interval, 4 validators', value: four.interval, unit: 'ms', note: four.note },
      { name: 'block interval, 7 validators', value: seven.interval, unit: 'ms', note: `${seven.note}; finality p50 ${seven.p50} ms, p95 ${seven.p95} ms` },
      { name: 'baseline: solo validator block interval', value: soloMs, unit: 'ms', note: `same --block-time; solo finality (made → durable) p50 ${soloStatus.finality_ms?.p50 ?? '?'} ms` },
      { name: 'block interval 4 validators / solo', value: ratio(four.interval), unit: 'ratio', note: 'the cadence a 4-validator network keeps against one validator, same run' },
      { name: 'block interval 7 validators / solo', value: ratio(seven.interval), unit: 'ratio', note: 'the same with 7 validators' },
      { name: 'finality p50 / solo block interval', value: ratio(four.p50), unit: 'ratio', note: 'the latency consensus adds, per block, relative to the solo cadence' },
    ];
  } finally {
    await Promise.all(started.map((n) => n.stop().catch(() => undefined)));
    await rm(dir, { recursive: true, force: true });
  }
}

/** Start `n` validators over QUIC, let them settle, and measure finality and the block interval over `seconds`; stops them. */
async function measureNetwork(n: number, dir: string, seconds: number, started: BenchNode[]): Promise<{ p50: number; p95: number; interval: number; samples: number; note: string }> {
  const seeds = Array.from({ length: n }, () => randomBytes(32));
  const keys = seeds.map((s) => Buffer.from(ed25519PublicKey(s)).toString('hex'));
  const common = ['--genesis-validators', keys.join(','), '--block-time', BLOCK_TIME, '--p2p-host', '127.0.0.1'];
  const boots: string[] = [];
  const nodes: BenchNode[] = [];
  try {
    for (const [i, seed] of seeds.entries()) {
      const file = join(dir, `n${n}-v${i}.key`);
      await writeFile(file, seed.toString('hex'));
      const node = await BenchNode.start([...common, '--validator-key', file,
        ...(boots.length ? ['--bootnodes', boots.join(',')] : [])]);
      nodes.push(node);
      started.push(node);
      const health = (await node.call('svc_validatorHealth')) as { addresses: string[] };
      boots.push(health.addresses.find((a) => a.includes('127.0.0.1') && a.includes('/quic-v1/p2p/'))!);
    }
    // Let the network form and the first heights pass, then measure a window of blocks.
    await sleep(3000);
    const heightOf = async () => ((await nodes[0]!.call('svc_getNetworkStats')) as { blockHeight: number }).blockHeight;
    const [h0, t0] = [await heightOf(), Date.now()];
    await sleep(seconds * 1000);
    const [h1, t1] = [await heightOf(), Date.now()];
    const statuses = (await Promise.all(nodes.map((node) => node.call('svc_consensusStatus')))) as Status[];
    const finality = statuses.map((s) => s.finality_ms).filter((f): f is NonNullable<Status['finality_ms']> => f !== null);
    if (finality.length === 0) throw new Error(`no finality measured with ${n} validators`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    return {
      p50: median(finality.map((f) => f.p50)), p95: median(finality.map((f) => f.p95)),
      interval: Math.round((t1 - t0) / Math.max(1, h1 - h0)), samples: finality.reduce((k, f) => k + f.samples, 0),
      note: `${h1 - h0} blocks in ${Math.round((t1 - t0) / 1000)} s`,
    };
  } finally {
    await Promise.all(nodes.map((node) => node.stop().catch(() => undefined)));
    for (const node of nodes) started.splice(started.indexOf(node), 1);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// `node dist/bench/finality.js` runs this suite alone.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const rows = await benchFinality();
  for (const r of rows) console.log(`| ${r.name} | ${r.value.toLocaleString('en-US')} | ${r.unit} | ${r.note ?? ''} |`);
}
