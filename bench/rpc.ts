/**
 * RPC framework overhead: requests/s of RpcServer (Koa + koa-bodyparser + ws on one http.Server,
 * registry dispatch and TypeBox validation) against a bare `node:http` JSON-RPC server doing the
 * same work (parse, Map lookup, reply), both measured in this run (STYLE.md: ratios against a
 * baseline of the same run, never a bare time). Goal: ratio ≥ 0.9 in every run (issue 27).
 *
 * The servers run in a process of their own (bench/rpc-servers.ts) pinned to one CPU, autocannon in
 * a worker thread of this process pinned to the other (bench/affinity.ts), so load generation
 * neither shares the servers' event loop nor trades their core with them. 127.0.0.1 only. The
 * servers are measured in alternating rounds so drift on a shared machine hits them alike.
 */
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { pinServersAndLoad, unpinLoad } from './affinity.js';
import { median, round3, spread } from './stats.js';
import type { ServerKey, ServersCommand, ServersMessage } from './rpc-servers.js';

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
  /** Instead of one body: these, sent in turn by each connection (e.g. reads of many accounts). */
  readonly bodies?: readonly unknown[];
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
    ...(options.bodies ? { requests: options.bodies.map((b) => ({ method: 'POST', body: typeof b === 'string' ? b : JSON.stringify(b) })) } : {}),
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

async function checkReply(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { result?: unknown };
  if (json.result !== 'value-7') throw new Error(`bench server answered ${JSON.stringify(json)}`);
}

export async function benchRpc(options: { secondsPerServer?: number; rounds?: number; connections?: number } = {}): Promise<BenchResult[]> {
  const seconds = options.secondsPerServer ?? 5;
  const rounds = options.rounds ?? 5;
  const connections = options.connections ?? 50;
  const body = { jsonrpc: '2.0', id: 1, method: 'bench_lookup', params: ['key7'] };
  const servers = await startServers();
  try {
    // The servers on CPU 0, this process (autocannon's worker thread) on CPU 1.
    const placement = pinServersAndLoad([servers.pid]);
    const targets = (['bare', 'direct', 'koa'] as const).map((key) => ({ key, url: servers.urls[key], requests: 0, elu: 0, cpuMicros: 0, ratios: [] as number[] }));
    let failures = 0;
    for (const t of targets) {
      await checkReply(t.url, body);
      // Warm-up: JIT each path before measuring.
      await loadTestJsonRpc({ url: t.url, body, connections, durationSeconds: 1 });
    }
    // Short slices, alternated, the order reversed every round, and the ratio taken within each
    // round (as bench/node.ts does for svc_getBalance): drift on a shared machine hits the servers
    // of one round alike. The servers' event-loop utilisation near 1 means they, not the load
    // generator, were the bottleneck, so the ratio measures the framework.
    const slice = seconds / rounds;
    for (let i = 0; i < rounds; i++) {
      const got = [0, 0, 0];
      for (const j of i % 2 === 0 ? [0, 1, 2] : [2, 1, 0]) {
        const t = targets[j]!;
        await servers.ask({ type: 'mark' });
        const r = await loadTestJsonRpc({ url: t.url, body, connections, durationSeconds: slice });
        const used = await servers.ask({ type: 'elu' }) as { utilization: number; cpuMicros: number };
        t.elu += used.utilization / rounds;
        t.cpuMicros += used.cpuMicros;
        got[j] = r.requests;
        t.requests += r.requests;
        failures += r.non2xx + r.errors;
      }
      for (const j of [1, 2]) targets[j]!.ratios.push(got[j]! / got[0]!);
    }
    const [b, d, k] = targets as [typeof targets[0], typeof targets[0], typeof targets[0]];
    const rps = (t: typeof b): number => t.requests / seconds;
    const ratio = (t: typeof b): number => round3(median(t.ratios));
    const conditions = `${connections} connections, ${seconds} s each in ${rounds} alternating rounds, autocannon in a worker thread; ${placement}`;
    const perRequest = (t: typeof b): number => t.cpuMicros / t.requests;
    const elu = (t: typeof b): string => `server thread ELU ${t.elu.toFixed(2)}, CPU ${perRequest(t).toFixed(1)} µs a request`;
    return [
      { name: 'rpc.bare_http_rps', value: Math.round(rps(b)), unit: 'req/s', note: `baseline: node:http, JSON.parse + Map lookup; ${elu(b)}; ${conditions}` },
      { name: 'rpc.server_rps', value: Math.round(rps(d)), unit: 'req/s', note: `RpcServer, hotPath 'direct' (default): registry + TypeBox; ${elu(d)}` },
      { name: 'rpc.server_vs_bare_ratio', value: ratio(d), unit: 'ratio', note: `the median of the rounds' ratios (rounds ${spread(d.ratios)}); goal ≥ 0.9 in every run (issue 27)${failures > 0 ? `; ${failures} failed requests` : ''}` },
      {
        name: 'rpc.server_cpu_vs_bare_ratio', value: round3(perRequest(b) / perRequest(d)), unit: 'ratio',
        note: `the bare server's CPU a request over RpcServer's (${perRequest(b).toFixed(1)} / ${perRequest(d).toFixed(1)} µs, the servers' process, every thread): the cost ratio, whether or not the load generator's core bounded the rates`,
      },
      { name: 'rpc.server_koa_rps', value: Math.round(rps(k)), unit: 'req/s', note: `RpcServer, hotPath 'koa': Koa middleware + koa-bodyparser; ${elu(k)}` },
      { name: 'rpc.server_koa_vs_bare_ratio', value: ratio(k), unit: 'ratio', note: `for reference: Koa context cost per request (rounds ${spread(k.ratios)})` },
    ];
  } finally {
    unpinLoad();
    await servers.stop();
  }
}

/** bench/rpc-servers.ts in a process of its own, and its IPC as request and answer. */
async function startServers(): Promise<{ pid: number; urls: Record<ServerKey, string>; ask(m: ServersCommand): Promise<ServersMessage>; stop(): Promise<void> }> {
  const child = fork(fileURLToPath(new URL('./rpc-servers.js', import.meta.url)), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = () => new Promise<ServersMessage>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the rpc bench's servers exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (m: ServersMessage) => {
      child.off('exit', onExit);
      resolve(m);
    });
  });
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`the rpc bench's servers said ${ready.type} first`);
  return {
    pid: child.pid!,
    urls: ready.urls,
    ask(m) {
      const answer = next();
      child.send(m);
      return answer;
    },
    stop: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.send({ type: 'stop' } satisfies ServersCommand);
    }),
  };
}

// Run directly: `npx node dist/bench/rpc.js` after a build.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await benchRpc()) console.log(JSON.stringify(row));
}
