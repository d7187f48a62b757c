import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

/**
 * The checkout: the nearest folder up with a package.json. The harness runs from source under
 * vitest (test/e2e/) and compiled into dist/test/e2e/ under scripts/chaos.ts (`npm run chaos`).
 */
function findRoot(from: string): string {
  return existsSync(join(from, 'package.json')) || dirname(from) === from ? from : findRoot(dirname(from));
}
const ROOT = findRoot(fileURLToPath(new URL('.', import.meta.url)));
const MAIN = join(ROOT, 'dist/src/cli/main.js');

/**
 * How long a starting node may take to answer svc_version: it compiles the core and opens its
 * database, which takes a few seconds alone and several times that with two test files (and their
 * nodes) sharing two cores.
 */
const START_TIMEOUT_MS = 45_000;

export interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown> & { status?: string };
}

export interface RpcResponse<T = unknown> {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: T;
  error?: RpcError;
}

/** A real node process on 127.0.0.1, driven over JSON-RPC (DESIGN.md test/e2e). */
export class TestNode {
  private process: ChildProcess | undefined;
  private output = '';
  private nextId = 1;
  readonly url: string;

  private constructor(readonly dataDir: string, readonly port: number, readonly args: string[], private readonly ownsDir: boolean) {
    this.url = `http://127.0.0.1:${port}/`;
  }

  /** Start a node in a fresh (or given) data dir; resolves once it answers svc_version. */
  static async start(options: { args?: string[]; dataDir?: string } = {}): Promise<TestNode> {
    const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'ntv-e2e-')));
    const node = new TestNode(dataDir, await freePort(), options.args ?? [], options.dataDir === undefined);
    await node.launch();
    return node;
  }

  /** The node process's pid (e.g. to list its sockets), undefined when not running. */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  get logs(): string {
    return this.output;
  }

  /** How the process ended when it ended on its own or by another's signal (undefined while it runs or after stop()). */
  get ended(): string | undefined {
    const child = this.process;
    if (!child) return undefined;
    if (child.signalCode !== null) return `killed by ${child.signalCode}`;
    return child.exitCode !== null ? `exited with ${child.exitCode}` : undefined;
  }

  async launch(): Promise<void> {
    // P2P on a free local port unless the test names one (spec §4.20 --p2p-port defaults to 9944).
    const p2p = [...(this.args.includes('--p2p-port') ? [] : ['--p2p-port', '0']), ...(this.args.includes('--p2p-host') ? [] : ['--p2p-host', '127.0.0.1'])];
    // Every test client shares 127.0.0.1, and pollers (until-loops over several nodes) would spend
    // the per-IP budget of the default limit; the rate-limit tests name their own.
    const limit = [
      ...(this.args.includes('--rpc-rate-limit') ? [] : ['--rpc-rate-limit', '0']),
      // Likewise the per-IP connection cap (docs/rpc.md "Connections"): every test's sockets come from 127.0.0.1.
      ...(this.args.includes('--rpc-max-connections-per-ip') ? [] : ['--rpc-max-connections-per-ip', '0']),
    ];
    const child = spawn(process.execPath, [MAIN, 'run', '--rpc-port', String(this.port), '-d', this.dataDir, ...p2p, ...limit, ...this.args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`node exited with ${child.exitCode}:\n${this.output}`);
      try {
        const res = await this.call('svc_version');
        if (res.result) return;
      } catch {
        // not listening yet
      }
      await sleep(100);
    }
    // A node that never answered is stopped here: the caller has no handle to stop it, and a leaked
    // node would keep making blocks and loading the machine for every later test.
    child.kill('SIGKILL');
    throw new Error(`node did not answer svc_version within ${START_TIMEOUT_MS / 1000} s:\n${this.output}`);
  }

  async raw(body: string, headers: Record<string, string> = { 'content-type': 'application/json' }): Promise<{ status: number; text: string }> {
    const res = await fetch(this.url, { method: 'POST', body, headers });
    return { status: res.status, text: await res.text() };
  }

  async call<T = unknown>(method: string, params: unknown[] | Record<string, unknown> = []): Promise<RpcResponse<T>> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
    });
    return (await res.json()) as RpcResponse<T>;
  }

  /**
   * The JSON-RPC error of a call that must fail. A result instead throws, failing the test (plain
   * Error, not vitest's expect: scripts/chaos.ts drives this harness outside vitest).
   */
  async rpcError(method: string, params: unknown[] | Record<string, unknown> = []): Promise<RpcError> {
    const res = await this.call(method, params);
    if (!res.error) throw new Error(`${method} ${JSON.stringify(params)} should fail, but answered ${JSON.stringify(res.result)}`);
    return res.error;
  }

  /** The result, or a thrown Error carrying the JSON-RPC error. */
  async result<T = unknown>(method: string, params: unknown[] | Record<string, unknown> = []): Promise<T> {
    const res = await this.call<T>(method, params);
    if (res.error) throw Object.assign(new Error(`${method}: ${res.error.code} ${res.error.message}`), { rpc: res.error });
    return res.result as T;
  }

  async waitForHeight(height: number, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const stats = await this.result<{ blockHeight: number }>('svc_getNetworkStats');
      if (stats.blockHeight >= height) return;
      await sleep(100);
    }
    throw new Error(`height ${height} not reached in ${timeoutMs} ms`);
  }

  /** The exit code once the process ends by itself (e.g. 42 at an upgrade height); throws after `timeoutMs`. */
  waitForExit(timeoutMs = 30_000): Promise<number | null> {
    const child = this.process;
    if (!child) return Promise.resolve(null);
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolveExit, reject) => {
      const timer = setTimeout(() => reject(new Error(`node did not exit within ${timeoutMs} ms:\n${this.output.slice(-4000)}`)), timeoutMs);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolveExit(code);
      });
    });
  }

  kill9(): Promise<void> {
    return this.terminate('SIGKILL');
  }

  /** Stop the process (SIGTERM) and, when the harness created the data dir, remove it. */
  async stop(): Promise<void> {
    await this.terminate('SIGTERM');
    if (this.ownsDir) await rm(this.dataDir, { recursive: true, force: true });
  }

  private terminate(signal: NodeJS.Signals): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolveExit) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolveExit();
      });
      child.kill(signal);
    });
  }
}

/** Poll `probe` every 100 ms until it gives a value (not undefined or false); throws naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * A `svc_subscribe_logs` subscription over WebSocket on `node` (docs/subscriptions.md): `items` gets
 * every log item the node sends it, in order, from the subscribe reply on; `close` ends it.
 */
export async function subscribeLogs<T = Record<string, unknown>>(node: TestNode, filter?: Record<string, unknown>): Promise<{ items: T[]; close: () => void }> {
  const ws = new WebSocket(node.url.replace('http', 'ws'));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const items: T[] = [];
  const subscribed = new Promise<void>((resolve, reject) => {
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString()) as { id?: number; method?: string; params?: { result: T }; error?: RpcError };
      if (msg.method === 'svc_subscription') items.push(msg.params!.result);
      else if (msg.id === 1 && msg.error) reject(new Error(`svc_subscribe_logs: ${msg.error.code} ${msg.error.message}`));
      else if (msg.id === 1) resolve();
    });
  });
  ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'svc_subscribe_logs', params: filter ? [filter] : [] }));
  await subscribed;
  return { items, close: () => ws.close() };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A port free on 127.0.0.1 right now (tests bind only to loopback). */
export function freePort(): Promise<number> {
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
