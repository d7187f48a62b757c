/**
 * RPC framework overhead: requests/s of RpcServer (Koa + koa-bodyparser + ws on one http.Server,
 * registry dispatch and TypeBox validation) against a bare `node:http` JSON-RPC server doing the
 * same work (parse, Map lookup, reply), both measured in this run (STYLE.md: ratios against a
 * baseline of the same run, never a bare time). Goal: ratio ≥ 0.8.
 *
 * Servers run on this thread; autocannon drives them from a worker thread (`workers: 1`), so load
 * generation does not share the server's event loop. 127.0.0.1 only. The two servers are measured
 * in alternating rounds so drift on a shared machine hits both alike.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Type } from '@sinclair/typebox';
import type { Logger } from '../src/logger.js';
import { MethodRegistry } from '../src/rpc/registry.js';
import { RpcServer } from '../src/rpc/server.js';

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  note?: string;
}

export interface LoadTestOptions {
  /** Full URL, e.g. http://127.0.0.1:9933/ */
  readonly url: string;
  /** A JSON-RPC body (object, batch array or raw text), POSTed as application/json. */
  readonly body: unknown;
  readonly connections?: number;
  readonly durationSeconds?: number;
  readonly pipelining?: number;
  /** Worker threads for autocannon; default 1 (off the caller's event loop). 0 = same thread. */
  readonly workers?: number;
}

export interface LoadTestResult {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** The part of autocannon 8's API we use (it ships no type definitions). */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** Load-tests any JSON-RPC body against a URL with autocannon; reusable by the node bench. */
export async function loadTestJsonRpc(options: LoadTestOptions): Promise<LoadTestResult> {
  const workers = options.workers ?? 1;
  const r = await autocannon({
    url: options.url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 5,
    pipelining: options.pipelining ?? 1,
    ...(workers > 0 ? { workers } : {}),
  });
  return {
    requestsPerSecond: r.requests.total / (options.durationSeconds ?? 5),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

function lookupTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (let i = 0; i < 1000; i++) table.set(`key${i}`, `value-${i}`);
  return table;
}

/** The baseline: node:http, read body, JSON.parse, Map lookup, JSON.stringify. */
function startBareServer(table: Map<string, string>): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let reply: string;
      try {
        const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; params: unknown[] };
        reply = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: table.get(msg.params[0] as string) ?? null });
      } catch {
        reply = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}';
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(reply);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function startRpcServer(table: Map<string, string>, hotPath: 'direct' | 'koa'): Promise<RpcServer> {
  const registry = new MethodRegistry({ info: { title: 'bench', version: '0.0.0' } });
  registry.register({
    name: 'bench_lookup',
    summary: 'Looks a key up in a Map.',
    params: [{ name: 'key', schema: Type.String({ maxLength: 64 }) }],
    result: { name: 'value', schema: Type.Union([Type.String(), Type.Null()]) },
    handler: (params) => table.get(params[0] as string) ?? null,
  });
  const server = new RpcServer({ port: 0, rateLimit: 0, hotPath }, { registry, logger: silentLogger });
  await server.start();
  return server;
}

async function checkReply(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { result?: unknown };
  if (json.result !== 'value-7') throw new Error(`bench server answered ${JSON.stringify(json)}`);
}

export async function benchRpc(options: { secondsPerServer?: number; rounds?: number; connections?: number } = {}): Promise<BenchResult[]> {
  const seconds = options.secondsPerServer ?? 5;
  const rounds = options.rounds ?? 2;
  const connections = options.connections ?? 50;
  const table = lookupTable();
  const body = { jsonrpc: '2.0', id: 1, method: 'bench_lookup', params: ['key7'] };
  const bare = await startBareServer(table);
  const direct = await startRpcServer(table, 'direct');
  const koa = await startRpcServer(table, 'koa');
  try {
    const targets = [
      { key: 'bare', url: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`, requests: 0, elu: 0 },
      { key: 'direct', url: direct.url, requests: 0, elu: 0 },
      { key: 'koa', url: koa.url, requests: 0, elu: 0 },
    ];
    let failures = 0;
    for (const t of targets) {
      await checkReply(t.url, body);
      // Warm-up: JIT each path before measuring.
      await loadTestJsonRpc({ url: t.url, body, connections, durationSeconds: 1 });
    }
    // Event-loop utilisation of this (server) thread: near 1 means the server, not the load
    // generator, was the bottleneck, so the ratio measures the framework.
    const slice = seconds / rounds;
    for (let i = 0; i < rounds; i++) {
      for (const t of targets) {
        const mark: EventLoopUtilization = performance.eventLoopUtilization();
        const r = await loadTestJsonRpc({ url: t.url, body, connections, durationSeconds: slice });
        t.elu += performance.eventLoopUtilization(mark).utilization / rounds;
        t.requests += r.requests;
        failures += r.non2xx + r.errors;
      }
    }
    const [b, d, k] = targets as [typeof targets[0], typeof targets[0], typeof targets[0]];
    const rps = (t: typeof b): number => t.requests / seconds;
    const ratio = (t: typeof b): number => Math.round((rps(t) / rps(b)) * 1000) / 1000;
    const conditions = `${connections} connections, ${seconds} s each in ${rounds} alternating rounds, autocannon in a worker thread`;
    const elu = (t: typeof b): string => `server thread ELU ${t.elu.toFixed(2)}`;
    return [
      { name: 'rpc.bare_http_rps', value: Math.round(rps(b)), unit: 'req/s', note: `baseline: node:http, JSON.parse + Map lookup; ${elu(b)}; ${conditions}` },
      { name: 'rpc.server_rps', value: Math.round(rps(d)), unit: 'req/s', note: `RpcServer, hotPath 'direct' (default): registry + TypeBox; ${elu(d)}` },
      { name: 'rpc.server_vs_bare_ratio', value: ratio(d), unit: 'ratio', note: `goal ≥ 0.9 in every run (issue 27)${failures > 0 ? `; ${failures} failed requests` : ''}` },
      { name: 'rpc.server_koa_rps', value: Math.round(rps(k)), unit: 'req/s', note: `RpcServer, hotPath 'koa': Koa middleware + koa-bodyparser; ${elu(k)}` },
      { name: 'rpc.server_koa_vs_bare_ratio', value: ratio(k), unit: 'ratio', note: 'for reference: Koa context cost per request' },
    ];
  } finally {
    await direct.stop();
    await koa.stop();
    await new Promise<void>((resolve) => {
      bare.close(() => resolve());
      bare.closeAllConnections();
    });
  }
}

// Run directly: `npx node dist/bench/rpc.js` after a build.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchRpc()) console.log(JSON.stringify(row));
}
