import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ed25519PublicKey } from '../src/codec/keys.js';
import { BenchNode } from './bench-node.js';
import type { BenchResult } from './rpc.js';

/**
 * Time to finality (issue 5, docs/consensus.md): four validator processes on 127.0.0.1 over QUIC,
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
    const solo = await BenchNode.start(['--validator-key', join(dir, 'solo.key'), '--block-time', BLOCK_TIME, '--p2p-port', String(await freeUdpPort()), '--p2p-host', '127.0.0.1']);
    started.push(solo);
    await sleep(seconds * 1000);
    const soloStatus = (await solo.call('svc_consensusStatus')) as Status;
    await solo.stop();
    started.pop();

    const seeds = Array.from({ length: 4 }, () => randomBytes(32));
    const keys = seeds.map((s) => Buffer.from(ed25519PublicKey(s)).toString('hex'));
    const common = ['--genesis-validators', keys.join(','), '--block-time', BLOCK_TIME, '--p2p-host', '127.0.0.1'];
    const boots: string[] = [];
    for (const [i, seed] of seeds.entries()) {
      const file = join(dir, `v${i}.key`);
      await writeFile(file, seed.toString('hex'));
      const node = await BenchNode.start([...common, '--validator-key', file, '--p2p-port', String(await freeUdpPort()),
        ...(boots.length ? ['--bootnodes', boots.join(',')] : [])]);
      started.push(node);
      const health = (await node.call('svc_validatorHealth')) as { addresses: string[] };
      boots.push(health.addresses.find((a) => a.includes('127.0.0.1') && a.includes('/quic-v1/p2p/'))!);
    }
    // Let the network form and the first heights pass, then measure a window of blocks.
    await sleep(3000);
    const heightOf = async () => ((await started[0]!.call('svc_getNetworkStats')) as { blockHeight: number }).blockHeight;
    const [h0, t0] = [await heightOf(), Date.now()];
    await sleep(seconds * 1000);
    const [h1, t1] = [await heightOf(), Date.now()];
    const statuses = (await Promise.all(started.map((n) => n.call('svc_consensusStatus')))) as Status[];
    const finality = statuses.map((s) => s.finality_ms).filter((f): f is NonNullable<Status['finality_ms']> => f !== null);
    if (finality.length === 0 || !soloStatus.block_interval_ms) throw new Error('no finality measured');
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const p50 = median(finality.map((f) => f.p50));
    const p95 = median(finality.map((f) => f.p95));
    const interval = Math.round((t1 - t0) / Math.max(1, h1 - h0));
    const samples = finality.reduce((n, f) => n + f.samples, 0);
    return [
      { name: 'finality, 4 validators: proposal → certificate, p50', value: p50, unit: 'ms', note: `median over the 4 nodes of each node's p50; ${samples} node-blocks, --block-time ${BLOCK_TIME}` },
      { name: 'finality, 4 validators: proposal → certificate, p95', value: p95, unit: 'ms', note: 'median over the 4 nodes of each node\'s p95' },
      { name: 'block interval, 4 validators', value: interval, unit: 'ms', note: `${h1 - h0} blocks in ${Math.round((t1 - t0) / 1000)} s` },
      { name: 'baseline: solo validator block interval', value: soloStatus.block_interval_ms, unit: 'ms', note: `same --block-time; solo finality (made → durable) p50 ${soloStatus.finality_ms?.p50 ?? '?'} ms` },
      { name: 'finality p50 / solo block interval', value: Math.round((p50 / soloStatus.block_interval_ms) * 1000) / 1000, unit: 'ratio', note: 'the latency consensus adds, per block, relative to the solo cadence' },
    ];
  } finally {
    await Promise.all(started.map((n) => n.stop().catch(() => undefined)));
    await rm(dir, { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A port free on 127.0.0.1 (probed over TCP; the node binds UDP for QUIC). */
function freeUdpPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

// `node dist/bench/finality.js` runs this suite alone.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const rows = await benchFinality();
  for (const r of rows) console.log(`| ${r.name} | ${r.value.toLocaleString('en-US')} | ${r.unit} | ${r.note ?? ''} |`);
}
