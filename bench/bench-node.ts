import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A real node process on 127.0.0.1 for the end-to-end benchmarks, in a temporary data dir. */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const MAIN = join(ROOT, 'dist/src/cli/main.js');

export interface RpcReply { id: number; result?: unknown; error?: { code: number; message: string; data?: unknown } }

export class BenchNode {
  private constructor(private readonly child: ChildProcess, readonly url: string, private readonly dataDir: string, private readonly keep = false) {}

  /**
   * `log`: a file for the node's verbose log (block phase timings); NTV_BENCH_NODE_LOG sets one too.
   * `dataDir`: run on this data directory, left in place by `stop` (default: a temporary one, removed).
   */
  static async start(args: string[], log = process.env.NTV_BENCH_NODE_LOG, dataDir?: string): Promise<BenchNode> {
    const keep = dataDir !== undefined;
    dataDir ??= await mkdtemp(join(tmpdir(), 'ntv-bench-'));
    const port = await freePort();
    // For profiling: NTV_BENCH_NODE_FLAGS passes Node flags to the node under test (e.g. --cpu-prof).
    const nodeFlags = (process.env.NTV_BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    // For comparing a flag of the node's own: NTV_BENCH_NODE_ARGS adds to `ntv-node run`'s (e.g. --verifier-nice 0).
    const extra = [...(process.env.NTV_BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(log ? ['-v'] : [])];
    // P2P on loopback and a free port unless the bench names them: two bench nodes at once (a
    // paired comparison) would otherwise both ask for 9944, and the second could not start.
    const p2p = [...(args.includes('--p2p-port') ? [] : ['--p2p-port', '0']), ...(args.includes('--p2p-host') ? [] : ['--p2p-host', '127.0.0.1'])];
    const child = spawn(process.execPath, [...nodeFlags, MAIN, 'run', '--rpc-port', String(port), '-d', dataDir, ...p2p, ...args, ...extra], {
      stdio: log ? ['ignore', openSync(log, 'w'), 'inherit'] : 'ignore',
    });
    const node = new BenchNode(child, `http://127.0.0.1:${port}/`, dataDir, keep);
    // A node opened on a given data directory may first load a large state (the elastic bench's
    // millions of accounts): it gets up to 15 minutes.
    const tries = keep ? 9000 : 200;
    for (let i = 0; i < tries && child.exitCode === null; i++) {
      try {
        await node.call('svc_version', []);
        return node;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    child.kill('SIGKILL');
    throw new Error(`bench node did not start${child.exitCode !== null ? ` (exited ${child.exitCode})` : ''}`);
  }

  /** The node's process id: per-thread CPU (testkit/proc-stat.ts) and resident memory sampling. */
  get pid(): number {
    return this.child.pid!;
  }

  async call(method: string, params: unknown[] = []): Promise<unknown> {
    const [reply] = await this.batch([{ method, params }]);
    if (reply!.error) throw new Error(`${method}: ${reply!.error.message}`);
    return reply!.result;
  }

  async batch(calls: Array<{ method: string; params: unknown[] }>): Promise<RpcReply[]> {
    const body = JSON.stringify(calls.map((c, id) => ({ jsonrpc: '2.0', id, method: c.method, params: c.params })));
    const res = await fetch(this.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return (await res.json()) as RpcReply[];
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => {
      if (this.child.exitCode !== null) return r();
      this.child.once('exit', () => r());
      this.child.kill('SIGTERM');
      // A node on a kept data directory (the elastic bench's seeder) must not hold the bench up:
      // past a minute it is killed (its database keeps whole blocks either way).
      if (this.keep) setTimeout(() => this.child.kill('SIGKILL'), 60_000).unref();
    });
    if (!this.keep) await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** A port free on 127.0.0.1 right now (benchmarks bind only to loopback). */
export function freePort(): Promise<number> {
  return new Promise((r, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      server.close(() => r(port));
    });
  });
}
