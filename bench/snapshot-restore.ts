import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { createZstdDecompress } from 'node:zlib';
import * as tar from 'tar';
import { createLogger } from '../src/logger.js';
import { restoreSnapshot } from '../src/operator/snapshots.js';
import { BenchNode } from './bench-node.js';
import { send } from './elastic-state.js';
import type { BenchResult } from './rpc.js';

/**
 * Snapshot restore speed (issue 24 "What it must show", docs/operations.md "Snapshots"): a node
 * with --serve-snapshots builds a state of N accounts and writes a snapshot of it; the figure is the
 * restore (`restoreSnapshot`: download over localhost, unpack, import with the root recomputed
 * from the records, the head check) in MB of archive per second, against a plain extraction of the
 * same archive in the same run: the system `tar` with `zstd` when both are installed, else Node's
 * zstd and the `tar` package. N is NTV_BENCH_SNAPSHOT_ACCOUNTS (default 50,000).
 */
export async function benchSnapshotRestore(options: { accounts?: number } = {}): Promise<BenchResult[]> {
  const accounts = options.accounts ?? Number(process.env.NTV_BENCH_SNAPSHOT_ACCOUNTS ?? 50_000);
  const work = await mkdtemp(join(tmpdir(), 'ntv-bench-snap-'));
  const node = await BenchNode.start(['--rpc-rate-limit', '0', '--block-time', '1', '--mempool-max-queued-per-account', '100000',
    '--mempool-max-nonce-gap', '1000000', '--serve-snapshots', '--snapshot-interval', '5']);
  try {
    const nonces = Array.from({ length: 8 }, () => 0n);
    await send(node, nonces, Array.from({ length: accounts }, () => new Uint8Array(randomBytes(32))), 1n);
    const built = (await node.call('svc_getNetworkStats') as { blockHeight: number }).blockHeight;
    const base = new URL(node.url);
    base.port = String(Number(base.port) + 10);
    // The first snapshot holding the whole state: written at the next multiple of 5 after it was built.
    let snapshot: { url: string; bytes: number; height: number } | undefined;
    for (let tries = 0; !snapshot && tries < 600; tries++) {
      const list = (await (await fetch(new URL('/snapshots', base))).json()) as Array<{ url: string; bytes: number; height: number }>;
      snapshot = list.find((s) => s.height >= built);
      if (!snapshot) await new Promise((r) => setTimeout(r, 200));
    }
    if (!snapshot) throw new Error(`no snapshot at or above height ${built} within 2 minutes`);
    const url = new URL(snapshot.url, base).toString();
    const file = join(work, 'snapshot.tar.zst');
    await pipeline(Readable.fromWeb((await fetch(url)).body as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(file));
    const mb = (await stat(file)).size / 1e6;

    // Baseline: a plain extraction of the same archive.
    const system = spawnSync('tar', ['--version']).status === 0 && spawnSync('zstd', ['--version']).status === 0;
    const out = join(work, 'extract');
    await mkdir(out);
    let started = performance.now();
    if (system) {
      const r = spawnSync('tar', ['-I', 'zstd', '-xf', file, '-C', out]);
      if (r.status !== 0) throw new Error(`tar -I zstd failed: ${r.stderr.toString()}`);
    } else {
      await pipeline(createReadStream(file), createZstdDecompress(), tar.x({ cwd: out }) as unknown as NodeJS.WritableStream);
    }
    const extractSeconds = (performance.now() - started) / 1000;

    // The restore into an empty data directory.
    const dataDir = join(work, 'restored');
    await mkdir(dataDir);
    started = performance.now();
    const restored = await restoreSnapshot(url, dataDir, { logger: createLogger({ verbose: false, format: 'pretty', sink: process.stderr }) });
    const restoreSeconds = (performance.now() - started) / 1000;

    const how = `snapshot of ${accounts} accounts at height ${restored.manifest.height}, ${mb.toFixed(1)} MB .tar.zst, ${restored.records} records`;
    const baseline = system ? 'system tar -I zstd -xf' : 'Node zstd + the tar package (no system tar/zstd)';
    return [
      { name: 'snapshot.restore_mb_per_s', value: Math.round((mb / restoreSeconds) * 10) / 10, unit: 'MB/s', note: `${how}; --snapshot-url restore: download over localhost, unpack, import (root recomputed), head check; ${restoreSeconds.toFixed(2)} s` },
      { name: 'snapshot.extract_mb_per_s', value: Math.round((mb / extractSeconds) * 10) / 10, unit: 'MB/s', note: `${how}; ${baseline} of the same archive; ${extractSeconds.toFixed(2)} s` },
      { name: 'snapshot.restore_vs_extract', value: Math.round((extractSeconds / restoreSeconds) * 1000) / 1000, unit: 'ratio', note: 'restore MB/s over plain extraction MB/s, same archive, same run' },
    ];
  } finally {
    await node.stop();
    await rm(work, { recursive: true, force: true });
  }
}
